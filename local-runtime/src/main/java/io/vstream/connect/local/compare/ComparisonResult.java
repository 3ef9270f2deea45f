package io.vstream.connect.local.compare;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of comparing two tables (or a write-load model with a table): how many rows were compared,
 * in how many chunks, and the differing rows (at most a bounded number are kept; {@link #differenceCount()}
 * counts all). {@link #toString()} is bounded, for assertion messages.
 *
 * @param subject          what was compared, e.g. {@code "`a`.`t` vs `b`.`t`"}
 * @param rowsCompared     rows read on the source side (or in the model)
 * @param chunks           chunks compared by checksum (0 when compared row by row)
 * @param mismatchedChunks chunks whose checksum differed
 * @param differenceCount  all differing rows found, including those not kept in {@code differences}
 * @param differences      the first differing rows, in chunk order
 * @param note             extra context (e.g. keys skipped as uncertain); empty if none
 */
public record ComparisonResult(String subject, long rowsCompared, int chunks, int mismatchedChunks,
                               long differenceCount, List<RowDifference> differences, String note) {

    private static final int SHOWN_DIFFERENCES = 20;
    private static final int MAX_CHARS = 4000;

    public ComparisonResult {
        differences = List.copyOf(differences);
        note = note == null ? "" : note;
    }

    public boolean isEqual() {
        return differenceCount == 0 && mismatchedChunks == 0;
    }

    /** Counts of the kept differences by kind. */
    public Map<RowDifference.Kind, Integer> countsByKind() {
        Map<RowDifference.Kind, Integer> counts = new EnumMap<>(RowDifference.Kind.class);
        differences.forEach(d -> counts.merge(d.kind(), 1, Integer::sum));
        return counts;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        out.append(isEqual() ? "EQUAL: " : "NOT EQUAL: ").append(subject).append(": ")
                .append(rowsCompared).append(" source rows");
        if (chunks > 0) {
            out.append(" in ").append(chunks).append(" chunk(s)");
        }
        if (!isEqual()) {
            out.append(", ").append(differenceCount).append(" differing row(s)");
            if (chunks > 0) {
                out.append(" in ").append(mismatchedChunks).append(" chunk(s)");
            }
            out.append(' ').append(countsByKind());
        }
        if (!note.isEmpty()) {
            out.append(" (").append(note).append(')');
        }
        int shown = 0;
        for (RowDifference difference : differences) {
            if (shown == SHOWN_DIFFERENCES || out.length() > MAX_CHARS) {
                break;
            }
            out.append("\n  ").append(difference);
            shown++;
        }
        if (differenceCount > shown) {
            out.append("\n  ... and ").append(differenceCount - shown).append(" more");
        }
        return out.length() > MAX_CHARS + 200 ? out.substring(0, MAX_CHARS + 200) + "..." : out.toString();
    }
}
