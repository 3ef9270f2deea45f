package io.vstream.connect.bench;

import static io.vstream.connect.bench.SchemaFact.column;
import static io.vstream.connect.bench.SchemaFact.index;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The ALTER of one ddl scenario and the schema it makes: {@code ddl} changes a column's type and adds an index (every
 * tool copies the table), {@code ddl-instant} adds a nullable column (MariaDB can do it with {@code ALGORITHM=INSTANT},
 * which the coordinator then does: no ghost table, copy or cut-over). The schema is checked in
 * {@code information_schema} after every run ({@link SchemaFact}). Touches nothing.
 *
 * @param scenario   the scenario's name on the command line ({@code --only}); the report shows it with a space
 * @param sql        what follows {@code ALTER TABLE orders}, for us, pt-online-schema-change and the lower bound
 * @param effect     what the ALTER makes the tools do, for the report
 * @param schema     what holds once it has run
 * @param instant    whether the coordinator applies it with {@code ALGORITHM=INSTANT} (no cut-over to measure)
 * @param lowerBound the {@code ALGORITHM} of the server's own ALTER run once per scenario as the lower bound
 */
record DdlAlter(String scenario, String sql, String effect, List<SchemaFact> schema, boolean instant,
                String lowerBound) {

    /** The ddl scenario's ALTER: a column type change (a full table copy) and an index. */
    static final DdlAlter TYPE_CHANGE = new DdlAlter("ddl",
            "MODIFY amount DECIMAL(14,2) NOT NULL, ADD INDEX k_amount (k, amount)",
            "the column's type changes: every tool copies the table",
            List.of(column("amount", "decimal(14,2)"), index("k_amount", "k,amount")), false, "COPY");

    /** The ddl-instant scenario's ALTER: a nullable column at the end, which MariaDB adds without a copy. */
    static final DdlAlter ADD_COLUMN = new DdlAlter("ddl-instant",
            "ADD COLUMN note VARCHAR(32) NULL",
            "a nullable column added at the end: MariaDB can run it with ALGORITHM=INSTANT, so the coordinator runs"
                    + " it directly (ddl.prefer.instant, default true); pt-online-schema-change copies the table as"
                    + " for any ALTER",
            List.of(column("note", "varchar(32)")), true, "INSTANT");

    /** The scenario's name in the report: {@code ddl}, {@code ddl instant}. */
    String reportName() {
        return scenario.replace('-', ' ');
    }

    /** The scenario's name in database, connector and Connect cluster names: {@code ddl}, {@code ddl_instant}. */
    String hint() {
        return scenario.replace('-', '_');
    }

    /** The schema it makes, for the report: "column amount decimal(14,2), index k_amount (k,amount)". */
    String schemaDescription() {
        return schema.stream().map(SchemaFact::toString).collect(Collectors.joining(", "));
    }

    /** The lower bound's statement: {@code ALTER TABLE orders <sql>, ALGORITHM=<lowerBound>}. */
    String lowerBoundStatement() {
        return "ALTER TABLE " + DdlTable.TABLE + " " + sql + ", ALGORITHM=" + lowerBound;
    }

    /** The lower bound's name in the report: {@code ALTER TABLE ... ALGORITHM=COPY}. */
    String lowerBoundName() {
        return "ALTER TABLE ... ALGORITHM=" + lowerBound;
    }
}
