package io.vstream.connect.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The records a coordinator writes to its status topic (keyed by workflow name): the state, the hand-off step, the
 * reason of a failure or a retry, positions, lag, copy progress and attempts. Each carries the workflow's persisted
 * state as its offset.
 */
final class StatusRecords {
    static final Schema SHARD = SchemaBuilder.struct().name("io.vstream.connect.WorkflowShardStatus")
            .field("shard", Schema.STRING_SCHEMA)
            .field("state", Schema.STRING_SCHEMA)
            .field("applied_position", Schema.OPTIONAL_STRING_SCHEMA)
            .field("lag_ms", Schema.OPTIONAL_INT64_SCHEMA)
            .field("lag_transactions", Schema.OPTIONAL_INT64_SCHEMA)
            .field("rows_copied", Schema.OPTIONAL_INT64_SCHEMA)
            .field("throttle_reason", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    static final Schema SCHEMA = SchemaBuilder.struct().name("io.vstream.connect.WorkflowStatus")
            .field("workflow", Schema.STRING_SCHEMA)
            .field("type", Schema.STRING_SCHEMA)
            .field("state", Schema.STRING_SCHEMA)
            .field("step", Schema.OPTIONAL_STRING_SCHEMA)
            .field("reason", Schema.OPTIONAL_STRING_SCHEMA)
            .field("source_position", Schema.OPTIONAL_STRING_SCHEMA)
            .field("applied_position", Schema.OPTIONAL_STRING_SCHEMA)
            .field("lag_transactions", Schema.OPTIONAL_INT64_SCHEMA)
            .field("tables_copying", Schema.OPTIONAL_INT32_SCHEMA)
            .field("attempts", Schema.INT32_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            // added later, all optional (readers of older records see them absent)
            .field("rows_copied", Schema.OPTIONAL_INT64_SCHEMA)
            .field("rows_total", Schema.OPTIONAL_INT64_SCHEMA)
            .field("progress_pct", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("rows_per_second", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("eta_ms", Schema.OPTIONAL_INT64_SCHEMA)
            .field("throttle_reason", Schema.OPTIONAL_STRING_SCHEMA)
            .field("lag_ms", Schema.OPTIONAL_INT64_SCHEMA)
            // the last on-demand diff (diff.request), absent until one is asked for
            .field("diff_id", Schema.OPTIONAL_STRING_SCHEMA)
            .field("diff_state", Schema.OPTIONAL_STRING_SCHEMA)
            .field("diff_position", Schema.OPTIONAL_STRING_SCHEMA)
            .field("diff_tables_done", Schema.OPTIONAL_INT32_SCHEMA)
            .field("diff_tables_total", Schema.OPTIONAL_INT32_SCHEMA)
            .field("diff_rows_compared", Schema.OPTIONAL_INT64_SCHEMA)
            .field("diff_rows_total", Schema.OPTIONAL_INT64_SCHEMA)
            .field("diff_eta_ms", Schema.OPTIONAL_INT64_SCHEMA)
            .field("diff_differences", Schema.OPTIONAL_INT64_SCHEMA)
            .field("diff_details", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
            .field("diff_reason", Schema.OPTIONAL_STRING_SCHEMA)
            // per shard, as the last round measured it, and the Connect status of the workflow's connectors as the
            // coordinator last saw it (watch.connect.url)
            .field("shards", SchemaBuilder.array(SHARD).optional().build())
            .field("connectors", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
            .build();

    /**
     * What the coordinator measured this round (any may be null): positions and lag, and for a copy its progress
     * (rows copied, the estimated total, percent, rows per second, ETA), why it is throttled, and how far in time the
     * slowest applier is behind what its source has read ({@link ApplierLag}).
     */
    record Progress(String sourcePosition, String appliedPosition, Long lagTransactions, Integer tablesCopying,
                    Long rowsCopied, Long rowsTotal, Double progressPct, Double rowsPerSecond, Long etaMs,
                    String throttleReason, Long lagMs) {
        static final Progress NONE = new Progress(null, null, null, null);

        Progress(String sourcePosition, String appliedPosition, Long lagTransactions, Integer tablesCopying) {
            this(sourcePosition, appliedPosition, lagTransactions, tablesCopying, null, null, null, null, null, null,
                    null);
        }
    }

    private final String topic;
    private final String workflow;
    private final String type;
    private final String definition;

    StatusRecords(String topic, String workflow, String type) {
        this(topic, workflow, type, null);
    }

    /** With {@code definition} ({@link WorkflowDefinition}) stored beside the state in every record's offset. */
    StatusRecords(String topic, String workflow, String type, String definition) {
        this.topic = topic;
        this.workflow = workflow;
        this.type = type;
        this.definition = definition;
    }

    SourceRecord record(WorkflowStatus status, Progress p) {
        return record(status, p, null, List.of(), List.of());
    }

    /**
     * The record of {@code status} and {@code p}, with the last on-demand diff (null: none asked for), each shard's
     * status and the connectors' Connect status (each omitted when empty).
     */
    SourceRecord record(WorkflowStatus status, Progress p, DiffStatus diff, List<ShardStatus> shards,
                        List<String> connectors) {
        Struct v = new Struct(SCHEMA)
                .put("workflow", workflow)
                .put("type", type)
                .put("state", status.state().name())
                .put("step", status.step() == null ? null : status.step().name())
                .put("reason", status.reason())
                .put("source_position", p.sourcePosition())
                .put("applied_position", p.appliedPosition())
                .put("lag_transactions", p.lagTransactions())
                .put("tables_copying", p.tablesCopying())
                .put("attempts", status.attempts())
                .put("ts_ms", System.currentTimeMillis())
                .put("rows_copied", p.rowsCopied())
                .put("rows_total", p.rowsTotal())
                .put("progress_pct", p.progressPct())
                .put("rows_per_second", p.rowsPerSecond())
                .put("eta_ms", p.etaMs())
                .put("throttle_reason", p.throttleReason())
                .put("lag_ms", p.lagMs());
        if (!shards.isEmpty()) {
            List<Struct> list = new ArrayList<>();
            for (ShardStatus s : shards) {
                list.add(new Struct(SHARD).put("shard", s.shard()).put("state", s.state())
                        .put("applied_position", s.appliedPosition()).put("lag_ms", s.lagMs())
                        .put("lag_transactions", s.lagTransactions()).put("rows_copied", s.rowsCopied())
                        .put("throttle_reason", s.throttle()));
            }
            v.put("shards", list);
        }
        if (!connectors.isEmpty()) {
            v.put("connectors", List.copyOf(connectors));
        }
        Map<String, Object> offset = status.toOffset();
        if (diff != null) {
            v.put("diff_id", diff.id())
                    .put("diff_state", diff.state())
                    .put("diff_position", diff.position())
                    .put("diff_tables_done", diff.tablesDone())
                    .put("diff_tables_total", diff.tablesTotal())
                    .put("diff_rows_compared", diff.rowsCompared())
                    .put("diff_rows_total", diff.rowsTotal())
                    .put("diff_eta_ms", diff.etaMs())
                    .put("diff_differences", diff.differences())
                    .put("diff_details", diff.details())
                    .put("diff_reason", diff.reason());
            diff.putInto(offset);
        }
        if (definition != null) {
            offset.put(WorkflowDefinition.OFFSET_KEY, definition);
        }
        return new SourceRecord(WorkflowStatus.partition(workflow), offset, topic, null,
                Schema.STRING_SCHEMA, workflow, SCHEMA, v);
    }
}
