package io.vstream.connect.bench;

import java.util.Locale;

/**
 * How much data each scenario moves. {@code small} finishes in a few minutes on 2 cores; {@code medium} is the size to
 * quote; {@code tiny} only checks that the harness works.
 *
 * @param cdcInsertRows rows the CDC load inserts (multi-row INSERT transactions of {@link #TXN_ROWS} rows)
 * @param cdcUpdateRows rows the CDC load updates (UPDATE transactions of {@link #TXN_ROWS} rows, one after every
 *                      {@code cdcInsertRows / cdcUpdateRows} insert transactions)
 * @param copyRows      rows of the table the copy scenario copies (and the clone scenario clones)
 * @param ddlRows       rows of the table the ddl scenario alters (a fresh copy for every run)
 */
record Scale(String name, int cdcInsertRows, int cdcUpdateRows, int copyRows, int ddlRows) {
    /** Rows per load transaction. */
    static final int TXN_ROWS = 100;

    /** A smoke test of the harness itself (seconds per run): its numbers mean nothing. */
    static final Scale TINY = new Scale("tiny", 20_000, 5_000, 30_000, 20_000);
    static final Scale SMALL = new Scale("small", 200_000, 50_000, 300_000, 200_000);
    static final Scale MEDIUM = new Scale("medium", 1_000_000, 250_000, 1_000_000, 1_000_000);

    static Scale parse(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "tiny" -> TINY;
            case "small" -> SMALL;
            case "medium" -> MEDIUM;
            default -> throw new IllegalArgumentException("--scale must be tiny, small or medium, was '" + text + "'");
        };
    }

    /** Row changes the CDC load writes: every insert and every update is one row change. */
    long cdcRowChanges() {
        return (long) cdcInsertRows + cdcUpdateRows;
    }
}
