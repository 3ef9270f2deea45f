package io.vstream.connect.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Passwords for the generated configurations: read from a local file (the first line, as the configuration's
 * literal value; Connect then stores it, masked in its REST answers only for PASSWORD-typed keys) or a reference the
 * workers resolve ({@code ${file:/etc/kafka-connect/secrets.properties:key}}, as config-examples/ do).
 */
public final class Secrets {
    private Secrets() {
    }

    public static String readFile(String option, Path file) {
        try {
            String s = Files.readString(file);
            int nl = s.indexOf('\n');
            String first = nl < 0 ? s : s.substring(0, nl);
            return first.endsWith("\r") ? first.substring(0, first.length() - 1) : first;
        } catch (IOException e) {
            throw CliException.usage(option + " " + file + " cannot be read: " + e.getMessage());
        }
    }

    /** The password from exactly one of {@code file} and {@code ref}, or a usage error naming both options. */
    public static String one(String fileOption, Path file, String refOption, String ref, boolean required) {
        if (file != null && ref != null) {
            throw CliException.usage("give " + fileOption + " or " + refOption + ", not both");
        }
        if (file != null) {
            return readFile(fileOption, file);
        }
        if (ref != null) {
            if (!ref.startsWith("${") || !ref.endsWith("}")) {
                throw CliException.usage(refOption + " '" + ref + "' must be a config provider reference such as"
                        + " ${file:/etc/kafka-connect/secrets.properties:vstream.password}");
            }
            return ref;
        }
        if (required) {
            throw CliException.usage("missing " + fileOption + " (or " + refOption + ")");
        }
        return null;
    }
}
