package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import java.util.Locale;

/**
 * One column as {@code information_schema.COLUMNS} describes it, and the TABLE_MAP form the binlog gives the same
 * column ({@link #toBinlogColumn}), so that copy rows read over SQL are decoded by the same {@link TableDecoder} and
 * carry the same Connect schema as binlog rows.
 */
record SourceColumn(
        String name,
        String dataType,
        String columnType,
        boolean nullable,
        int collationId,
        long octetLength,
        int numericPrecision,
        int numericScale,
        int datetimePrecision,
        boolean virtual) {

    boolean unsigned() {
        return columnType.toLowerCase(Locale.ROOT).contains("unsigned");
    }

    /** The real binlog column type of this column, or {@code null} when the copy does not support it. */
    ColumnType binlogType() {
        return switch (dataType.toLowerCase(Locale.ROOT)) {
            case "tinyint" -> ColumnType.TINY;
            case "smallint" -> ColumnType.SHORT;
            case "mediumint" -> ColumnType.INT24;
            case "int", "integer" -> ColumnType.LONG;
            case "bigint" -> ColumnType.LONGLONG;
            case "decimal", "numeric" -> ColumnType.NEWDECIMAL;
            case "float" -> ColumnType.FLOAT;
            case "double", "real" -> ColumnType.DOUBLE;
            case "bit" -> ColumnType.BIT;
            case "date" -> ColumnType.DATE;
            case "datetime" -> ColumnType.DATETIME_V2;
            case "timestamp" -> ColumnType.TIMESTAMP_V2;
            case "time" -> ColumnType.TIME_V2;
            case "year" -> ColumnType.YEAR;
            case "char", "binary", "inet6", "inet4", "uuid" -> ColumnType.STRING; // the binlog's form of the last three
            case "varchar", "varbinary" -> ColumnType.VARCHAR;
            case "tinytext", "tinyblob", "text", "blob", "mediumtext", "mediumblob", "longtext", "longblob" ->
                    ColumnType.BLOB;
            case "enum" -> ColumnType.ENUM;
            case "set" -> ColumnType.SET;
            case "json" -> ColumnType.JSON;
            case "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
                    "geometrycollection", "geomcollection" -> ColumnType.GEOMETRY;
            default -> null;
        };
    }

    /** The TABLE_MAP metadata the server writes for this column. */
    int binlogMeta() {
        ColumnType t = binlogType();
        if (t == null) {
            return 0;
        }
        return switch (t) {
            case NEWDECIMAL -> numericPrecision | (numericScale << 8);
            case BIT -> ((numericPrecision / 8) << 8) | (numericPrecision % 8);
            case DATETIME_V2, TIMESTAMP_V2, TIME_V2 -> datetimePrecision;
            case FLOAT -> 4;
            case DOUBLE -> 8;
            case STRING -> {
                int len = (int) fixedBinaryLength().orElse(octetLength);
                yield len < 256 ? len : ((0xFE ^ ((len & 0x300) >> 4)) << 8) | (len & 0xFF);
            }
            case VARCHAR -> (int) octetLength;
            case BLOB -> switch (dataType.toLowerCase(Locale.ROOT)) {
                case "tinytext", "tinyblob" -> 1;
                case "mediumtext", "mediumblob" -> 3;
                case "longtext", "longblob" -> 4;
                default -> 2;
            };
            case JSON, GEOMETRY -> 4;
            default -> 0;
        };
    }

    /**
     * MariaDB's INET6, INET4 and UUID are fixed-length binary values (16, 4 and 16 bytes) in the binlog, and so in
     * the copy ({@link ChunkQuery} reads them as {@code CAST(c AS BINARY(n))}); information_schema gives them no
     * length. Empty for every other type.
     */
    java.util.OptionalLong fixedBinaryLength() {
        return switch (dataType.toLowerCase(Locale.ROOT)) {
            case "inet6", "uuid" -> java.util.OptionalLong.of(16);
            case "inet4" -> java.util.OptionalLong.of(4);
            default -> java.util.OptionalLong.empty();
        };
    }

    /** The ENUM or SET members, from {@code COLUMN_TYPE} ({@code enum('a','b''c')}). */
    String[] members() {
        return EnumSetMembers.members(columnType);
    }

    /** This column with another {@code COLUMN_TYPE} (the same type, spelt with the real ENUM/SET members). */
    SourceColumn withColumnType(String type) {
        return new SourceColumn(name, dataType, type, nullable, collationId, octetLength, numericPrecision,
                numericScale, datetimePrecision, virtual);
    }

    BinlogColumn toBinlogColumn(int index, boolean primaryKey) {
        ColumnType t = binlogType();
        String[] values = t == ColumnType.ENUM || t == ColumnType.SET ? members() : null;
        return new BinlogColumn(index, name, t, binlogMeta(), nullable, unsigned(), collationId, values, primaryKey);
    }
}
