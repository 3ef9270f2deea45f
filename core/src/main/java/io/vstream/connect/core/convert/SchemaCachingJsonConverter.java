package io.vstream.connect.core.convert;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vstream.connect.core.Version;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.DecimalFormat;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.ConverterType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's {@code JsonConverter}, byte for byte, at a fraction of its cost per record: the same settings, the same
 * bytes out, the same values back in. With schemas (its default) {@code JsonConverter} builds and writes every
 * record's schema again, ~3 KB for a change event, on the one task thread; this converter takes the schema's JSON from
 * {@code JsonConverter} once per schema, keeps its bytes, and writes only the payload, with a streaming generator
 * ({@link JsonPayloadWriter}). Consumers read its records with the plain {@code JsonConverter} (or any JSON reader):
 * nothing changes for them.
 *
 * <p>Safe by construction: the first {@value #CHECKED_RECORDS} records of every schema are also converted by
 * {@code JsonConverter} and compared; on any difference that schema's records go through {@code JsonConverter} from
 * then on (logged once). A setting whose output it does not reproduce ({@code replace.null.with.default=false}) and
 * schemaless values are converted by {@code JsonConverter} itself, as is everything read ({@link #toConnectData}).
 *
 * <p>Deploy it as a connector's or worker's {@code key.converter}/{@code value.converter} with the same
 * {@code .schemas.enable} etc. keys as {@code JsonConverter}; it ships in every vstream-connect plugin.
 */
public class SchemaCachingJsonConverter implements Converter, Versioned {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaCachingJsonConverter.class);

    /** Records of each schema converted twice and compared before the fast path alone is trusted. */
    static final int CHECKED_RECORDS = 16;
    /** Distinct schemas remembered; past that the caches start afresh (a connector normally has a few per table). */
    private static final int MAX_SCHEMAS = 1_000;

    private static final JsonFactory JSON = new JsonFactory();

    private final JsonConverter delegate = new JsonConverter();
    private final Map<Schema, Envelope> byIdentity = new IdentityHashMap<>();
    private final Map<Schema, Envelope> byEquality = new HashMap<>();
    private final RecordBuffer buffer = new RecordBuffer();
    private JsonGenerator generator;
    private boolean schemasEnabled = JsonConverterConfig.SCHEMAS_ENABLE_DEFAULT;
    private boolean fast = true;
    private boolean numericDecimals;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public ConfigDef config() {
        return JsonConverterConfig.configDef();
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        Map<String, Object> withType = new HashMap<>(configs);
        withType.put("converter.type", isKey ? ConverterType.KEY.getName() : ConverterType.VALUE.getName());
        delegate.configure(configs, isKey);
        JsonConverterConfig config = new JsonConverterConfig(withType);
        schemasEnabled = config.schemasEnabled();
        numericDecimals = config.decimalFormat() == DecimalFormat.NUMERIC;
        fast = config.replaceNullWithDefault();
        if (!fast) {
            LOG.info("{}: replace.null.with.default=false: every record goes through JsonConverter",
                    getClass().getSimpleName());
        }
    }

    @Override
    public synchronized byte[] fromConnectData(String topic, Schema schema, Object value) {
        if (!fast || schema == null) {
            return delegate.fromConnectData(topic, schema, value);
        }
        Envelope envelope = cached(schema);
        if (envelope == null) {
            byte[] expected = delegate.fromConnectData(topic, schema, value);
            envelope = schemasEnabled ? Envelope.of(expected, schema) : new Envelope(new byte[0]);
            remember(schema, envelope);
            if (!envelope.delegated) {
                try {
                    check(envelope, schema, write(envelope, schema, value), expected);
                } catch (RuntimeException e) {
                    giveUp(envelope, schema, e);
                }
            }
            return expected;
        }
        if (envelope.delegated) {
            return delegate.fromConnectData(topic, schema, value);
        }
        byte[] ours;
        try {
            ours = write(envelope, schema, value);
        } catch (RuntimeException e) {
            // JsonConverter's own error for a value it refuses too; its bytes (and JsonConverter from now on) if not
            byte[] expected = delegate.fromConnectData(topic, schema, value);
            giveUp(envelope, schema, e);
            return expected;
        }
        if (envelope.checked < CHECKED_RECORDS) {
            return check(envelope, schema, ours, delegate.fromConnectData(topic, schema, value));
        }
        return ours;
    }

    /** A record JsonConverter converts failed here: the schema's records go through JsonConverter from now on. */
    private void giveUp(Envelope envelope, Schema schema, RuntimeException e) {
        envelope.delegated = true;
        LOG.warn("{}: a record of schema {} that JsonConverter converts failed here ({}): records of that schema go"
                + " through JsonConverter from now on", getClass().getSimpleName(), schemaName(schema), e.toString());
    }

    /** Whether records of {@code schema} go through JsonConverter: its settings, a difference found, or not seen yet. */
    synchronized boolean delegates(Schema schema) {
        Envelope envelope = fast ? cached(schema) : null;
        return envelope == null || envelope.delegated;
    }

    /** Compares our bytes with JsonConverter's; on a difference the schema is delegated from now on. */
    private byte[] check(Envelope envelope, Schema schema, byte[] ours, byte[] expected) {
        envelope.checked++;
        if (Arrays.equals(ours, expected)) {
            return ours;
        }
        envelope.delegated = true;
        LOG.warn("{}: the JSON of a record of schema {} differs from JsonConverter's (at byte {} of {}): records of"
                        + " that schema go through JsonConverter from now on", getClass().getSimpleName(),
                schemaName(schema), Arrays.mismatch(ours, expected), expected.length);
        return expected;
    }

    @Override
    public SchemaAndValue toConnectData(String topic, byte[] value) {
        return delegate.toConnectData(topic, value);
    }

    @Override
    public void close() {
        Utils.closeQuietly(delegate, "JsonConverter");
    }

    private byte[] write(Envelope envelope, Schema schema, Object value) {
        buffer.reset();
        buffer.write(envelope.prefix, 0, envelope.prefix.length);
        boolean written = false;
        try {
            if (generator == null) {
                // one generator writes every record's payload, so no separator between its root values
                generator = JSON.createGenerator(buffer).setRootValueSeparator(null);
            }
            JsonPayloadWriter.write(generator, schema, value, numericDecimals);
            generator.flush();
            written = true;
        } catch (IOException e) {
            throw new DataException("Converting Kafka Connect data to byte[] failed", e);
        } finally {
            if (!written) {
                generator = null; // left inside an unfinished value: the next record starts a new one
            }
        }
        if (schemasEnabled) {
            buffer.write('}');
        }
        return buffer.toByteArray();
    }

    /** The envelope of {@code schema} if it was made before (by identity first: a connector reuses its schemas). */
    private Envelope cached(Schema schema) {
        Envelope envelope = byIdentity.get(schema);
        if (envelope != null) {
            return envelope;
        }
        envelope = byEquality.get(schema);
        if (envelope != null) {
            remember(schema, envelope);
        }
        return envelope;
    }

    private void remember(Schema schema, Envelope envelope) {
        if (byIdentity.size() >= MAX_SCHEMAS) {
            byIdentity.clear();
        }
        byIdentity.put(schema, envelope);
        if (byEquality.size() >= MAX_SCHEMAS) {
            byEquality.clear();
        }
        byEquality.putIfAbsent(schema, envelope);
    }

    /** The bytes of the record being written; reused from record to record. */
    private static final class RecordBuffer extends java.io.OutputStream {
        private byte[] bytes = new byte[8192];
        private int count;

        void reset() {
            count = 0;
        }

        @Override
        public void write(int b) {
            ensure(1);
            bytes[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, count, len);
            count += len;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, count);
        }

        private void ensure(int more) {
            if (count + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, count + more));
            }
        }
    }

    private static String schemaName(Schema schema) {
        return schema.name() != null ? schema.name() : schema.type().toString();
    }

    /** The bytes before a record's payload ({@code {"schema":...,"payload":}), and how far they have been checked. */
    private static final class Envelope {
        final byte[] prefix;
        int checked;
        boolean delegated;

        Envelope(byte[] prefix) {
            this.prefix = prefix;
        }

        /**
         * The prefix of {@code sample}, JsonConverter's bytes of a record of {@code schema}; an envelope that always
         * delegates when the sample has not the layout expected.
         */
        static Envelope of(byte[] sample, Schema schema) {
            try (JsonParser in = JSON.createParser(sample)) {
                if (in.nextToken() != JsonToken.START_OBJECT || in.nextToken() != JsonToken.FIELD_NAME
                        || !"schema".equals(in.currentName()) || in.nextToken() != JsonToken.START_OBJECT) {
                    return delegatedEnvelope();
                }
                in.skipChildren();
                if (in.nextToken() != JsonToken.FIELD_NAME || !"payload".equals(in.currentName())
                        || in.nextToken() == null) {
                    return delegatedEnvelope();
                }
                int payloadStart = (int) in.currentTokenLocation().getByteOffset();
                return new Envelope(Arrays.copyOf(sample, payloadStart));
            } catch (IOException | RuntimeException e) {
                LOG.debug("no cached envelope for schema {}: {}", schemaName(schema), e.toString());
                return delegatedEnvelope();
            }
        }

        private static Envelope delegatedEnvelope() {
            Envelope e = new Envelope(new byte[0]);
            e.delegated = true;
            return e;
        }
    }
}
