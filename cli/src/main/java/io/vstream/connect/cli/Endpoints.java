package io.vstream.connect.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses the server addresses of the command line: {@code host:port} and {@code <shard>=<host>:<port>,...}. */
public final class Endpoints {
    private Endpoints() {
    }

    /** A server address. */
    public record HostPort(String host, int port) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /** {@code host:port}; a usage error (exit 2) naming the option otherwise. */
    public static HostPort hostPort(String option, String text) {
        String t = text == null ? "" : text.strip();
        int colon = t.lastIndexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw CliException.usage(option + " '" + text + "' must be <host>:<port>, e.g. 10.0.0.1:3306");
        }
        int port;
        try {
            port = Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw CliException.usage(option + " '" + text + "': the port is not a number");
        }
        if (port < 1 || port > 65535) {
            throw CliException.usage(option + " '" + text + "': the port must be 1-65535");
        }
        return new HostPort(t.substring(0, colon), port);
    }

    /**
     * {@code -80=10.0.0.1:3306,80-=10.0.0.2:3306} (the source connector's {@code topology} form): the shards in the
     * order given. Key-range coverage is checked by the connectors' own validation.
     */
    public static LinkedHashMap<String, HostPort> shards(String option, String text) {
        LinkedHashMap<String, HostPort> out = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            throw CliException.usage(option + " is empty: give <shard>=<host>:<port>,..., e.g. -80=10.0.0.1:3306,80-=10.0.0.2:3306");
        }
        for (String entry : text.split(",")) {
            String e = entry.strip();
            int eq = e.indexOf('=');
            if (eq <= 0) {
                throw CliException.usage(option + ": '" + e + "' must be <shard>=<host>:<port>, e.g. -80=10.0.0.1:3306");
            }
            String shard = e.substring(0, eq).strip();
            if (out.put(shard, hostPort(option + " (shard " + shard + ")", e.substring(eq + 1))) != null) {
                throw CliException.usage(option + ": shard " + shard + " is given twice");
            }
        }
        return out;
    }

    /** The topology string of {@code shards}, as the connectors take it. */
    public static String topology(Map<String, HostPort> shards) {
        StringBuilder sb = new StringBuilder();
        shards.forEach((s, hp) -> sb.append(sb.length() == 0 ? "" : ",").append(s).append('=').append(hp));
        return sb.toString();
    }
}
