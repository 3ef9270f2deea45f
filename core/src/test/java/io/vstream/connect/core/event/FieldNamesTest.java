package io.vstream.connect.core.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldNamesTest {
    @Test
    void aColumnNameAvroRefusesGetsItsAvroForm() {
        assertThat(FieldNames.avro("order-total")).isEqualTo("order_total");
        assertThat(FieldNames.avro("2fa")).isEqualTo("_2fa");
        assertThat(FieldNames.avro("prénom")).isEqualTo("pr_nom");
        assertThat(FieldNames.avro("plain_name9")).isEqualTo("plain_name9");
    }

    @Test
    void theOriginalOfEachAdjustedNameIsTheColumnItCameFrom() {
        assertThat(FieldNames.originals(List.of("id", "order-total", "2fa", "prénom")))
                .isEqualTo(Map.of("order_total", "order-total", "_2fa", "2fa", "pr_nom", "prénom"));
    }

    @Test
    void aFormThatIsAColumnOrThatTwoColumnsShareStandsForNoOtherColumn() {
        // 'a_b' is a column itself; 'x-y' and 'x.y' share 'x_y'
        assertThat(FieldNames.originals(List.of("a-b", "a_b", "x-y", "x.y", "ok"))).isEmpty();
    }
}
