package io.vstream.connect.core.event;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The value of a ROW record: Debezium's change-event envelope ({@code before}, {@code after}, {@code source},
 * {@code op}, {@code ts_ms}, {@code transaction}), so that Debezium's SMTs and sinks read our rows unchanged.
 */
public final class RowEnvelope {
    public static final String BEFORE = "before";
    public static final String AFTER = "after";
    public static final String SOURCE = "source";
    public static final String OP = "op";
    public static final String TS_MS = "ts_ms";
    public static final String TRANSACTION = "transaction";

    /** Debezium's transaction block: the transaction id and the event's order in it. */
    public static final Schema TRANSACTION_SCHEMA = SchemaBuilder.struct()
            .name("event.block")
            .optional()
            .field("id", Schema.STRING_SCHEMA)
            .field("total_order", Schema.INT64_SCHEMA)
            .field("data_collection_order", Schema.INT64_SCHEMA)
            .build();

    /** The change operation, with Debezium's codes. */
    public enum Op {
        CREATE("c", "insert"), UPDATE("u", "update"), DELETE("d", "delete"), READ("r", "copy row");

        private final String code;
        private final String description;

        Op(String code, String description) {
            this.code = code;
            this.description = description;
        }

        public String code() {
            return code;
        }

        /** What the operation is, in words, for messages ("copy row", "insert", "update", "delete"). */
        public String description() {
            return description;
        }

        /** The words for {@code code}, or the code itself when it is none of ours. */
        public static String describe(String code) {
            for (Op op : values()) {
                if (op.code.equals(code)) {
                    return op.description;
                }
            }
            return "operation '" + code + "'";
        }

        public static Op fromCode(String code) {
            for (Op op : values()) {
                if (op.code.equals(code)) {
                    return op;
                }
            }
            throw new IllegalArgumentException("Unknown change operation '" + code + "', expected one of c, u, d, r");
        }
    }

    private RowEnvelope() {
    }

    /** The envelope schema for a table whose row values have {@code rowSchema} (which must be optional). */
    public static Schema schema(String envelopeName, Schema rowSchema) {
        return SchemaBuilder.struct()
                .name(envelopeName)
                .version(1)
                .field(BEFORE, rowSchema)
                .field(AFTER, rowSchema)
                .field(SOURCE, SourceInfo.SCHEMA)
                .field(OP, Schema.STRING_SCHEMA)
                .field(TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
                .field(TRANSACTION, TRANSACTION_SCHEMA)
                .build();
    }

    /** Builds one envelope value. */
    public static Struct value(Schema envelopeSchema, Struct before, Struct after, SourceInfo source, Op op,
                               long tsMs, Struct transaction) {
        return new Struct(envelopeSchema)
                .put(BEFORE, before)
                .put(AFTER, after)
                .put(SOURCE, source.toStruct())
                .put(OP, op.code())
                .put(TS_MS, tsMs)
                .put(TRANSACTION, transaction);
    }

    /** Debezium's transaction block for the {@code totalOrder}-th event of a transaction. */
    public static Struct transaction(String id, long totalOrder, long dataCollectionOrder) {
        return new Struct(TRANSACTION_SCHEMA)
                .put("id", id)
                .put("total_order", totalOrder)
                .put("data_collection_order", dataCollectionOrder);
    }
}
