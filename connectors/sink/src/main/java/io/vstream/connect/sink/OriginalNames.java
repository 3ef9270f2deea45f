package io.vstream.connect.sink;

import io.vstream.connect.core.event.FieldNames;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Gives the fields of a row image that a source names by a column's Avro form ({@code field.name.adjustment.mode=avro}
 * at the source: {@code order_total} for {@code order-total}) the names of the table's columns again, so that the
 * writer finds each column; an image whose fields are the columns' own names passes through untouched. One per
 * target table; it remembers the last schema it renamed (a table's rows share one).
 */
final class OriginalNames {
    static final OriginalNames NONE = new OriginalNames(Map.of());

    private final Map<String, String> originals; // field name -> column, for the columns whose Avro form differs
    private Schema lastSchema;
    private Schema lastRenamed;

    private OriginalNames(Map<String, String> originals) {
        this.originals = originals;
    }

    /** For a table with these (source) columns. */
    static OriginalNames of(Collection<String> columns) {
        Map<String, String> originals = FieldNames.originals(columns);
        return originals.isEmpty() ? NONE : new OriginalNames(originals);
    }

    /** The image with its fields named as the columns; the image itself when they already are (or it is null). */
    Struct apply(Struct image) {
        if (image == null || originals.isEmpty()) {
            return image;
        }
        Schema schema = renamed(image.schema());
        if (schema == image.schema()) {
            return image;
        }
        Struct out = new Struct(schema);
        for (Field f : image.schema().fields()) {
            out.put(originals.getOrDefault(f.name(), f.name()), image.get(f));
        }
        return out;
    }

    private synchronized Schema renamed(Schema schema) {
        if (schema != lastSchema) {
            lastRenamed = rename(schema);
            lastSchema = schema;
        }
        return lastRenamed;
    }

    private Schema rename(Schema schema) {
        if (schema.fields().stream().noneMatch(f -> originals.containsKey(f.name()))) {
            return schema;
        }
        SchemaBuilder b = SchemaBuilder.struct().name(schema.name()).version(schema.version()).doc(schema.doc());
        if (schema.isOptional()) {
            b.optional();
        }
        for (Field f : schema.fields()) {
            b.field(originals.getOrDefault(f.name(), f.name()), f.schema());
        }
        return b.build();
    }
}
