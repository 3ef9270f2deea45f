package io.vstream.connect.bench;

import static io.vstream.connect.bench.SchemaFact.column;
import static io.vstream.connect.bench.SchemaFact.index;
import static io.vstream.connect.bench.SchemaFact.noColumn;
import static io.vstream.connect.bench.SchemaFact.noIndex;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The ALTERs of the stress command, a cycle of ten that brings the table back to its first shape, so that every
 * migration runs a different ALTER than the one before: columns
 * added, renamed ({@code CHANGE COLUMN}) and dropped, types widened and narrowed back, an index added and dropped,
 * and a rebuild that changes nothing ({@code ENGINE=InnoDB}, the ALTER of Vitess's {@code onlineddl_vrepl_stress}).
 * The write load's columns ({@code k, v, amount, updated}) keep their names and hold every value the load writes at
 * every step, so the load's model stays exact; the other columns ({@code note}, {@code remark}, {@code created}) take
 * their defaults. Each ALTER names the facts it needs ({@link Alter#pre}) and the ones it makes ({@link Alter#post}):
 * after a failed migration, the next one skips to the first ALTER that applies to the table as it is. Touches nothing.
 */
final class StressAlters {
    /**
     * One ALTER of the cycle.
     *
     * @param sql  what follows {@code ALTER TABLE <t>}
     * @param pre  what must hold on every shard for it to apply
     * @param post what holds on every shard once its migration completed
     */
    record Alter(String sql, List<SchemaFact> pre, List<SchemaFact> post) {
    }

    /**
     * The ALTER a migration runs, and the ones of the cycle skipped to reach it (their {@code pre} did not hold: an
     * earlier migration failed).
     */
    record Choice(Alter alter, int position, List<Alter> skipped) {
    }

    static final List<Alter> CYCLE = List.of(
            new Alter("ADD COLUMN note VARCHAR(32) NULL DEFAULT 'n'",
                    List.of(noColumn("note"), noColumn("remark")), List.of(column("note", "varchar(32)"))),
            new Alter("MODIFY amount DECIMAL(14,2) NOT NULL",
                    List.of(column("amount", "decimal(12,2)")), List.of(column("amount", "decimal(14,2)"))),
            new Alter("ADD INDEX k_amount (k, amount)",
                    List.of(noIndex("k_amount")), List.of(index("k_amount", "k,amount"))),
            new Alter("CHANGE COLUMN note remark VARCHAR(40) NULL DEFAULT 'r'",
                    List.of(column("note", "varchar(32)"), noColumn("remark")),
                    List.of(noColumn("note"), column("remark", "varchar(40)"))),
            new Alter("ENGINE=InnoDB", List.of(), List.of()),
            new Alter("MODIFY v VARCHAR(128) NULL, DROP INDEX k_amount",
                    List.of(index("k_amount", "k,amount")),
                    List.of(column("v", "varchar(128)"), noIndex("k_amount"))),
            new Alter("DROP COLUMN remark",
                    List.of(column("remark", "varchar(40)")), List.of(noColumn("remark"))),
            new Alter("MODIFY k BIGINT NOT NULL, ADD COLUMN created DATETIME(6) NULL",
                    List.of(noColumn("created")), List.of(column("k", "bigint(20)"), column("created", "datetime(6)"))),
            new Alter("MODIFY amount DECIMAL(12,2) NOT NULL, MODIFY v VARCHAR(64) NULL, MODIFY k INT NOT NULL",
                    List.of(), List.of(column("amount", "decimal(12,2)"), column("v", "varchar(64)"),
                    column("k", "int(11)"))),
            new Alter("DROP COLUMN created",
                    List.of(column("created", "datetime(6)")), List.of(noColumn("created"))));

    private StressAlters() {
    }

    /**
     * The next migration's ALTER: the cycle's next one after {@code previousPosition} (-1 before the first migration)
     * whose {@code pre} holds ({@code applies}); null when none does.
     */
    static Choice next(int previousPosition, Predicate<Alter> applies) {
        List<Alter> skipped = new ArrayList<>();
        for (int i = 1; i <= CYCLE.size(); i++) {
            int position = Math.floorMod(previousPosition + i, CYCLE.size());
            Alter a = CYCLE.get(position);
            if (applies.test(a)) {
                return new Choice(a, position, skipped);
            }
            skipped.add(a);
        }
        return null;
    }
}
