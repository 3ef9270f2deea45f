package io.vstream.connect.coordinator.ddl;

import io.vstream.connect.coordinator.ddl.TableShape.Column;
import io.vstream.connect.core.mapping.ColumnMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a completed online ALTER can be reverted (issue #21), and how a reverse stream would carry the new table's
 * changes into the kept original ({@code <t>_old}): the forward analysis ({@link ShapeDiff}) run the other way, the new
 * table as the source and the old one as the target, every rename turned around, so the same rules decide: columns the
 * ALTER added are dropped on the way back, columns it dropped take the old table's default (a NOT NULL one without a
 * default refuses the revert: there is no value to give it), a uniqueness the old table has and the new one lacks must
 * be allowed (the reverse stream fails on a row that violates it), and the two tables must share a unique key. Beside
 * that it names the shared columns whose old type may not hold every value of the new one (a narrower integer, string
 * or decimal, another type): the revert stays possible, but a value that does not fit stops the reverse stream with
 * its key, after which the revert is no longer safe. Touches no server.
 *
 * @param mapping   new table's columns onto the old table's
 * @param sharedKey the unique key the reverse stream writes rows by, by its names in the old table
 * @param mayNotFit shared columns, by their names in the new table, whose values the old type may not hold
 * @param notes     what the reverse analysis noted (a column dropped and added again, ...)
 * @param writesByDelete whether the reverse stream writes a row by deleting its key and inserting it (the old table
 *                  enforces a uniqueness the new one lacks, or the shared key only lies inside its key), as
 *                  {@link AlterPlan#writesByDelete()} decides it the forward way
 */
public record RevertAnalysis(ColumnMapping mapping, List<String> sharedKey, List<String> mayNotFit,
                             List<String> notes, boolean writesByDelete) {
    private static final Pattern SIZED = Pattern.compile("^([a-z]+)\\((\\d+)(?:,(\\d+))?\\)");
    private static final List<String> INTEGERS = List.of("tinyint", "smallint", "mediumint", "int", "bigint");
    private static final List<String> TEXTS = List.of("tinytext", "text", "mediumtext", "longtext");
    private static final List<String> BLOBS = List.of("tinyblob", "blob", "mediumblob", "longblob");

    public RevertAnalysis {
        sharedKey = List.copyOf(sharedKey);
        mayNotFit = List.copyOf(mayNotFit);
        notes = List.copyOf(notes);
    }

    /**
     * Analyzes the revert of a migration whose forward mapping was {@code forward} ({@code original}: the old table's
     * shape, {@code migrated}: the new table's).
     *
     * @param allowUniqueness whether a unique key the old table has and the new one lacks may be restored (the reverse
     *                        stream then fails on the first row that violates it)
     * @throws AlterRefusedException when the old table cannot be kept equal to the new one (see the class comment)
     */
    public static RevertAnalysis of(String table, TableShape original, TableShape migrated, ColumnMapping forward,
                                    boolean allowUniqueness) throws AlterRefusedException {
        List<AlterStatement.Rename> back = new ArrayList<>();
        forward.renamed().forEach((from, to) -> back.add(new AlterStatement.Rename(to, from, "revert of " + from)));
        ShapeDiff reverse = ShapeDiff.compare(table, migrated, original, back, allowUniqueness, true);
        List<String> narrow = new ArrayList<>();
        for (Map.Entry<String, String> e : reverse.mapping().shared().entrySet()) {
            Column from = migrated.column(e.getKey()).orElseThrow();
            Column to = original.column(e.getValue()).orElseThrow();
            if (!fits(from, to)) {
                narrow.add(e.getKey());
            }
        }
        return new RevertAnalysis(reverse.mapping(), reverse.sharedKey(), narrow, reverse.notes(),
                !reverse.newUniqueKeys().isEmpty() || reverse.keyGrows());
    }

    /**
     * Whether every value of column {@code from} fits column {@code to} as the server converts it: the same type, or a
     * wider one of the same family (integers by size and sign, DECIMAL by integer digits and scale, CHAR/VARCHAR by
     * length, TEXT and BLOB by size), and NULLs only where {@code to} allows them. Anything else may not fit.
     */
    static boolean fits(Column from, Column to) {
        if (from.nullable() && !to.nullable()) {
            return false;
        }
        String a = from.columnType().toLowerCase(Locale.ROOT).trim();
        String b = to.columnType().toLowerCase(Locale.ROOT).trim();
        if (a.equals(b) && java.util.Objects.equals(from.collation(), to.collation())) {
            return true;
        }
        if (from.collation() != null && to.collation() != null && !charset(from.collation())
                .equals(charset(to.collation()))) {
            return false; // another character set may not hold every character
        }
        String baseA = ShapeDiff.baseType(from);
        String baseB = ShapeDiff.baseType(to);
        boolean unsignedA = a.contains("unsigned");
        boolean unsignedB = b.contains("unsigned");
        int ia = INTEGERS.indexOf(baseA);
        int ib = INTEGERS.indexOf(baseB);
        if (ia >= 0 && ib >= 0) {
            if (unsignedA == unsignedB) {
                return ib >= ia;
            }
            return unsignedA && ib > ia; // unsigned into a wider signed fits; signed into unsigned may be negative
        }
        if (baseA.equals("decimal") && baseB.equals("decimal")) {
            int[] da = digits(a);
            int[] db = digits(b);
            return da != null && db != null && (!unsignedB || unsignedA) && db[1] >= da[1]
                    && db[0] - db[1] >= da[0] - da[1];
        }
        if ((baseA.equals("varchar") || baseA.equals("char")) && (baseB.equals("varchar") || baseB.equals("char"))) {
            int[] da = digits(a);
            int[] db = digits(b);
            return da != null && db != null && db[0] >= da[0] && !(baseA.equals("varchar") && baseB.equals("char"));
        }
        int ta = TEXTS.indexOf(baseA);
        int tb = TEXTS.indexOf(baseB);
        if (ta >= 0 && tb >= 0) {
            return tb >= ta;
        }
        int ba = BLOBS.indexOf(baseA);
        int bb = BLOBS.indexOf(baseB);
        return ba >= 0 && bb >= 0 && bb >= ba;
    }

    /** Length (or precision) and scale of {@code name(n[,s])}, or null. */
    private static int[] digits(String type) {
        Matcher m = SIZED.matcher(type);
        if (!m.find()) {
            return null;
        }
        return new int[] {Integer.parseInt(m.group(2)), m.group(3) == null ? 0 : Integer.parseInt(m.group(3))};
    }

    private static String charset(String collation) {
        int at = collation.indexOf('_');
        return at < 0 ? collation : collation.substring(0, at);
    }
}
