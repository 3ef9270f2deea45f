package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.vstream.connect.core.position.Flavor;

/**
 * One column as a binlog TABLE_MAP event describes it, with the real type resolved (ENUM and SET hide behind STRING
 * in the type array) and the facts of the optional metadata ({@code binlog_row_metadata=FULL}): name, signedness,
 * collation, enum/set values, key membership.
 */
record BinlogColumn(
        int index,
        String name,
        ColumnType type,
        int meta,
        boolean nullable,
        boolean unsigned,
        int collationId,
        String[] enumOrSetValues,
        boolean primaryKey) {

    /** The binary collation: the column holds bytes, not text. */
    static final int BINARY_COLLATION = 63;

    /** Resolves the real type of a TABLE_MAP column the way the server's own decoder does. */
    static ColumnType realType(int typeCode, int meta) {
        if (typeCode == ColumnType.STRING.getCode() && meta >= 256) {
            int meta0 = meta >> 8;
            if ((meta0 & 0x30) != 0x30) {
                return ColumnType.byCode(meta0 | 0x30);
            }
            if (meta0 == ColumnType.ENUM.getCode() || meta0 == ColumnType.SET.getCode()) {
                return ColumnType.byCode(meta0);
            }
        }
        return ColumnType.byCode(typeCode);
    }

    /**
     * The columns over which the SIGNEDNESS metadata has one bit each, in column order: the numeric columns, and on
     * MariaDB also YEAR (MariaDB gives every numeric field a bit and its YEAR is an unsigned TINYINT; MySQL's
     * {@code is_numeric_type} leaves YEAR out).
     */
    static boolean hasSignednessBit(ColumnType t, Flavor flavor) {
        return switch (t) {
            case TINY, SHORT, INT24, LONG, LONGLONG, NEWDECIMAL, DECIMAL, FLOAT, DOUBLE -> true;
            case YEAR -> flavor == Flavor.MARIADB;
            default -> false;
        };
    }

    /** Integer and decimal columns, whose values the unsigned flag changes. */
    static boolean isNumeric(ColumnType t) {
        return hasSignednessBit(t, Flavor.MYSQL56);
    }

    /** Character columns, over which the charset metadata has one entry each (ENUM and SET have their own). */
    static boolean isCharacter(ColumnType t) {
        return switch (t) {
            case STRING, VARCHAR, VAR_STRING, BLOB, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB -> true;
            default -> false;
        };
    }

    boolean isBinary() {
        return collationId == BINARY_COLLATION;
    }

    /**
     * The declared length in bytes of a CHAR/BINARY column (type STRING), from its TABLE_MAP metadata (the high bits
     * of the length hide in the real-type byte, as the server's {@code Field_string::do_save_field_metadata} writes
     * them); 0 for other types. A BINARY(n) value is always n bytes, but the binlog drops its trailing 0x00 bytes.
     */
    int byteLength() {
        if (type != ColumnType.STRING) {
            return 0;
        }
        if (meta < 256) {
            return meta;
        }
        int meta0 = meta >> 8;
        int meta1 = meta & 0xFF;
        return (meta0 & 0x30) != 0x30 ? meta1 | (((meta0 & 0x30) ^ 0x30) << 4) : meta1;
    }

    /** Fractional-second digits of a TIME2/DATETIME2/TIMESTAMP2 column. */
    int fsp() {
        return switch (type) {
            case TIME_V2, DATETIME_V2, TIMESTAMP_V2 -> meta;
            default -> 0;
        };
    }

    /** A readable type, e.g. {@code int unsigned}, {@code decimal(12,2)}, {@code datetime(6)}, {@code varbinary}. */
    String sqlType() {
        String u = unsigned ? " unsigned" : "";
        return switch (type) {
            case TINY -> "tinyint" + u;
            case SHORT -> "smallint" + u;
            case INT24 -> "mediumint" + u;
            case LONG -> "int" + u;
            case LONGLONG -> "bigint" + u;
            case FLOAT -> "float" + u;
            case DOUBLE -> "double" + u;
            case NEWDECIMAL, DECIMAL -> "decimal(" + (meta & 0xFF) + "," + (meta >> 8) + ")" + u;
            case BIT -> "bit(" + ((meta >> 8) * 8 + (meta & 0xFF)) + ")";
            case DATE, NEWDATE -> "date";
            case TIME -> "time";
            case TIME_V2 -> meta > 0 ? "time(" + meta + ")" : "time";
            case DATETIME -> "datetime";
            case DATETIME_V2 -> meta > 0 ? "datetime(" + meta + ")" : "datetime";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMP_V2 -> meta > 0 ? "timestamp(" + meta + ")" : "timestamp";
            case YEAR -> "year";
            case STRING -> isBinary() ? "binary" : "char";
            case VARCHAR, VAR_STRING -> isBinary() ? "varbinary" : "varchar";
            case TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, BLOB -> isBinary() ? blobName("blob") : blobName("text");
            case ENUM -> "enum";
            case SET -> "set";
            case JSON -> "json";
            case GEOMETRY -> "geometry";
            case VECTOR -> "vector";
            default -> type.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private String blobName(String base) {
        // for BLOB columns the metadata is the number of bytes of the length prefix
        return switch (meta) {
            case 1 -> "tiny" + base;
            case 3 -> "medium" + base;
            case 4 -> "long" + base;
            default -> base;
        };
    }
}
