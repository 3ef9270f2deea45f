package io.vstream.connect.bench;

/**
 * One timed run of one side of a scenario.
 *
 * @param side          {@code us} or {@code peer} (or, for a run outside the alternation, what it is)
 * @param seconds       the scenario's defined duration (e.g. from deploy until the last COMMIT is in the topic)
 * @param items         what was moved in that time (row changes, rows), as counted in the output
 * @param expectedItems what should have been moved; a run whose count differs is invalid
 * @param streamSeconds the time from the first item to the last (startup excluded), or NaN when not measured
 * @param valid         whether the run counts (complete, exact count)
 * @param note          why it is invalid, or a remark
 * @param writes        the write load that ran during the run (ddl), or null when there was none
 */
record Measurement(String side, double seconds, long items, long expectedItems, double streamSeconds, boolean valid,
                   String note, WriteWindow writes) {

    /** A run without a write load beside it (cdc, copy, clone). */
    Measurement(String side, double seconds, long items, long expectedItems, double streamSeconds, boolean valid,
                String note) {
        this(side, seconds, items, expectedItems, streamSeconds, valid, note, null);
    }

    static Measurement invalid(String side, double seconds, long items, long expectedItems, String why) {
        return new Measurement(side, seconds, items, expectedItems, Double.NaN, false, why);
    }

    /** A side that could not run at all (its tool is missing): not counted, not a failed run. */
    static Measurement unavailable(String side, long expectedItems, String why) {
        return new Measurement(side, Double.NaN, 0, expectedItems, Double.NaN, false, UNAVAILABLE + why);
    }

    /** The note of an {@link #unavailable} side starts with this. */
    static final String UNAVAILABLE = "unavailable: ";

    boolean isUnavailable() {
        return !valid && note.startsWith(UNAVAILABLE);
    }

    /** Items per second over {@link #seconds}. */
    double rate() {
        return seconds > 0 ? expectedItems / seconds : Double.NaN;
    }

    /** Items per second from the first item to the last, or NaN. */
    double streamRate() {
        return streamSeconds > 0 ? expectedItems / streamSeconds : Double.NaN;
    }
}
