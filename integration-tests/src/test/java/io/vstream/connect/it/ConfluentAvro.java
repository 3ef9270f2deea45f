package io.vstream.connect.it;

import io.vstream.connect.testsupport.registry.CcompatApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;

/**
 * What a plain Avro consumer does with Confluent's wire format, without any registry client library: byte 0 is the
 * magic byte 0, bytes 1-4 the schema id (big-endian), the rest Avro binary. The writer schema is fetched once per id
 * from the registry's Confluent-compatible API ({@code GET /schemas/ids/{id}}) and the bytes are decoded with Avro's
 * {@link GenericDatumReader} (decimals as {@link java.math.BigDecimal}).
 */
final class ConfluentAvro {
    private static final GenericData DATA = new GenericData();

    static {
        DATA.addLogicalTypeConversion(new Conversions.DecimalConversion());
    }

    private final CcompatApi registry;
    private final Map<Integer, Schema> schemas = new HashMap<>();

    ConfluentAvro(CcompatApi registry) {
        this.registry = registry;
    }

    /** The schema id of a Confluent-framed message; fails on any other framing. */
    static int schemaId(byte[] message) {
        if (message == null || message.length < 5 || message[0] != 0) {
            throw new IllegalArgumentException("Not Confluent wire format (magic byte 0 + 4-byte schema id): "
                    + (message == null ? "null" : message.length + " bytes, first " + (message.length == 0 ? "-"
                    : message[0])));
        }
        return ByteBuffer.wrap(message, 1, 4).getInt();
    }

    Schema writerSchema(byte[] message) {
        if (message == null) {
            return null;
        }
        return schemas.computeIfAbsent(schemaId(message), id -> new Schema.Parser().parse(registry.schemaById(id)));
    }

    /** Decodes a message with its own writer schema; {@code null} stays {@code null} (tombstones, keyless records). */
    GenericRecord decode(byte[] message) {
        if (message == null) {
            return null;
        }
        Schema writer = writerSchema(message);
        return decode(message, writer, writer);
    }

    static GenericRecord decode(byte[] message, Schema writer, Schema reader) {
        GenericDatumReader<GenericRecord> datumReader = new GenericDatumReader<>(writer, reader, DATA);
        try {
            return datumReader.read(null, DecoderFactory.get().binaryDecoder(message, 5, message.length - 5, null));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not decode " + message.length + " bytes with " + writer.getFullName(),
                    e);
        }
    }
}
