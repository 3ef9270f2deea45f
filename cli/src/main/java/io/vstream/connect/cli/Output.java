package io.vstream.connect.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/** Printing helpers shared by the commands: pretty JSON, and validation errors by field. */
final class Output {
    private Output() {
    }

    static String pretty(JsonNode n) {
        try {
            return ConnectRestClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static void json(PrintWriter out, JsonNode n) {
        out.println(pretty(n));
        out.flush();
    }

    /** One line per error: {@code <indent><key>: <message>}. */
    static void errors(PrintWriter out, String indent, ValidationResult r) {
        for (Map.Entry<String, List<String>> e : r.errors().entrySet()) {
            for (String m : e.getValue()) {
                out.println(indent + e.getKey() + ": " + m);
            }
        }
    }
}
