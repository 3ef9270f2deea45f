package io.vstream.connect.transforms;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.vindex.Vindex;
import io.vstream.connect.core.vindex.Vindexes;
import io.vstream.connect.transforms.util.VStreamRecords;
import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * Computes the keyspace id of each ROW record with a Vitess vindex over its sharding column, writes it as a hex
 * header, and optionally keeps only the rows whose keyspace id a key range holds. The column is read from the
 * envelope's {@code after} image, else {@code before}, or from the value itself once it is a flat row (after
 * ExtractNewRow). Control events, tombstones and records that are not ours pass untouched. Pure record work:
 * touches no server.
 */
public class KeyspaceIdHeader<R extends ConnectRecord<R>> implements Transformation<R>, Versioned {

    public static final String OVERVIEW_DOC = "Computes the keyspace id of each vstream ROW record with a Vitess "
            + "vindex (<code>vindex</code>) over its sharding column (<code>column</code>), read from the after image, "
            + "else the before image, or from the flat row after ExtractNewRow, and writes it as a lowercase hex "
            + "header (<code>header.name</code>). With <code>key.range</code> set, only rows whose keyspace id the "
            + "range holds are kept. Control events, tombstones and other records pass unchanged. Works on values "
            + "with and without a schema.";

    public static final String VINDEX_CONFIG = "vindex";
    public static final String COLUMN_CONFIG = "column";
    public static final String HEADER_NAME_CONFIG = "header.name";
    public static final String KEY_RANGE_CONFIG = "key.range";

    public static final String DEFAULT_HEADER_NAME = "vstream.keyspace_id";

    private static final String GROUP = "Keyspace id";
    private static final HexFormat HEX = HexFormat.of();

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(VINDEX_CONFIG, ConfigDef.Type.STRING, "hash", new VindexValidator(), ConfigDef.Importance.HIGH,
                    "The Vitess vindex that maps the sharding column to the keyspace id, computed as Vitess does: "
                            + "hash (3DES of the integer as uint64; the usual choice for integer ids), xxhash "
                            + "(XXH64 of the value's MySQL text), binary (the value's own bytes) or numeric (the "
                            + "integer as 8 big-endian bytes). hash and numeric need integer columns (BIGINT "
                            + "UNSIGNED, carried as a Decimal with scale 0, is taken as its integer); xxhash and "
                            + "binary take integers, decimals, strings and binary columns.",
                    GROUP, 1, ConfigDef.Width.SHORT, "Vindex")
            .define(COLUMN_CONFIG, ConfigDef.Type.LIST, ConfigDef.NO_DEFAULT_VALUE, new ColumnsValidator(),
                    ConfigDef.Importance.HIGH, "The sharding column (the primary vindex column). Either one name for "
                            + "every table, or a comma-separated list of table:column pairs, where one bare name "
                            + "is the column of the tables not listed; e.g. orders:customer_id,id. Names match "
                            + "case-insensitively if no column matches exactly. A row of a table with no column "
                            + "configured, or without that column, fails the task naming the table.",
                    GROUP, 2, ConfigDef.Width.MEDIUM, "Sharding column")
            .define(HEADER_NAME_CONFIG, ConfigDef.Type.STRING, DEFAULT_HEADER_NAME,
                    new ConfigDef.NonEmptyString(), ConfigDef.Importance.MEDIUM, "The header that receives the "
                            + "keyspace id as lowercase hex (16 digits for hash, xxhash and numeric). A header of "
                            + "that name already on the record is replaced.",
                    GROUP, 3, ConfigDef.Width.MEDIUM, "Header name")
            .define(KEY_RANGE_CONFIG, ConfigDef.Type.STRING, "", new KeyRangeValidator(),
                    ConfigDef.Importance.MEDIUM, "If set, keep only the rows whose keyspace id this Vitess key "
                            + "range holds (start inclusive, end exclusive), e.g. -80, 80- or 40-80, and drop the "
                            + "others; records that are not rows pass. Empty (the default): keep every row.",
                    GROUP, 4, ConfigDef.Width.SHORT, "Key range");

    private Vindex vindex;
    private boolean integerVindex;
    private ShardingColumns columns;
    private String headerName;
    private KeyRange keyRange;

    @Override
    public void configure(Map<String, ?> props) {
        AbstractConfig config = new AbstractConfig(CONFIG_DEF, props, false);
        vindex = Vindexes.named(config.getString(VINDEX_CONFIG));
        integerVindex = vindex.name().equals("hash") || vindex.name().equals("numeric");
        columns = ShardingColumns.parse(config.getList(COLUMN_CONFIG));
        headerName = config.getString(HEADER_NAME_CONFIG).strip();
        String range = config.getString(KEY_RANGE_CONFIG);
        keyRange = range == null || range.isBlank() ? null : KeyRange.parse(range);
    }

    @Override
    public R apply(R record) {
        if (record.value() == null || VStreamRecords.kind(record) != VStreamRecords.Kind.ROW) {
            return record;
        }
        byte[] keyspaceId = keyspaceId(record);
        if (keyRange != null && !keyRange.contains(keyspaceId)) {
            return null;
        }
        Headers headers = record.headers().duplicate();
        headers.remove(headerName);
        headers.addString(headerName, HEX.formatHex(keyspaceId));
        return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
                record.valueSchema(), record.value(), record.timestamp(), headers);
    }

    /** The keyspace id of a ROW record's sharding column. */
    byte[] keyspaceId(ConnectRecord<?> record) {
        Object value = record.value();
        Object row = VStreamRecords.isEnvelope(value) ? VStreamRecords.currentImage(value) : value;
        String table = VStreamRecords.headerOrSource(record, EventHeaders.TABLE, "table");
        String column = columns.columnFor(table);
        if (column == null) {
            throw new DataException("KeyspaceIdHeader has no sharding column for table '" + table + "' ("
                    + VStreamRecords.describe(record) + "); add " + table + ":<column> to " + COLUMN_CONFIG
                    + " or a bare column name for every other table");
        }
        Object cell = cell(record, row, table, column);
        try {
            return vindex.keyspaceId(integerVindex ? integral(cell) : cell);
        } catch (IllegalArgumentException e) {
            throw new DataException("KeyspaceIdHeader cannot compute the " + vindex.name() + " keyspace id of column '"
                    + column + "' of table '" + table + "' (" + VStreamRecords.describe(record) + "): "
                    + e.getMessage(), e);
        }
    }

    /** The column's value in a row (struct or map), matched exactly, else case-insensitively as MySQL does. */
    private static Object cell(ConnectRecord<?> record, Object row, String table, String column) {
        if (row instanceof Struct s) {
            Field f = s.schema().field(column);
            if (f == null) {
                f = s.schema().fields().stream().filter(x -> x.name().equalsIgnoreCase(column)).findFirst()
                        .orElse(null);
            }
            if (f != null) {
                return s.get(f);
            }
            throw missing(record, table, column, s.schema().fields().stream().map(Field::name).toList());
        }
        if (row instanceof Map<?, ?> m) {
            if (m.containsKey(column)) {
                return m.get(column);
            }
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (String.valueOf(e.getKey()).equalsIgnoreCase(column)) {
                    return e.getValue();
                }
            }
            throw missing(record, table, column, m.keySet().stream().map(String::valueOf).toList());
        }
        throw new DataException("KeyspaceIdHeader reads the sharding column from a row struct or map, but the "
                + VStreamRecords.describe(record) + " has " + (row == null ? "no row image"
                : "a value of type " + row.getClass().getName()));
    }

    private static DataException missing(ConnectRecord<?> record, String table, String column, List<String> have) {
        return new DataException("KeyspaceIdHeader: the row of table '" + table + "' (" + VStreamRecords.describe(
                record) + ") has no column '" + column + "'; its columns are " + have + " (is the column left out by "
                + "column.exclude.list, or is another column the sharding column of this table?)");
    }

    /** A Decimal with no fraction (BIGINT UNSIGNED arrives as Decimal(20,0)) as the integer the vindex needs. */
    private Object integral(Object cell) {
        if (!(cell instanceof BigDecimal d)) {
            return cell;
        }
        try {
            return d.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the value is a decimal with a fraction; the " + vindex.name()
                    + " vindex needs an integer column (use xxhash or binary for decimal columns)");
        }
    }

    @Override
    public ConfigDef config() {
        return CONFIG_DEF;
    }

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void close() {
    }

    /** The {@code column} setting: a column per table and one for the tables not listed. */
    record ShardingColumns(Map<String, String> byTable, String otherwise) {

        static ShardingColumns parse(List<String> entries) {
            if (entries == null || entries.isEmpty()) {
                throw new ConfigException(COLUMN_CONFIG, entries, "names no column; give the sharding column, e.g. "
                        + "customer_id, or table:column pairs");
            }
            Map<String, String> byTable = new LinkedHashMap<>();
            String otherwise = null;
            for (String raw : entries) {
                String entry = raw.strip();
                int colon = entry.indexOf(':');
                if (colon < 0) {
                    if (entry.isEmpty() || otherwise != null) {
                        throw new ConfigException(COLUMN_CONFIG, entries, entry.isEmpty() ? "has an empty entry"
                                : "has two bare column names (" + otherwise + ", " + entry + "); give other tables "
                                + "theirs as table:column");
                    }
                    otherwise = entry;
                } else {
                    String table = entry.substring(0, colon).strip();
                    String column = entry.substring(colon + 1).strip();
                    if (table.isEmpty() || column.isEmpty() || column.indexOf(':') >= 0) {
                        throw new ConfigException(COLUMN_CONFIG, entries, "entry '" + entry + "' is not a column "
                                + "name or a table:column pair");
                    }
                    if (byTable.put(table, column) != null) {
                        throw new ConfigException(COLUMN_CONFIG, entries, "names table " + table + " twice");
                    }
                }
            }
            return new ShardingColumns(Map.copyOf(byTable), otherwise);
        }

        /** The sharding column of {@code table}, or {@code null} if none is configured for it. */
        String columnFor(String table) {
            String c = table == null ? null : byTable.get(table);
            return c != null ? c : otherwise;
        }
    }

    static final class VindexValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                Vindexes.named(value == null ? null : value.toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return String.join(", ", Vindexes.names());
        }
    }

    static final class ColumnsValidator implements ConfigDef.Validator {
        @Override
        @SuppressWarnings("unchecked")
        public void ensureValid(String name, Object value) {
            ShardingColumns.parse((List<String>) value);
        }

        @Override
        public String toString() {
            return "a column name, or table:column pairs and at most one bare column name";
        }
    }

    static final class KeyRangeValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value == null || value.toString().isBlank()) {
                return;
            }
            try {
                KeyRange.parse(value.toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "empty, or a Vitess key range such as -80, 80-, 40-80";
        }
    }
}
