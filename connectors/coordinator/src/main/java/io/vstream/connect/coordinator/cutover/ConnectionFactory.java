package io.vstream.connect.coordinator.cutover;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens a new connection to one shard's primary, autocommit on, no default database needed. The cut-over opens
 * three at a time (the lock holder, the RENAME session and a control session) and closes every one it opened.
 */
@FunctionalInterface
public interface ConnectionFactory {

    /** A new connection; each call must return a distinct session. */
    Connection open() throws SQLException;
}
