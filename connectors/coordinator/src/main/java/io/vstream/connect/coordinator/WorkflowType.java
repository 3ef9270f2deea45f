package io.vstream.connect.coordinator;

import java.util.Locale;

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

    /** The type named {@code name} (any case); the config's validator has already refused other names. */
    static WorkflowType of(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (WorkflowType t : values()) {
            if (t.label.equals(n)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown workflow type '" + name + "' (clone, online-ddl or reshard)");
    }
}
