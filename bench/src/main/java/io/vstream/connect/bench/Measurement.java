package io.vstream.connect.bench;

/**
 * One timed run of one side of a scenario.
 *
 * @param side          {@code us} or {@code peer}
 * @param seconds       the scenario's defined duration (e.g. from deploy until the last COMMIT is in the topic)
 * @param items         what was moved in that time (row changes, rows), as counted in the output
 * @param expectedItems what should have been moved; a run whose count differs is invalid
 * @param streamSeconds the time from the first item to the last (startup excluded), or NaN when not measured
 * @param valid         whether the run counts (complete, exact count)
 * @param note          why it is invalid, or a remark
 */
record Measurement(String side, double seconds, long items, long expectedItems, double streamSeconds, boolean valid,
                   String note) {

    static Measurement invalid(String side, double seconds, long items, long expectedItems, String why) {
        return new Measurement(side, seconds, items, expectedItems, Double.NaN, false, why);
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
