package io.vstream.connect.coordinator;

import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of workflow a coordinator runs ({@code workflow}), each with its name in the config and in status records.
 * No I/O.
 */
enum WorkflowType {
    /** Copies a source into a target and hands the target over to native replication (docs/clone.md). */
    CLONE("clone"),
    /** Changes a table through a ghost table and swaps it in (docs/online-ddl.md). */
    ONLINE_DDL("online-ddl"),
    /** Moves a keyspace onto new shards and switches to them (docs/reshard.md). */
    RESHARD("reshard");

    private final String label;

    WorkflowType(String label) {
        this.label = label;
    }

    /** The name in the config ({@code workflow}) and in status records, e.g. {@code online-ddl}. */
    String label() {
        return label;
    }

    /**
     * The type a {@code workflow} value names, read as the config reads it: blanks around it dropped (Kafka trims a
     * STRING value) and in any case (as its validator, {@code CaseInsensitiveValidString}, compares); empty when it
     * names none. The one reading of the value: the task's config and the connector's {@code validate} both use it.
     */
    static Optional<WorkflowType> named(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String n = value.trim().toUpperCase(Locale.ROOT);
        for (WorkflowType t : values()) {
            if (t.label.toUpperCase(Locale.ROOT).equals(n)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** The type {@code value} names ({@link #named}); the config's validator has already refused other values. */
    static WorkflowType of(String value) {
        return named(value).orElseThrow(() -> new IllegalArgumentException("unknown workflow type '" + value
                + "' (" + String.join(", ", labels()) + ")"));
    }

    /** Every type's label, in order: the values {@code workflow} accepts. */
    static String[] labels() {
        return java.util.Arrays.stream(values()).map(WorkflowType::label).toArray(String[]::new);
    }
}
