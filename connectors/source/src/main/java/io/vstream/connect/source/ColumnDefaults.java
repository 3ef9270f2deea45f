package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.vstream.connect.core.position.Flavor;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The literal defaults of a table's NOT NULL columns, for the row schema: a field with a default lets a reader of a
 * newer schema read rows written before the column was added, so that {@code ADD COLUMN c INT NOT NULL DEFAULT 0}
 * is a BACKWARD-compatible change in a schema registry. The binlog does not carry defaults: they are read from
 * {@code information_schema.COLUMNS} when a table's decoder is built. Only constants are taken (numbers, strings,
 * ENUM and SET members); an expression ({@code current_timestamp()}), a binary, bit, temporal, JSON or spatial
 * default, and every NULL-able column (its default is {@code null} already) are left without one.
 */
final class ColumnDefaults {
    private ColumnDefaults() {
    }

    /**
     * The table's NOT NULL columns with a constant default, each with the constant's text (unquoted). MariaDB shows
     * a string default quoted ({@code 'abc'}), a number bare and an expression as its text; MySQL shows every
     * constant bare and marks an expression {@code DEFAULT_GENERATED}.
     */
    static Map<String, String> read(Connection conn, String database, String table, Flavor flavor)
            throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement("/* vstream-connect:source */ SELECT COLUMN_NAME,"
                + " COLUMN_DEFAULT, EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                + " AND IS_NULLABLE = 'NO' AND COLUMN_DEFAULT IS NOT NULL")) {
            ps.setString(1, database);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String literal = literal(rs.getString(2), rs.getString(3), flavor);
                    if (literal != null) {
                        out.put(rs.getString(1), literal);
                    }
                }
            }
        }
        return out;
    }

    /** The constant a {@code COLUMN_DEFAULT} text stands for, unquoted; {@code null} for NULL or an expression. */
    static String literal(String shown, String extra, Flavor flavor) {
        if (shown == null) {
            return null;
        }
        if (flavor != Flavor.MARIADB) {
            return extra != null && extra.toUpperCase(Locale.ROOT).contains("DEFAULT_GENERATED") ? null : shown;
        }
        if (shown.length() >= 2 && shown.startsWith("'") && shown.endsWith("'")) {
            return unquote(shown.substring(1, shown.length() - 1));
        }
        try {
            new BigDecimal(shown);
            return shown; // a number
        } catch (NumberFormatException e) {
            return null; // NULL, or an expression
        }
    }

    private static String unquote(String body) {
        StringBuilder out = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\'' && i + 1 < body.length() && body.charAt(i + 1) == '\'') {
                out.append('\'');
                i++;
            } else if (c == '\\' && i + 1 < body.length()) {
                char n = body.charAt(++i);
                out.append(switch (n) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case '0' -> '\0';
                    default -> n;
                });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The raw value (as {@link BinlogDeserializers} gives a cell of the column) of a default constant, or {@code null}
     * when the column's type takes no default in the schema or the constant does not read as one.
     */
    static Serializable raw(BinlogColumn c, String literal) {
        try {
            switch (c.type()) {
                case TINY, SHORT, INT24, LONG, YEAR:
                    return Long.parseLong(literal.trim());
                case LONGLONG:
                    return new BigInteger(literal.trim()).longValue(); // an unsigned one as the binlog's two's complement
                case FLOAT, DOUBLE:
                    return Double.parseDouble(literal.trim());
                case NEWDECIMAL, DECIMAL:
                    return new BigDecimal(literal.trim());
                case STRING, VARCHAR, VAR_STRING, BLOB, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB:
                    if (c.isBinary()) {
                        return null;
                    }
                    return c.type() == ColumnType.STRING ? literal.replaceAll(" +$", "") : literal; // CHAR pads
                case ENUM: {
                    int i = c.enumOrSetValues() == null ? -1 : Arrays.asList(c.enumOrSetValues()).indexOf(literal);
                    return i < 0 ? null : i + 1;
                }
                case SET: {
                    if (c.enumOrSetValues() == null) {
                        return null;
                    }
                    long bits = 0;
                    for (String part : literal.isEmpty() ? new String[0] : literal.split(",", -1)) {
                        int i = Arrays.asList(c.enumOrSetValues()).indexOf(part);
                        if (i < 0) {
                            return null;
                        }
                        bits |= 1L << i;
                    }
                    return bits;
                }
                default:
                    return null;
            }
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code schema} with {@code value} as its default. */
    static Schema withDefault(Schema schema, Object value) {
        SchemaBuilder b = new SchemaBuilder(schema.type()).name(schema.name()).version(schema.version())
                .doc(schema.doc());
        if (schema.parameters() != null) {
            b.parameters(schema.parameters());
        }
        if (schema.isOptional()) {
            b.optional();
        }
        return b.defaultValue(value).build();
    }
}
