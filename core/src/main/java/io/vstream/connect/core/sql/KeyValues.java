package io.vstream.connect.core.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Reads a key column's value from a result set in the form a {@link io.vstream.connect.core.position.LastPk} keeps and
 * {@link ValueBinder} binds back exactly: integers as {@link Long} (an unsigned BIGINT above 2^63-1 as
 * {@link BigInteger}), DECIMAL as {@link BigDecimal}, binary strings as {@code byte[]}, everything else (character
 * strings in their collation, temporal values) as the server's text. Floating-point keys do not compare exactly and
 * are refused. Uses the result set's metadata only; touches no server.
 */
public final class KeyValues {
    private KeyValues() {
    }

    /** The value of column {@code index} (1-based) of the current row. */
    public static Object read(ResultSet rs, int index) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        switch (md.getColumnType(index)) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BOOLEAN -> {
                long v = rs.getLong(index);
                return rs.wasNull() ? null : v;
            }
            case Types.BIGINT -> {
                if (md.isSigned(index)) {
                    long v = rs.getLong(index);
                    return rs.wasNull() ? null : v;
                }
                BigDecimal d = rs.getBigDecimal(index);
                if (d == null) {
                    return null;
                }
                BigInteger v = d.toBigIntegerExact();
                return v.bitLength() < 64 ? (Object) v.longValue() : v;
            }
            case Types.DECIMAL, Types.NUMERIC -> {
                return rs.getBigDecimal(index);
            }
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> {
                return rs.getBytes(index);
            }
            case Types.BIT -> {
                if (md.getColumnTypeName(index).toUpperCase(java.util.Locale.ROOT).startsWith("BIT")) {
                    return rs.getBytes(index);
                }
                long v = rs.getLong(index); // TINYINT(1), which the driver reports as BIT
                return rs.wasNull() ? null : v;
            }
            case Types.FLOAT, Types.REAL, Types.DOUBLE -> throw new SQLException("Key column '"
                    + md.getColumnLabel(index) + "' is floating-point (" + md.getColumnTypeName(index) + "): such keys"
                    + " do not compare exactly; key the table on an exact type");
            default -> {
                return rs.getString(index);
            }
        }
    }
}
