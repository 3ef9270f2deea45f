package io.vstream.connect.coordinator.ddl;

import io.vstream.connect.coordinator.ddl.AlterRefusedException.Reason;
import io.vstream.connect.coordinator.ddl.TableShape.Column;
import io.vstream.connect.coordinator.ddl.TableShape.KeyPart;
import io.vstream.connect.coordinator.ddl.TableShape.UniqueKey;
import io.vstream.connect.core.mapping.ColumnMapping;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Compares the original table with its ghost after the ALTER ran there, and derives what the applier needs: the
 * column mapping (shared columns, renames confirmed against both tables, dropped and added columns), the shared
 * unique key it writes rows by, and the uniqueness the new schema adds. Refuses an unconfirmed rename, a missing
 * shared key, an unaccepted new unique key, and a NOT NULL column without a default added to a table with rows.
 * Touches no server.
 */
final class ShapeDiff {
    private final ColumnMapping mapping;
    private final List<String> sharedKey;
    private final List<String> newUniqueKeys;
    private final List<String> notes;
    private boolean keyGrows;

    private ShapeDiff(ColumnMapping mapping, List<String> sharedKey, List<String> newUniqueKeys, List<String> notes) {
        this.mapping = mapping;
        this.sharedKey = List.copyOf(sharedKey);
        this.newUniqueKeys = List.copyOf(newUniqueKeys);
        this.notes = List.copyOf(notes);
    }

    ColumnMapping mapping() {
        return mapping;
    }

    List<String> sharedKey() {
        return sharedKey;
    }

    /**
     * Whether the shared key is not itself a unique key of the ghost but is contained in one (a primary key that
     * grows, e.g. {@code (id)} to {@code (id, i)}): the old key still identifies each row (the original enforces it and
     * is the ghost's only source), but the ghost does not, so a row is written by deleting its old key and inserting.
     */
    boolean keyGrows() {
        return keyGrows;
    }

    List<String> newUniqueKeys() {
        return newUniqueKeys;
    }

    List<String> notes() {
        return notes;
    }

    /**
     * Compares the tables; {@code table} names the original in messages.
     *
     * @throws AlterRefusedException when the migration cannot or must not go ahead (see the class comment)
     */
    static ShapeDiff compare(String table, TableShape original, TableShape ghost, List<AlterStatement.Rename> renames,
                             boolean allowNewUniqueKey, boolean originalHasRows) throws AlterRefusedException {
        return compare(table, original, ghost, renames, Set.of(), allowNewUniqueKey, originalHasRows);
    }

    /**
     * Compares the tables, {@code replaced} naming (lower case) the columns the ALTER drops and adds again under the
     * same name: such a column is a dropped one and an added one, never carried over by name.
     *
     * @throws AlterRefusedException when the migration cannot or must not go ahead (see the class comment)
     */
    static ShapeDiff compare(String table, TableShape original, TableShape ghost, List<AlterStatement.Rename> renames,
                             Set<String> replaced, boolean allowNewUniqueKey, boolean originalHasRows)
            throws AlterRefusedException {
        List<String> notes = new ArrayList<>();
        Map<String, String> renamed = confirm(original, ghost, renames, notes);

        Map<String, String> shared = new LinkedHashMap<>();
        List<String> dropped = new ArrayList<>();
        Set<String> targets = new HashSet<>();
        for (Column oc : original.columns()) {
            String target = renamed.containsKey(oc.name()) ? renamed.get(oc.name())
                    : ghost.column(oc.name()).map(Column::name).orElse(null);
            if (!renamed.containsKey(oc.name()) && replaced.contains(lower(oc.name()))) {
                target = null;
                notes.add("Column " + q(oc.name()) + " is dropped and added again: the new column takes its default,"
                        + " as in the server's own ALTER, and the old values are not carried over.");
            }
            Column gc = target == null ? null : ghost.column(target).orElseThrow();
            if (gc == null) {
                dropped.add(oc.name());
            } else if (gc.generated()) {
                dropped.add(oc.name());
                notes.add("Column " + q(gc.name()) + " is generated in the new table: the server computes it, and "
                        + q(oc.name()) + "'s values are not carried over.");
            } else {
                shared.put(oc.name(), gc.name());
                targets.add(lower(gc.name()));
                if (oc.nullable() && !gc.nullable()) {
                    notes.add("Column " + q(gc.name()) + " becomes NOT NULL: a row holding NULL there fails the"
                            + " migration (the server's own ALTER would have refused it too).");
                }
            }
        }
        List<String> added = ghost.columns().stream().map(Column::name)
                .filter(n -> !targets.contains(lower(n))).collect(Collectors.toList());
        ColumnMapping mapping = new ColumnMapping(shared, dropped, added);
        noteDropAndAdd(original, ghost, dropped, added, notes);

        List<String> sharedKey;
        UniqueKey grownInto = null;
        try {
            sharedKey = sharedKey(table, original, ghost, mapping);
        } catch (AlterRefusedException refused) {
            KeyGrowth growth = grownKey(original, ghost, mapping);
            if (growth == null) {
                throw refused;
            }
            sharedKey = growth.columns();
            grownInto = growth.into();
            notes.add("The key grows into " + grownInto.describe() + ": rows are still identified by "
                    + sharedKey + ", which the table enforces; each change is written to the ghost by deleting the"
                    + " row with that key and inserting the new image.");
        }
        List<String> newKeys = newUniqueKeys(original, ghost, mapping, notes);
        if (!newKeys.isEmpty()) {
            if (!allowNewUniqueKey) {
                throw new AlterRefusedException(Reason.NEW_UNIQUE_KEY, "The ALTER adds " + String.join(", ", newKeys)
                        + ", a uniqueness that " + table + " does not enforce: if rows collide on it, the migration"
                        + " fails (rows are never dropped to make it hold). Check for duplicates first (SELECT the"
                        + " key's columns, COUNT(*) ... GROUP BY them HAVING COUNT(*) > 1), then accept it by"
                        + " allowing a new unique key for this migration.");
            }
            notes.add("The new schema adds " + String.join(", ", newKeys) + " (accepted): a row that duplicates"
                    + " another on it fails the migration; no row is dropped.");
        }
        for (String name : added) {
            Column gc = ghost.column(name).orElseThrow();
            if (gc.needsValue()) {
                if (originalHasRows) {
                    throw new AlterRefusedException(Reason.NOT_NULL_WITHOUT_DEFAULT, "The ALTER adds column " + q(name)
                            + " NOT NULL without a DEFAULT, and " + table + " has rows: the applier has no value to"
                            + " give it. Add a DEFAULT to the column (e.g. ADD COLUMN " + q(name) + " "
                            + gc.columnType() + " NOT NULL DEFAULT ...), or make it NULL.");
                }
                notes.add("Column " + q(name) + " is NOT NULL without a DEFAULT: the table is empty now, but a row"
                        + " written during the migration fails it; give the column a DEFAULT to be safe.");
            }
        }
        ShapeDiff diff = new ShapeDiff(mapping, sharedKey, newKeys, notes);
        diff.keyGrows = grownInto != null;
        return diff;
    }

    /** A unique key of the original (NOT NULL, no prefixes) that a NOT NULL unique key of the ghost contains. */
    private record KeyGrowth(List<String> columns, UniqueKey into) {
    }

    private static KeyGrowth grownKey(TableShape original, TableShape ghost, ColumnMapping mapping) {
        List<UniqueKey> candidates = new ArrayList<>(original.uniqueKeys());
        candidates.sort(Comparator.comparing((UniqueKey k) -> !k.primary()).thenComparing(k -> k.parts().size()));
        for (UniqueKey ko : candidates) {
            List<KeyPart> mapped = mappedParts(original, ko, mapping);
            if (mapped == null || mapped.stream().anyMatch(p -> p.prefix() != null)) {
                continue;
            }
            List<String> columns = new ArrayList<>();
            for (KeyPart p : mapped) {
                Column gc = ghost.column(p.column()).orElse(null);
                if (gc == null || gc.nullable() || gc.generated()) {
                    columns = null;
                    break;
                }
                columns.add(gc.name());
            }
            if (columns == null) {
                continue;
            }
            for (UniqueKey kg : ghost.uniqueKeys()) {
                if (kg.parts().size() > ko.parts().size() && nonNull(ghost, kg) && implies(ko, kg, mapping)) {
                    return new KeyGrowth(columns, kg);
                }
            }
        }
        return null;
    }

    /** The confirmed renames, original name to the ghost's spelling of the new name. */
    private static Map<String, String> confirm(TableShape original, TableShape ghost,
                                               List<AlterStatement.Rename> renames, List<String> notes)
            throws AlterRefusedException {
        Map<String, String> out = new LinkedHashMap<>();
        for (AlterStatement.Rename r : renames) {
            List<String> problems = new ArrayList<>();
            Optional<Column> from = original.column(r.from());
            Optional<Column> to = ghost.column(r.to());
            if (from.isEmpty()) {
                problems.add(q(r.from()) + " is not a column of the table");
            }
            if (ghost.hasColumn(r.from())) {
                problems.add(q(r.from()) + " is still a column of the new table");
            }
            if (to.isEmpty()) {
                problems.add(q(r.to()) + " is not a column of the new table");
            }
            if (original.hasColumn(r.to())) {
                problems.add(q(r.to()) + " is already a column of the table");
            }
            if (!problems.isEmpty()) {
                throw new AlterRefusedException(Reason.UNCONFIRMED_RENAME, "The ALTER renames " + q(r.from()) + " to "
                        + q(r.to()) + " (" + r.clause() + "), but the tables do not confirm it: "
                        + String.join("; ", problems) + ". Carrying values by name could put one column's data in"
                        + " another. Rename without reusing either name elsewhere in the same ALTER (swaps and"
                        + " chains need one migration per step).");
            }
            out.put(from.get().name(), to.get().name());
            notes.add("Column " + q(from.get().name()) + " is renamed to " + q(to.get().name()) + " (" + r.clause()
                    + ", confirmed: only the table has the old name, only the new table the new one).");
        }
        return out;
    }

    /** A dropped column and an added one of the same base type: said to be a drop and an add, not a rename. */
    private static void noteDropAndAdd(TableShape original, TableShape ghost, List<String> dropped, List<String> added,
                                       List<String> notes) {
        for (String d : dropped) {
            Column oc = original.column(d).orElseThrow();
            List<String> alike = added.stream().map(a -> ghost.column(a).orElseThrow())
                    .filter(gc -> !gc.generated() && baseType(gc).equals(baseType(oc)))
                    .map(gc -> q(gc.name())).collect(Collectors.toList());
            if (!alike.isEmpty()) {
                notes.add("Column " + q(d) + " is dropped and " + String.join(", ", alike) + " added with the same"
                        + " type, without CHANGE or RENAME COLUMN between them: treated as a drop and an add, so "
                        + q(d) + "'s values are not carried over. If it is a rename, spell it CHANGE COLUMN or RENAME"
                        + " COLUMN.");
            }
        }
    }

    private static List<String> sharedKey(String table, TableShape original, TableShape ghost, ColumnMapping mapping)
            throws AlterRefusedException {
        List<UniqueKey> candidates = new ArrayList<>(original.uniqueKeys());
        candidates.sort(Comparator.comparing((UniqueKey k) -> !k.primary()).thenComparing(k -> k.parts().size()));
        List<UniqueKey> ghostKeys = new ArrayList<>(ghost.uniqueKeys());
        ghostKeys.sort(Comparator.comparing((UniqueKey k) -> !k.primary()));
        for (UniqueKey ko : candidates) {
            List<KeyPart> mapped = mappedParts(original, ko, mapping);
            if (mapped == null) {
                continue;
            }
            for (UniqueKey kg : ghostKeys) {
                if (sameParts(mapped, kg.parts()) && nonNull(ghost, kg)) {
                    return kg.parts().stream().map(KeyPart::column).collect(Collectors.toList());
                }
            }
        }
        throw new AlterRefusedException(Reason.NO_SHARED_UNIQUE_KEY, "No PRIMARY KEY or UNIQUE key over NOT NULL"
                + " columns is in both " + table + " and the new schema over the same columns (the table has "
                + describe(original) + "; the new schema has " + describe(ghost) + "): the applier writes rows by"
                + " such a key. Keep the primary key (or a UNIQUE key over NOT NULL columns) in the ALTER, and change"
                + " the key in a later migration once the new one exists in both.");
    }

    /** The key's parts with target column names, or {@code null} when it is not usable to write by. */
    private static List<KeyPart> mappedParts(TableShape original, UniqueKey ko, ColumnMapping mapping) {
        List<KeyPart> out = new ArrayList<>();
        for (KeyPart p : ko.parts()) {
            if (p.column() == null) {
                return null;
            }
            Column oc = original.column(p.column()).orElse(null);
            String target = mapping.target(p.column());
            if (oc == null || oc.nullable() || oc.generated() || target == null) {
                return null;
            }
            out.add(new KeyPart(target, p.prefix()));
        }
        return out;
    }

    private static boolean sameParts(List<KeyPart> a, List<KeyPart> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (KeyPart p : a) {
            if (b.stream().noneMatch(x -> x.column() != null && x.column().equalsIgnoreCase(p.column())
                    && Objects.equals(x.prefix(), p.prefix()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean nonNull(TableShape shape, UniqueKey key) {
        for (KeyPart p : key.parts()) {
            Column c = shape.column(p.column()).orElse(null);
            if (c == null || c.nullable() || c.generated()) {
                return false;
            }
        }
        return true;
    }

    /** The ghost's unique keys that no unique key of the original implies (through the mapping). */
    private static List<String> newUniqueKeys(TableShape original, TableShape ghost, ColumnMapping mapping,
                                              List<String> notes) {
        List<String> out = new ArrayList<>();
        for (UniqueKey kg : ghost.uniqueKeys()) {
            boolean implied = original.uniqueKeys().stream().anyMatch(ko -> implies(ko, kg, mapping));
            if (!implied) {
                out.add(kg.describe());
                continue;
            }
            for (KeyPart p : kg.parts()) {
                Column gc = p.column() == null ? null : ghost.column(p.column()).orElse(null);
                Column oc = gc == null ? null : sourceOf(original, mapping, gc.name());
                if (oc != null && (!oc.columnType().equalsIgnoreCase(gc.columnType())
                        || !Objects.equals(oc.collation(), gc.collation()))) {
                    notes.add(kg.describe() + " covers " + q(gc.name()) + ", which changes from " + typeOf(oc)
                            + " to " + typeOf(gc) + ": values distinct before may collide after, and a collision"
                            + " fails the migration.");
                }
            }
        }
        return out;
    }

    /**
     * Whether {@code ko} on the original forbids every duplicate that {@code kg} forbids on the ghost: each of its
     * columns is in {@code kg} (mapped), at least as long a prefix. NULLs do not break this: a NULL in a column of
     * {@code ko} is also a NULL in {@code kg}, which then does not compare either.
     */
    private static boolean implies(UniqueKey ko, UniqueKey kg, ColumnMapping mapping) {
        for (KeyPart po : ko.parts()) {
            String target = po.column() == null ? null : mapping.target(po.column());
            if (target == null) {
                return false;
            }
            boolean covered = kg.parts().stream().anyMatch(pg -> pg.column() != null
                    && pg.column().equalsIgnoreCase(target)
                    && (pg.prefix() == null || po.prefix() != null && pg.prefix() >= po.prefix()));
            if (!covered) {
                return false;
            }
        }
        return true;
    }

    /**
     * The carried columns whose type changes between TIMESTAMP and DATETIME (each as {@code old -> new}): the server's
     * own ALTER converts such a value in its session's time zone, the copy and the applier in UTC.
     */
    static List<String> zoneConverted(TableShape original, TableShape ghost, ColumnMapping mapping) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : mapping.shared().entrySet()) {
            Column oc = original.column(e.getKey()).orElse(null);
            Column gc = ghost.column(e.getValue()).orElse(null);
            if (oc == null || gc == null) {
                continue;
            }
            String from = baseType(oc);
            String to = baseType(gc);
            if (from.equals("timestamp") && to.equals("datetime") || from.equals("datetime") && to.equals("timestamp")) {
                out.add(q(oc.name()) + " " + oc.columnType() + " -> " + q(gc.name()) + " " + gc.columnType());
            }
        }
        return out;
    }

    private static Column sourceOf(TableShape original, ColumnMapping mapping, String target) {
        for (Map.Entry<String, String> e : mapping.shared().entrySet()) {
            if (e.getValue().equalsIgnoreCase(target)) {
                return original.column(e.getKey()).orElse(null);
            }
        }
        return null;
    }

    private static String describe(TableShape shape) {
        if (shape.uniqueKeys().isEmpty()) {
            return "no unique key";
        }
        return shape.uniqueKeys().stream().map(k -> k.describe() + (nonNull(shape, k) ? "" : " over NULL-able"
                + " columns")).collect(Collectors.joining(", "));
    }

    private static String typeOf(Column c) {
        return c.collation() == null ? c.columnType() : c.columnType() + " " + c.collation();
    }

    /** The column's type without its size, sign or options, lower case ({@code decimal(12,2)} -> {@code decimal}). */
    static String baseType(Column c) {
        String t = c.columnType().toLowerCase(Locale.ROOT);
        int cut = t.length();
        for (char stop : new char[] {'(', ' '}) {
            int at = t.indexOf(stop);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return t.substring(0, cut);
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static String q(String name) {
        return SqlIdentifiers.quote(name);
    }
}
