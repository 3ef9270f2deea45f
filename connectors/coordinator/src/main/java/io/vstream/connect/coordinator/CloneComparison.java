package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.StreamTables;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Step 3 of the clone's hand-off: compares every table the applier stream holds (as its sink recorded them from the
 * source's FIELD records, {@link StreamTables}) with the same table in the source's snapshot at S, by row count and
 * checksum over the source's columns. A comparison that has nothing to compare, a table the target account cannot
 * see, different columns or different sums are each a problem, named with the fix; never a silent pass. Reads only.
 */
record CloneComparison(List<String> tables, List<String> databases, String problem) {

    static CloneComparison at(Connection sourceSnapshot, Connection target, List<StreamTables.Entry> held,
                              String stream) throws SQLException {
        if (held.isEmpty()) {
            return failed("the applier stream '" + stream + "' has recorded no table on the target, so there is"
                    + " nothing to compare (a sink of this version records each table it takes; check that the sink is"
                    + " named as applier.stream and that the source copies at least one table)");
        }
        List<String> tables = new ArrayList<>();
        LinkedHashSet<String> databases = new LinkedHashSet<>();
        List<String> mismatches = new ArrayList<>();
        for (StreamTables.Entry e : held) {
            if (!e.sameNames()) {
                return failed("the stream writes " + e.sourceDatabase() + "." + e.sourceTable() + " into " + e.target()
                        + ": native replication writes the source's names, so a clone handed over to it must keep"
                        + " them (target.database.format and target.table.format at their defaults)");
            }
            List<String> sourceColumns = TableChecksum.columns(sourceSnapshot, e.sourceDatabase(), e.sourceTable());
            if (sourceColumns.isEmpty()) {
                return failed("the source table " + e.sourceDatabase() + "." + e.sourceTable() + " is not visible to"
                        + " the coordinator's source account (dropped, or missing: GRANT SELECT ON "
                        + SqlIdentifiers.quote(e.sourceDatabase()) + ".* TO the source.user)");
            }
            List<String> targetColumns = TableChecksum.columns(target, e.targetDatabase(), e.targetTable());
            if (targetColumns.isEmpty()) {
                return failed("the target table " + e.target() + " is not visible to the coordinator's target account"
                        + " (missing on the target, or missing: GRANT SELECT ON "
                        + SqlIdentifiers.quote(e.targetDatabase()) + ".* TO the target.user)");
            }
            if (!lower(sourceColumns).equals(lower(targetColumns))) {
                mismatches.add(e.target() + " (columns differ: source " + sourceColumns + ", target "
                        + targetColumns + ")");
                continue;
            }
            TableChecksum.Sum t = TableChecksum.sum(target, e.targetDatabase(), e.targetTable(), sourceColumns);
            TableChecksum.Sum s = TableChecksum.sum(sourceSnapshot, e.sourceDatabase(), e.sourceTable(),
                    sourceColumns);
            if (!t.equals(s)) {
                mismatches.add(e.target() + " (source " + s.rows() + " rows, target " + t.rows() + ")");
            }
            tables.add(e.target());
            databases.add(e.targetDatabase());
        }
        if (!mismatches.isEmpty()) {
            return failed("the clone does not match the source for " + mismatches + " (the tables' engines and"
                    + " collations must keep values equal)");
        }
        return new CloneComparison(List.copyOf(tables), List.copyOf(databases), null);
    }

    private static CloneComparison failed(String problem) {
        return new CloneComparison(List.of(), List.of(), problem);
    }

    private static List<String> lower(List<String> names) {
        return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    }
}
