package io.vstream.connect.bench;

import io.vstream.connect.testsupport.db.MariaDbServer;
import java.util.Objects;

/**
 * One thing the stress command or a ddl scenario expects of the table's schema on a shard, read from
 * {@code information_schema}: a column's type ({@code COLUMN_TYPE}, e.g. {@code decimal(14,2)}) or its absence, an
 * index's columns (in order, comma-separated) or its absence. The stress checks an ALTER's facts after its migration
 * (the new schema took effect) and before it (the ALTER applies to the table as it is); the ddl scenarios check their
 * {@link DdlAlter}'s facts after every run. Reads the shard's server only.
 *
 * @param kind     a column or an index
 * @param name     the column's or the index's name
 * @param expected the column's type or the index's columns, or null for "absent"
 */
record SchemaFact(Kind kind, String name, String expected) {
    enum Kind {
        COLUMN, INDEX
    }

    static SchemaFact column(String name, String type) {
        return new SchemaFact(Kind.COLUMN, name, type);
    }

    static SchemaFact noColumn(String name) {
        return new SchemaFact(Kind.COLUMN, name, null);
    }

    static SchemaFact index(String name, String columns) {
        return new SchemaFact(Kind.INDEX, name, columns);
    }

    static SchemaFact noIndex(String name) {
        return new SchemaFact(Kind.INDEX, name, null);
    }

    /** What the shard has: the column's type or the index's columns, or null when absent. */
    String actual(MariaDbServer server, String database, String table) {
        String found = kind == Kind.COLUMN
                ? server.queryString(database, "SELECT /* vstream bench: schema check */ MAX(COLUMN_TYPE)"
                        + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND"
                        + " COLUMN_NAME = ?", database, table, name)
                : server.queryString(database, "SELECT /* vstream bench: schema check */ GROUP_CONCAT("
                        + "COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS WHERE"
                        + " TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = ?", database, table, name);
        return found == null || found.isEmpty() ? null : found;
    }

    /** Null when the fact holds on the shard, else what is there instead ("column v is varchar(64)"). */
    String check(MariaDbServer server, String database, String table) {
        String actual = actual(server, database, table);
        if (Objects.equals(actual, expected)) {
            return null;
        }
        String what = kind == Kind.COLUMN ? "column " + name : "index " + name;
        return what + " is " + (actual == null ? "absent" : kind == Kind.COLUMN ? actual : "(" + actual + ")")
                + ", expected " + this;
    }

    @Override
    public String toString() {
        String what = kind == Kind.COLUMN ? "column " + name : "index " + name;
        return expected == null ? "no " + what : what + (kind == Kind.COLUMN ? " " + expected : " (" + expected + ")");
    }
}
