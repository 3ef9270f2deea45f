package io.vstream.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class OriginalNamesTest {
    private static final Schema AVRO_NAMED = SchemaBuilder.struct().name("p.ks.t.Value").optional()
            .field("id", Schema.INT32_SCHEMA)
            .field("order_total", Decimal.builder(2).optional().build())
            .field("_2fa", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    @Test
    void fieldsNamedByTheirAvroFormGetTheColumnsNamesBack() {
        OriginalNames names = OriginalNames.of(List.of("id", "order-total", "2fa"));
        Struct image = new Struct(AVRO_NAMED).put("id", 7).put("order_total", new BigDecimal("1.25"))
                .put("_2fa", "on");
        Struct back = names.apply(image);
        assertThat(back.schema().fields()).extracting(f -> f.name()).containsExactly("id", "order-total", "2fa");
        assertThat(back.schema().name()).isEqualTo("p.ks.t.Value");
        assertThat(back.schema().isOptional()).isTrue();
        assertThat(back.get("order-total")).isEqualTo(new BigDecimal("1.25"));
        assertThat(back.getString("2fa")).isEqualTo("on");
        assertThat(names.apply(new Struct(AVRO_NAMED).put("id", 8)).schema()).as("one schema per table's rows")
                .isSameAs(back.schema());
    }

    @Test
    void fieldsAlreadyNamedAsTheColumnsPassThrough() {
        OriginalNames names = OriginalNames.of(List.of("id", "order-total", "2fa"));
        Schema plain = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA)
                .field("order-total", Schema.OPTIONAL_STRING_SCHEMA).build();
        Struct image = new Struct(plain).put("id", 1);
        assertThat(names.apply(image)).isSameAs(image);
        assertThat(names.apply(null)).isNull();
        assertThat(OriginalNames.of(List.of("id", "name"))).isSameAs(OriginalNames.NONE);
    }
}
