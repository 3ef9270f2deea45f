package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.vstream.connect.core.event.ColumnDef;
import io.vstream.connect.core.event.FieldNames;
import io.vstream.connect.core.event.CopyRows;
import io.vstream.connect.core.event.RowEnvelope;
import io.vstream.connect.core.event.SchemaNames;
import io.vstream.connect.core.event.TableDef;
import io.vstream.connect.core.position.Flavor;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Decodes the rows of one table as one TABLE_MAP event describes it. The TABLE_MAP event precedes every row event
 * and, with {@code binlog_row_metadata=FULL}, names each column and its key membership: so a row is always decoded
 * with the column list it was written with, whatever DDL ran before or after (see docs/source.md, "Schema tracking").
 */
final class TableDecoder {
    private final TableDef table;
    private final int[] columnIndexes; // binlog column index of each streamed column
    private final ColumnConverter[] converters;
    private final int[] keyIndexes; // positions in columnIndexes of the key columns
    private final Schema keySchema;
    private final Schema rowSchema;
    private final Schema envelopeSchema;
    private final Schema rowsSchema; // the value of its ROWS records
    private final String signature;
    private final Map<String, String[]> members; // each streamed ENUM/SET column's members, by column name
    private final boolean[] enumColumns; // whether each streamed column is an ENUM
    private final String[] fieldNames; // each streamed column's name in the row and key structs

    private TableDecoder(TableDef table, int[] columnIndexes, ColumnConverter[] converters, int[] keyIndexes,
                         Schema keySchema, Schema rowSchema, Schema envelopeSchema, Schema rowsSchema,
                         String signature, Map<String, String[]> members, boolean[] enumColumns,
                         String[] fieldNames) {
        this.table = table;
        this.columnIndexes = columnIndexes;
        this.converters = converters;
        this.keyIndexes = keyIndexes;
        this.keySchema = keySchema;
        this.rowSchema = rowSchema;
        this.envelopeSchema = envelopeSchema;
        this.rowsSchema = rowsSchema;
        for (int i = 0; i < fieldNames.length; i++) {
            if (!rowSchema.fields().get(i).name().equals(fieldNames[i])) {
                throw new IllegalStateException("the row schema's fields are not in the columns' order");
            }
        }
        this.signature = signature;
        this.members = members;
        this.enumColumns = enumColumns;
        this.fieldNames = fieldNames;
    }

    /**
     * Builds the decoder of a TABLE_MAP event.
     *
     * @throws MissingMetadataException when the event has no column names (binlog_row_metadata is not FULL)
     */
    static TableDecoder of(TableMapEventData tm, TableFilter filter, Charsets charsets, String prefix,
                           String keyspace) {
        return of(tm, filter, charsets, prefix, keyspace, false, Map.of());
    }

    /**
     * As {@link #of(TableMapEventData, TableFilter, Charsets, String, String)}, with Avro field names or not, and the
     * defaults of the NOT NULL columns ({@link ColumnDefaults#read}: column to constant).
     */
    static TableDecoder of(TableMapEventData tm, TableFilter filter, Charsets charsets, String prefix,
                           String keyspace, boolean avroFieldNames, Map<String, String> defaults) {
        TableMapEventMetadata md = tm.getEventMetadata();
        if (md == null || md.getColumnNames() == null || md.getColumnNames().isEmpty()) {
            throw new MissingMetadataException(tm.getDatabase() + "." + tm.getTable());
        }
        List<BinlogColumn> columns = new ArrayList<>();
        for (BinlogColumn c : columns(tm, md, charsets.flavor())) {
            if (c.enumOrSetValues() == null) {
                columns.add(c);
                continue;
            }
            // the members come one char per byte (TableMapStrings): spelt now in the column's own charset
            java.nio.charset.Charset cs = charsets.forCollation(c.collationId());
            columns.add(new BinlogColumn(c.index(), c.name(), c.type(), c.meta(), c.nullable(), c.unsigned(),
                    c.collationId(), TableMapStrings.members(c.enumOrSetValues(),
                    cs == null ? java.nio.charset.StandardCharsets.ISO_8859_1 : cs), c.primaryKey()));
        }
        return of(tm.getDatabase(), tm.getTable(), columns, filter, charsets, prefix, keyspace, avroFieldNames,
                defaults);
    }

    /**
     * Builds the decoder of a table whose columns are known otherwise (the copy phase reads them from
     * {@code information_schema}); {@code columns} are in table order, each with its index in the row images.
     */
    static TableDecoder of(String database, String tableName, List<BinlogColumn> columns, TableFilter filter,
                           Charsets charsets, String prefix, String keyspace) {
        return of(database, tableName, columns, filter, charsets, prefix, keyspace, false, Map.of());
    }

    /**
     * As {@link #of(String, String, List, TableFilter, Charsets, String, String)}; with {@code avroFieldNames} the row
     * and key structs name each column by its Avro form ({@link FieldNames#avro}), and two columns with the same form
     * are refused; a NOT NULL column's field in the row struct has its constant default from {@code defaults}
     * ({@link ColumnDefaults}), when it has one.
     */
    static TableDecoder of(String database, String tableName, List<BinlogColumn> columns, TableFilter filter,
                           Charsets charsets, String prefix, String keyspace, boolean avroFieldNames,
                           Map<String, String> defaults) {
        List<ColumnDef> defs = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        Map<String, String> columnOfField = new HashMap<>();
        List<Integer> indexes = new ArrayList<>();
        List<ColumnConverter> convs = new ArrayList<>();
        List<Integer> keys = new ArrayList<>();
        SchemaBuilder row = SchemaBuilder.struct().name(SchemaNames.value(prefix, keyspace, tableName)).optional();
        SchemaBuilder key = SchemaBuilder.struct().name(SchemaNames.key(prefix, keyspace, tableName));
        StringBuilder sig = new StringBuilder();
        Map<String, String[]> members = new LinkedHashMap<>();
        List<Boolean> enums = new ArrayList<>();
        for (BinlogColumn c : columns) {
            if (!c.primaryKey() && !filter.includesColumn(tableName, c.name())) {
                continue;
            }
            if (c.enumOrSetValues() != null) {
                members.put(c.name(), c.enumOrSetValues());
            }
            String field = avroFieldNames ? FieldNames.avro(c.name()) : c.name();
            String other = columnOfField.putIfAbsent(field, c.name());
            if (other != null) {
                throw new ConnectException("Columns `" + other + "` and `" + c.name() + "` of table `" + database
                        + "`.`" + tableName + "` both have the Avro name '" + field + "'"
                        + " (field.name.adjustment.mode=avro): rename one, or leave one out (column.exclude.list)");
            }
            ColumnConverter conv = ColumnConverter.of(c, charsets.forCollation(c.collationId()), false);
            Schema schema = conv.schema();
            Serializable fallback = c.nullable() || c.primaryKey() || !defaults.containsKey(c.name()) ? null
                    : ColumnDefaults.raw(c, defaults.get(c.name()));
            if (fallback != null && !schema.isOptional()) {
                schema = ColumnDefaults.withDefault(schema, conv.convert(fallback));
            }
            defs.add(new ColumnDef(c.name(), c.sqlType(), schema, c.nullable(), c.primaryKey()));
            fields.add(field);
            row.field(field, schema);
            if (c.primaryKey()) {
                keys.add(indexes.size());
                key.field(field, ColumnConverter.of(c, charsets.forCollation(c.collationId()), true).schema());
            }
            indexes.add(c.index());
            enums.add(c.type() == ColumnType.ENUM);
            convs.add(conv);
            sig.append(c.name()).append(':').append(c.sqlType()).append(':').append(c.nullable()).append(':')
                    .append(c.primaryKey()).append(':').append(c.collationId()).append(';');
        }
        Schema rowSchema = row.build();
        TableDef def = new TableDef(database, tableName, defs, keyNames(defs, keys));
        return new TableDecoder(def, indexes.stream().mapToInt(Integer::intValue).toArray(),
                convs.toArray(new ColumnConverter[0]), keys.stream().mapToInt(Integer::intValue).toArray(),
                keys.isEmpty() ? null : key.build(), rowSchema,
                RowEnvelope.schema(SchemaNames.envelope(prefix, keyspace, tableName), rowSchema),
                CopyRows.schema(SchemaNames.rows(prefix, keyspace, tableName), rowSchema), sig.toString(),
                Map.copyOf(members), enumFlags(enums), fields.toArray(new String[0]));
    }

    private static boolean[] enumFlags(List<Boolean> enums) {
        boolean[] out = new boolean[enums.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = enums.get(i);
        }
        return out;
    }

    private static List<String> keyNames(List<ColumnDef> defs, List<Integer> keys) {
        List<String> names = new ArrayList<>();
        for (int k : keys) {
            names.add(defs.get(k).name());
        }
        return names;
    }

    /** The columns a TABLE_MAP event describes, each with the facts its optional metadata gives. */
    static List<BinlogColumn> columns(TableMapEventData tm, TableMapEventMetadata md, Flavor flavor) {
        byte[] types = tm.getColumnTypes();
        int[] meta = tm.getColumnMetadata();
        BitSet nullability = tm.getColumnNullability();
        BitSet signedness = md.getSignedness() == null ? new BitSet() : md.getSignedness();
        Set<Integer> pk = new HashSet<>();
        if (md.getSimplePrimaryKeys() != null) {
            pk.addAll(md.getSimplePrimaryKeys());
        }
        if (md.getPrimaryKeysWithPrefix() != null) {
            pk.addAll(md.getPrimaryKeysWithPrefix().keySet());
        }
        List<BinlogColumn> out = new ArrayList<>(types.length);
        int numeric = 0;
        int character = 0;
        int enumOrSet = 0;
        int enumIdx = 0;
        int setIdx = 0;
        for (int i = 0; i < types.length; i++) {
            ColumnType type = BinlogColumn.realType(types[i] & 0xFF, meta[i]);
            boolean unsigned = false;
            if (BinlogColumn.hasSignednessBit(type, flavor)) {
                unsigned = signedness.get(numeric++) && BinlogColumn.isNumeric(type);
            }
            int collation = BinlogColumn.BINARY_COLLATION;
            String[] values = null;
            if (BinlogColumn.isCharacter(type)) {
                collation = collation(md.getDefaultCharset(), md.getColumnCharsets(), character++);
            } else if (type == ColumnType.ENUM || type == ColumnType.SET) {
                collation = collation(md.getEnumAndSetDefaultCharset(), md.getEnumAndSetColumnCharsets(), enumOrSet++);
                if (type == ColumnType.ENUM && md.getEnumStrValues() != null && enumIdx < md.getEnumStrValues().size()) {
                    values = md.getEnumStrValues().get(enumIdx);
                }
                if (type == ColumnType.SET && md.getSetStrValues() != null && setIdx < md.getSetStrValues().size()) {
                    values = md.getSetStrValues().get(setIdx);
                }
                if (type == ColumnType.ENUM) {
                    enumIdx++;
                } else {
                    setIdx++;
                }
            }
            out.add(new BinlogColumn(i, md.getColumnNames().get(i), type, meta[i],
                    nullability != null && nullability.get(i), unsigned, collation, values, pk.contains(i)));
        }
        return out;
    }

    private static int collation(TableMapEventMetadata.DefaultCharset defaults, List<Integer> perColumn, int index) {
        if (perColumn != null && index < perColumn.size()) {
            return perColumn.get(index);
        }
        if (defaults != null) {
            Map<Integer, Integer> overrides = defaults.getCharsetCollations();
            if (overrides != null && overrides.containsKey(index)) {
                return overrides.get(index);
            }
            return defaults.getDefaultCharsetCollation();
        }
        return 45; // utf8mb4_general_ci; only reached for servers that omit charset metadata
    }

    TableDef table() {
        return table;
    }

    /** Identifies the column list: when it changes (a DDL), a new FIELD event is due. */
    String signature() {
        return signature;
    }

    /** The members of each streamed ENUM and SET column, by column name, as the table really has them. */
    Map<String, String[]> enumAndSetMembers() {
        return members;
    }

    Schema keySchema() {
        return keySchema;
    }

    Schema envelopeSchema() {
        return envelopeSchema;
    }

    /** The value schema of the table's ROWS records. */
    Schema rowsSchema() {
        return rowsSchema;
    }

    Struct row(Serializable[] image) {
        if (image == null) {
            return null;
        }
        Struct s = new Struct(rowSchema);
        List<Field> fields = rowSchema.fields(); // in the order of fieldNames: the schema was built from them
        for (int i = 0; i < columnIndexes.length; i++) {
            s.put(fields.get(i), converters[i].convert(image[columnIndexes[i]]));
        }
        return s;
    }

    /**
     * The cells of a row image that its Connect value cannot carry exactly ({@link InvalidCell}: dates no calendar
     * has, an ENUM's index 0); {@code null} when there is none (nearly always).
     */
    List<InvalidCell> invalidCells(Serializable[] image) {
        if (image == null) {
            return null;
        }
        List<InvalidCell> out = null;
        for (int i = 0; i < columnIndexes.length; i++) {
            Serializable raw = image[columnIndexes[i]];
            InvalidCell cell = raw instanceof InvalidTemporal t ? InvalidCell.temporal(table.columns().get(i).name(), t)
                    : enumColumns[i] && raw instanceof Number n && n.intValue() == 0
                    ? InvalidCell.enumIndexZero(table.columns().get(i).name()) : null;
            if (cell != null) {
                if (out == null) {
                    out = new ArrayList<>();
                }
                out.add(cell);
            }
        }
        return out;
    }

    /** Whether two images of a row have the same key (always true for a table without a primary key). */
    boolean sameKey(Struct a, Struct b) {
        if (a == null || b == null) {
            return true;
        }
        for (int idx : keyIndexes) {
            String name = fieldNames[idx];
            Object x = a.get(name);
            Object y = b.get(name);
            boolean same = x instanceof byte[] bx && y instanceof byte[] by ? java.util.Arrays.equals(bx, by)
                    : java.util.Objects.equals(x, y);
            if (!same) {
                return false;
            }
        }
        return true;
    }

    Struct key(Struct row) {
        if (keySchema == null || row == null) {
            return null;
        }
        Struct k = new Struct(keySchema);
        for (int idx : keyIndexes) {
            String name = fieldNames[idx];
            k.put(name, row.get(name));
        }
        return k;
    }

    /** Thrown when row events lack the metadata we decode by; the message gives the server setting to fix. */
    static final class MissingMetadataException extends RuntimeException {
        MissingMetadataException(String table) {
            super("The binlog's TABLE_MAP event for " + table + " carries no column names: the server is not"
                    + " writing full row metadata. Run SET GLOBAL binlog_row_metadata=FULL (and set"
                    + " binlog_row_metadata=FULL in the server's config file), then restart the connector; rows"
                    + " written before the change cannot be decoded safely.");
        }
    }
}
