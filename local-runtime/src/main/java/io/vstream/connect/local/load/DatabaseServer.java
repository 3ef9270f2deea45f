package io.vstream.connect.local.load;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A server a {@link WriteLoad} writes to, as its {@link Target} reaches it: a new connection with a database selected
 * (the tests' {@code MariaDbServer}, the quickstart's shards). Its {@code toString()} names it in the load's messages.
 */
@FunctionalInterface
public interface DatabaseServer {

    /** A new connection to {@code database} on this server. */
    Connection connect(String database) throws SQLException;
}
