package io.vstream.connect.coordinator.copy;

import io.vstream.connect.core.error.Backoff;
import io.vstream.connect.core.error.ErrorClassifier;
import io.vstream.connect.core.error.ServerErrors;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the ghost's keys that were deferred until after the copy ({@link DeferredIndexes}), on one shard, once every
 * key range is copied: one online {@code ALTER TABLE ... ADD KEY ...} on its own connection, retried (from what the
 * ghost has) after a lost connection or a lock timeout. A ghost whose definition then differs from the ALTER's, or a
 * key the server refuses, fails the copy; {@link #kill()} stops a build in flight (cancel, stop).
 */
final class KeyBuild {
    private static final Logger LOG = LoggerFactory.getLogger(KeyBuild.class);
    private static final long MAX_BACKOFF_MS = 10_000;

    private final GhostCopier copier;
    private volatile long connectionId = -1;

    KeyBuild(GhostCopier copier) {
        this.copier = copier;
    }

    void run() {
        Backoff backoff = new Backoff(100, MAX_BACKOFF_MS);
        copier.building(this);
        try {
            while (!copier.stopped()) {
                try (Connection c = copier.connections().open()) {
                    List<String> keys = DeferredIndexes.pending(c, copier.stateDb(), copier.plan().migration());
                    if (keys.isEmpty()) {
                        return;
                    }
                    connectionId = connectionId(c);
                    LOG.info("Migration {}: shard {}: every key range is copied; building the {} key(s) deferred"
                            + " until now on {}", copier.plan().migration(), copier.shard(), keys.size(),
                            copier.plan().ghostTable());
                    long started = System.nanoTime();
                    int added = DeferredIndexes.restore(c, copier.stateDb(), copier.plan().migration(),
                            copier.plan().database(), copier.plan().ghostTable());
                    LOG.info("Migration {}: shard {}: {} key(s) built on {} in {} ms; the ghost has the ALTER's"
                            + " definition", copier.plan().migration(), copier.shard(), added,
                            copier.plan().ghostTable(), (System.nanoTime() - started) / 1_000_000);
                    return;
                } catch (DeferredIndexes.DefinitionMismatch e) {
                    copier.fail(e.getMessage() + "; the original table is untouched: cancel, then start the"
                            + " migration again with ddl.copy.defer.indexes=false (and report this)");
                    return;
                } catch (SQLException e) {
                    if (copier.stopped()) {
                        return;
                    }
                    if (!ErrorClassifier.isRetriable(e) && e.getErrorCode() != ServerErrors.LOCK_WAIT_TIMEOUT) {
                        copier.fail("the server refused the keys deferred until after the copy on "
                                + copier.plan().ghostTable() + ": " + e.getMessage() + " (error " + e.getErrorCode()
                                + "); the original table is untouched: cancel, then start the migration again with"
                                + " ddl.copy.defer.indexes=false");
                        return;
                    }
                    long wait = backoff.failed();
                    LOG.warn("Migration {}: shard {}: building the deferred keys failed ({}); retrying in {} ms",
                            copier.plan().migration(), copier.shard(), e.toString(), wait);
                    try {
                        Thread.sleep(wait);
                    } catch (InterruptedException ie) {
                        return;
                    }
                } finally {
                    connectionId = -1;
                }
            }
        } finally {
            copier.building(null);
        }
    }

    /** Kills the build's statement on the server, if one runs (the ALTER rolls back; the ghost keeps what it had). */
    void kill() {
        long id = connectionId;
        if (id < 0) {
            return;
        }
        try (Connection c = copier.connections().open(); Statement st = c.createStatement()) {
            st.execute("KILL QUERY " + id);
        } catch (SQLException e) {
            LOG.warn("Migration {}: shard {}: could not stop the key build on connection {} ({})",
                    copier.plan().migration(), copier.shard(), id, e.toString());
        }
    }

    private static long connectionId(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
