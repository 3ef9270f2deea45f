package io.vstream.connect.transforms.util;

import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/** Builds derived Connect schemas: copies of a struct's basics, optional variants of a field's schema. */
public final class Schemas {

    private Schemas() {
    }

    /** A struct builder with {@code source}'s name, version, doc, parameters and optionality, and no fields. */
    public static SchemaBuilder copyStructBasics(Schema source) {
        SchemaBuilder b = SchemaBuilder.struct().name(source.name()).version(source.version()).doc(source.doc());
        Map<String, String> params = source.parameters();
        if (params != null && !params.isEmpty()) {
            b.parameters(params);
        }
        if (source.isOptional()) {
            b.optional();
        }
        return b;
    }

    /** {@code schema} itself if optional, else an optional copy (name, version, doc, parameters, fields kept). */
    public static Schema optional(Schema schema) {
        if (schema.isOptional()) {
            return schema;
        }
        SchemaBuilder b;
        switch (schema.type()) {
            case STRUCT -> {
                b = SchemaBuilder.struct();
                for (Field f : schema.fields()) {
                    b.field(f.name(), f.schema());
                }
            }
            case ARRAY -> b = SchemaBuilder.array(schema.valueSchema());
            case MAP -> b = SchemaBuilder.map(schema.keySchema(), schema.valueSchema());
            default -> b = SchemaBuilder.type(schema.type());
        }
        b.name(schema.name()).version(schema.version()).doc(schema.doc());
        if (schema.parameters() != null && !schema.parameters().isEmpty()) {
            b.parameters(schema.parameters());
        }
        return b.optional().build();
    }
}
