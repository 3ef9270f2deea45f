package io.vstream.connect.sink;

import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/** Reads a record's headers (the source's event type, table, invalid cells) as text. Touches nothing. */
final class RecordHeaders {
    private RecordHeaders() {
    }

    /** The last header named {@code name} as text; {@code null} when there is none or it has no value. */
    static String header(SinkRecord r, String name) {
        Header h = r.headers().lastWithName(name);
        return h == null ? null : text(h);
    }

    /** A header's value as text (a converter may leave it as bytes); {@code null} when it has none. */
    static String text(Header h) {
        Object v = h.value();
        return v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8)
                : v == null ? null : String.valueOf(v);
    }
}
