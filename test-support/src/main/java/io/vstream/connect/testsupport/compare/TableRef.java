package io.vstream.connect.testsupport.compare;

import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;

/**
 * One side of a comparison: a connection (owned by the caller) and a table in a database on that server.
 *
 * @param connection the connection to read with; not closed by the comparator
 * @param database   the database (schema) of the table
 * @param table      the table name
 */
public record TableRef(Connection connection, String database, String table) {

    /** The quoted, qualified name, e.g. {@code `db`.`t`}. */
    public String qualified() {
        return quote(database) + "." + quote(table);
    }

    /** Quotes an identifier with backticks. To switch to {@code io.vstream.connect.core.sql.SqlIdentifiers.quote}. */
    static String quote(String identifier) {
        return SqlIdentifiers.quote(identifier);
    }

    @Override
    public String toString() {
        return qualified();
    }
}
