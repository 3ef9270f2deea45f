package io.vstream.connect.core.event;

/**
 * Names of the Connect (and so Avro) schemas of row events: {@code <prefix>.<keyspace>.<table>.Value}, {@code .Key},
 * {@code .Envelope} and {@code .Rows}. Each dot-separated part is made a valid Avro name (letters, digits, underscores, not
 * starting with a digit).
 */
public final class SchemaNames {
    private SchemaNames() {
    }

    public static String value(String prefix, String keyspace, String table) {
        return base(prefix, keyspace, table) + ".Value";
    }

    public static String key(String prefix, String keyspace, String table) {
        return base(prefix, keyspace, table) + ".Key";
    }

    public static String envelope(String prefix, String keyspace, String table) {
        return base(prefix, keyspace, table) + ".Envelope";
    }

    /** The value schema of a table's ROWS records ({@link CopyRows}). */
    public static String rows(String prefix, String keyspace, String table) {
        return base(prefix, keyspace, table) + ".Rows";
    }

    private static String base(String prefix, String keyspace, String table) {
        return avroName(prefix) + "." + avroName(keyspace) + "." + avroName(table);
    }

    /** One name part made Avro-valid: every other character becomes {@code _}; a leading digit gets a {@code _} prefix. */
    public static String avroName(String part) {
        StringBuilder sb = new StringBuilder(part.length() + 1);
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
            sb.append(ok ? c : '_');
        }
        if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) {
            sb.insert(0, '_');
        }
        return sb.toString();
    }
}
