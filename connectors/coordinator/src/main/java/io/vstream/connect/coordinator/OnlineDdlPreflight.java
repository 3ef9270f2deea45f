package io.vstream.connect.coordinator;

import io.vstream.connect.jdbc.BinlogSettings;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The online DDL's checks of one shard before anything is created on it (no ghost table, no {@code _vstream}
 * database): the binlog can be streamed ({@link BinlogSettings}, the source's own check), the table exists and is
 * transactional, and an {@code ENGINE} the ALTER names is transactional too (the applier commits each change with
 * its position in one transaction; a MyISAM ghost would lose that). Each problem names the shard and the fix.
 * Touches the shard (reads).
 */
final class OnlineDdlPreflight {
    private static final Pattern ENGINE = Pattern.compile("(?i)(?<![A-Za-z0-9_`])ENGINE\\s*=?\\s*`?([A-Za-z0-9_]+)`?");

    private OnlineDdlPreflight() {
    }

    /** The problems of {@code shard}; empty when the migration may create its ghost there. */
    static List<String> check(Connection c, String shard, String database, String table, String alter)
            throws SQLException {
        List<String> problems = new ArrayList<>();
        for (String p : BinlogSettings.problems(c)) {
            problems.add("shard " + shard + ": " + p);
        }
        String engine = tableEngine(c, database, table);
        if (engine == null) {
            problems.add("shard " + shard + ": table " + database + "." + table + " does not exist (or the"
                    + " coordinator's user may not see it: grant it SELECT on " + database + ")");
        } else if (!transactional(c, engine).orElse(false)) {
            problems.add("shard " + shard + ": table " + database + "." + table + " uses " + engine + ", which is"
                    + " not transactional: online DDL needs InnoDB (convert it first, with the server's own ALTER)");
        }
        Optional<String> named = namedEngine(alter);
        // an engine the server does not know is not ours to judge (a column named "engine", or a typo the server
        // itself refuses when it creates the ghost)
        if (named.isPresent() && !transactional(c, named.get()).orElse(true)) {
            problems.add("shard " + shard + ": the ALTER asks for ENGINE=" + named.get() + ", which is not"
                    + " transactional on this server: the ghost table must be InnoDB (the applier commits each"
                    + " change with its position in one transaction); change the engine with a plain ALTER instead");
        }
        return problems;
    }

    /** The engine an {@code ENGINE=...} clause of the ALTER names, if any. No I/O. */
    static Optional<String> namedEngine(String alter) {
        Matcher m = ENGINE.matcher(alter == null ? "" : alter);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static String tableEngine(Connection c, String database, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag("coordinator", "SELECT ENGINE FROM"
                + " information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"))) {
            ps.setString(1, database);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Whether the server's {@code engine} is transactional; empty when the server has no such engine. */
    private static Optional<Boolean> transactional(Connection c, String engine) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlTag.tag("coordinator", "SELECT TRANSACTIONS FROM"
                + " information_schema.ENGINES WHERE UPPER(ENGINE) = ?"))) {
            ps.setString(1, engine.toUpperCase(Locale.ROOT));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of("YES".equalsIgnoreCase(rs.getString(1))) : Optional.empty();
            }
        }
    }
}
