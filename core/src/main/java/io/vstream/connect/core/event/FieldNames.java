package io.vstream.connect.core.event;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The names row structs give columns. By default a field is named as its column; with the source's
 * {@code field.name.adjustment.mode=avro} a column whose name is not a valid Avro name ({@code order-total},
 * {@code 2fa}, {@code prénom}) gets its Avro form ({@link SchemaNames#avroName}: {@code order_total}, {@code _2fa},
 * {@code pr_nom}). A consumer that writes rows back to tables maps such field names to the table's columns with
 * {@link #originals}. FIELD records and headers always name the columns themselves.
 */
public final class FieldNames {
    private FieldNames() {
    }

    /** The Avro form of a column name; the name itself when it is a valid Avro name. */
    public static String avro(String column) {
        return SchemaNames.avroName(column);
    }

    /**
     * For the columns of a table, the column each adjusted field name stands for (only names whose Avro form differs;
     * a form two columns share, or that is itself one of the columns, is left out: it is read as that column).
     */
    public static Map<String, String> originals(Collection<String> columns) {
        Set<String> names = new HashSet<>(columns);
        Map<String, String> out = new HashMap<>();
        Set<String> shared = new HashSet<>();
        for (String c : columns) {
            String field = avro(c);
            if (field.equals(c) || names.contains(field)) {
                continue;
            }
            if (out.putIfAbsent(field, c) != null) {
                shared.add(field);
            }
        }
        shared.forEach(out::remove);
        return out;
    }
}
