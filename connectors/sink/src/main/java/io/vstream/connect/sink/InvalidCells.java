package io.vstream.connect.sink;

import io.vstream.connect.core.event.EventHeaders;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The cells of a ROW record's {@code after} image that its values do not carry exactly, as the source names them in
 * the record's headers: dates no calendar has ({@link EventHeaders#INVALID_TEMPORAL}, by source column, the server's
 * text; the image holds {@code null}) and ENUM columns holding their invalid-value entry, index 0 ({@link
 * EventHeaders#INVALID_ENUM}; the image holds {@code ""}). The writer writes these as the source holds them.
 */
record InvalidCells(Map<String, String> temporals, Set<String> enumIndexZero) {

    /** The record's invalid cells; {@code null} when it has none (nearly always). One pass over its headers. */
    static InvalidCells of(SinkRecord r) {
        Map<String, String> temporals = null;
        Set<String> enums = null;
        for (Header h : r.headers()) {
            String key = h.key();
            if (EventHeaders.INVALID_TEMPORAL.equals(key)) {
                String text = RecordHeaders.text(h);
                int eq = text == null ? -1 : text.lastIndexOf('=');
                if (eq > 0) {
                    if (temporals == null) {
                        temporals = new HashMap<>();
                    }
                    temporals.put(text.substring(0, eq), text.substring(eq + 1));
                }
            } else if (EventHeaders.INVALID_ENUM.equals(key)) {
                String column = RecordHeaders.text(h);
                if (column != null && !column.isEmpty()) {
                    if (enums == null) {
                        enums = new HashSet<>();
                    }
                    enums.add(column);
                }
            }
        }
        return temporals == null && enums == null ? null
                : new InvalidCells(temporals == null ? Map.of() : temporals, enums == null ? Set.of() : enums);
    }

    /** Whether the row needs a statement without the strict modes (an ENUM's index 0 cannot be written strictly). */
    boolean needsRelaxedMode() {
        return !enumIndexZero.isEmpty();
    }
}
