package io.vstream.connect.core;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version of vstream-connect that was built, as every connector and transform reports it from {@code version()}. */
public final class Version {

    private static final String VERSION = load();

    private Version() {
    }

    /** The Maven project version this jar was built from, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties props = new Properties();
            props.load(in);
            return props.getProperty("version", "unknown").trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
