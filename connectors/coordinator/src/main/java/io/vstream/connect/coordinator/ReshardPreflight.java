package io.vstream.connect.coordinator;

import io.vstream.connect.core.keyrange.KeyRange;
import io.vstream.connect.core.keyrange.KeyRanges;
import io.vstream.connect.jdbc.BinlogSettings;
import io.vstream.connect.jdbc.InformationSchema;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The reshard's checks before anything moves, each naming its fix: the new shards cover exactly the key space of the
 * old ones, every table of the keyspace has a sharding column that exists, and the new shards hold none of the
 * keyspace's rows yet. Reads the shards only.
 */
final class ReshardPreflight {
    private ReshardPreflight() {
    }

    /** The config-only checks, reported on their fields by {@code validate()}. */
    static void validateConfig(Map<String, String> props, Map<String, ConfigValue> values) {
        List<KeyRange> old = ranges(props.get(VStreamCoordinatorConnectorConfig.SHARDS),
                values.get(VStreamCoordinatorConnectorConfig.SHARDS));
        List<KeyRange> next = ranges(props.get(VStreamCoordinatorConnectorConfig.RESHARD_TARGET_SHARDS),
                values.get(VStreamCoordinatorConnectorConfig.RESHARD_TARGET_SHARDS));
        if (old == null || next == null) {
            return;
        }
        for (String p : coverageProblems(old, next)) {
            values.get(VStreamCoordinatorConnectorConfig.RESHARD_TARGET_SHARDS).addErrorMessage(p);
        }
        String columns = props.get(VStreamCoordinatorConnectorConfig.RESHARD_COLUMNS);
        if (columns != null && !columns.isBlank()) {
            for (String e : columns.split(",")) {
                int colon = e.indexOf(':');
                if (colon <= 0 || colon == e.strip().length() - 1) {
                    values.get(VStreamCoordinatorConnectorConfig.RESHARD_COLUMNS).addErrorMessage("'" + e.strip()
                            + "' must be <table>:<column>, e.g. orders:customer_id");
                }
            }
        }
    }

    private static List<KeyRange> ranges(String list, ConfigValue value) {
        if (list == null || list.isBlank()) {
            return null;
        }
        List<KeyRange> out = new ArrayList<>();
        for (String e : list.split(",")) {
            int eq = e.indexOf('=');
            try {
                out.add(KeyRange.parse(eq > 0 ? e.substring(0, eq).strip() : e.strip()));
            } catch (IllegalArgumentException ex) {
                value.addErrorMessage("'" + e.strip() + "': " + ex.getMessage());
                return null;
            }
        }
        return out;
    }

    /** Overlaps within each side, and space one side covers that the other does not. */
    static List<String> coverageProblems(List<KeyRange> old, List<KeyRange> next) {
        List<String> problems = new ArrayList<>();
        problems.addAll(overlaps("old shards", old));
        problems.addAll(overlaps("new shards", next));
        for (String p : KeyRanges.sameSpaceProblems("the old shards", old, "the new shards", next)) {
            problems.add(p + ": the new shards must cover exactly the old shards' key ranges");
        }
        return problems;
    }

    private static List<String> overlaps(String label, List<KeyRange> ranges) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            for (int j = i + 1; j < ranges.size(); j++) {
                if (ranges.get(i).intersects(ranges.get(j))) {
                    out.add(label + " " + ranges.get(i) + " and " + ranges.get(j) + " overlap");
                }
            }
        }
        return out;
    }

    /**
     * The server checks; {@code applierStarted} skips the emptiness check (the applier's own rows are expected then).
     */
    static List<String> check(VStreamCoordinatorConnectorConfig config, Map<String, Connection> old,
                              Map<String, Connection> next, boolean applierStarted) throws SQLException {
        List<String> problems = new ArrayList<>(coverageProblems(
                old.keySet().stream().map(KeyRange::parse).toList(), next.keySet().stream().map(KeyRange::parse).toList()));
        String db = config.reshardDatabase();
        Map<String, String> columns = config.reshardColumns();
        String fallback = config.reshardColumnDefault();
        for (Map.Entry<String, Connection> e : old.entrySet()) {
            problems.addAll(WorkflowGrants.problems(e.getValue(), "old shard " + e.getKey(),
                    WorkflowGrants.reshardShard(db, config.stateDatabase())));
        }
        for (Map.Entry<String, Connection> e : next.entrySet()) {
            problems.addAll(WorkflowGrants.problems(e.getValue(), "new shard " + e.getKey(),
                    WorkflowGrants.reshardShard(db, config.stateDatabase())));
        }
        for (Map.Entry<String, Connection> e : old.entrySet()) {
            for (String p : BinlogSettings.problems(e.getValue())) {
                problems.add("old shard " + e.getKey() + ": " + p);
            }
            List<String> tables = tables(e.getValue(), db);
            if (tables.isEmpty()) {
                problems.add("old shard " + e.getKey() + " has no tables in database '" + db + "': check"
                        + " reshard.database");
            }
            for (String t : tables) {
                String column = columns.getOrDefault(t, fallback);
                if (column == null) {
                    problems.add("table " + db + "." + t + " has no sharding column: add " + t + ":<column> to"
                            + " reshard.columns (here and in the sink), or set reshard.column.default");
                } else if (!InformationSchema.hasColumn(e.getValue(), db, t, column)) {
                    problems.add("table " + db + "." + t + " on old shard " + e.getKey() + " has no column '" + column
                            + "' (its sharding column): fix reshard.columns");
                }
            }
            String version = Servers.string(e.getValue(), "SELECT VERSION()");
            if (version == null || !version.toLowerCase(java.util.Locale.ROOT).contains("mariadb")) {
                problems.add("old shard " + e.getKey() + " runs " + version + ": this version switches MariaDB"
                        + " shards only (positions are read from gtid_binlog_pos)");
            }
        }
        if (!applierStarted) {
            for (Map.Entry<String, Connection> e : next.entrySet()) {
                for (String t : tables(e.getValue(), db)) {
                    if (hasRows(e.getValue(), db, t)) {
                        problems.add("new shard " + e.getKey() + " already holds rows in " + db + "." + t + ": a"
                                + " reshard fills empty shards; empty it (or drop the database) first");
                    }
                }
            }
        }
        return problems;
    }

    static List<String> tables(Connection c, String db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT table_name FROM information_schema.tables"
                + " WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY table_name")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static boolean hasRows(Connection c, String db, String table) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1 FROM " + SqlIdentifiers.qualify(db, table) + " LIMIT 1")) {
            return rs.next();
        }
    }
}
