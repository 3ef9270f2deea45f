package io.vstream.connect.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where an on-demand diff ({@code diff.request}, {@code vsc diff}) stands: RUNNING until it has compared every table,
 * then EQUAL, DIFFERENT (with the differences it named) or FAILED (with the reason). Published in every status record
 * beside the workflow's own state, and kept in the coordinator's offset so a restarted task neither runs a finished
 * diff again nor forgets its result. No I/O.
 *
 * @param id          the request ({@code diff.request}) this answers
 * @param state       RUNNING, EQUAL, DIFFERENT or FAILED
 * @param position    the source position of the last slice (every slice compares at its own exact position)
 * @param rowsTotal   the source's row estimate of the tables (information_schema), for the progress; null unknown
 * @param differences how many rows (or, for a table without a key, chunks) differ
 * @param details     the differences named so far (at most {@value #MAX_DETAILS})
 * @param reason      why it waits, or failed
 */
record DiffStatus(String id, String state, String position, int tablesDone, int tablesTotal, long rowsCompared,
                  Long rowsTotal, Long etaMs, long differences, List<String> details, String reason, long startedMs) {
    static final String RUNNING = "RUNNING";
    static final String EQUAL = "EQUAL";
    static final String DIFFERENT = "DIFFERENT";
    static final String FAILED = "FAILED";
    static final int MAX_DETAILS = 50;

    DiffStatus {
        details = List.copyOf(details);
    }

    static DiffStatus started(String id, long now) {
        return new DiffStatus(id, RUNNING, null, 0, 0, 0, null, null, 0, List.of(), null, now);
    }

    boolean running() {
        return RUNNING.equals(state);
    }

    DiffStatus waiting(String why) {
        return new DiffStatus(id, state, position, tablesDone, tablesTotal, rowsCompared, rowsTotal, etaMs,
                differences, details, why, startedMs);
    }

    DiffStatus failed(String why) {
        return new DiffStatus(id, FAILED, position, tablesDone, tablesTotal, rowsCompared, rowsTotal, null,
                differences, details, why, startedMs);
    }

    /** After a slice: its position and counts, the differences it found added. */
    DiffStatus progressed(String at, int done, int total, long rows, Long estimate, List<String> found,
                          long foundCount, long now) {
        List<String> all = new ArrayList<>(details);
        for (String f : found) {
            if (all.size() < MAX_DETAILS) {
                all.add(f);
            }
        }
        long diffs = differences + foundCount;
        boolean finished = done >= total;
        String next = !finished ? RUNNING : diffs == 0 ? EQUAL : DIFFERENT;
        Long eta = null;
        if (!finished && estimate != null && rows > 0 && now > startedMs) {
            double perMs = rows / (double) (now - startedMs);
            eta = Math.max(0, (long) ((estimate - rows) / perMs));
        }
        return new DiffStatus(id, next, at, done, total, rows, estimate, finished ? null : eta, diffs, all, null,
                startedMs);
    }

    /** The offset entries this status is kept as (beside the workflow's state). */
    void putInto(Map<String, Object> offset) {
        offset.put("diff_id", id);
        offset.put("diff_state", state);
        if (position != null) {
            offset.put("diff_position", position);
        }
        offset.put("diff_tables", tablesDone + "/" + tablesTotal);
        offset.put("diff_rows", rowsCompared);
        offset.put("diff_differences", differences);
        if (!details.isEmpty()) {
            offset.put("diff_details", String.join("\n", details));
        }
        if (reason != null) {
            offset.put("diff_reason", reason);
        }
        offset.put("diff_started_ms", startedMs);
    }

    /** The status a stored offset holds, or null when it holds none. */
    static DiffStatus fromOffset(Map<String, Object> offset) {
        if (offset == null || !(offset.get("diff_id") instanceof String id)) {
            return null;
        }
        String tables = offset.get("diff_tables") instanceof String t ? t : "0/0";
        int slash = tables.indexOf('/');
        int done = slash < 0 ? 0 : parse(tables.substring(0, slash));
        int total = slash < 0 ? 0 : parse(tables.substring(slash + 1));
        String details = (String) offset.get("diff_details");
        return new DiffStatus(id, String.valueOf(offset.getOrDefault("diff_state", FAILED)),
                (String) offset.get("diff_position"), done, total, number(offset.get("diff_rows")), null, null,
                number(offset.get("diff_differences")), details == null ? List.of() : List.of(details.split("\n")),
                (String) offset.get("diff_reason"), number(offset.get("diff_started_ms")));
    }

    private static int parse(String s) {
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long number(Object o) {
        return o instanceof Number n ? n.longValue() : 0L;
    }
}
