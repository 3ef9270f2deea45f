package io.vstream.connect.sink;

import io.vstream.connect.core.config.RetryConfig;
import io.vstream.connect.core.config.TlsConfig;
import io.vstream.connect.core.vindex.Vindexes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The sink connector's configuration: the target server, how source tables map to target tables, where the applied
 * positions are kept, and how errors are retried.
 */
public class VStreamSinkConnectorConfig extends AbstractConfig {
    public static final String MODE = "mode";
    public static final String TARGET_TOPOLOGY = "target.topology";
    public static final String GHOST_MIGRATION = "ghost.migration";
    public static final String TARGET_HOST = "target.host";
    public static final String TARGET_PORT = "target.port";
    public static final String TARGET_USER = "target.user";
    public static final String TARGET_PASSWORD = "target.password";
    public static final String TARGET_DATABASE_FORMAT = "target.database.format";
    public static final String TARGET_TABLE_FORMAT = "target.table.format";
    public static final String TARGET_BINLOG = "target.binlog";
    public static final String STATE_DATABASE = "state.database";
    public static final String STREAM_NAME = "stream.name";
    public static final String TABLE_CREATE = "table.create";
    public static final String TABLE_ENGINE = "table.engine";
    public static final String DDL_APPLY = "ddl.apply";
    public static final String BATCH_MAX_ROWS = "batch.max.rows";
    public static final String CONNECT_TIMEOUT_MS = "connect.timeout.ms";
    public static final String RETRY_BACKOFF_INITIAL_MS = RetryConfig.BACKOFF_INITIAL_MS;
    public static final String RETRY_BACKOFF_MAX_MS = RetryConfig.BACKOFF_MAX_MS;
    public static final String RETRY_MAX_DURATION_MS = RetryConfig.MAX_DURATION_MS;
    public static final String RESHARD_VINDEX = "reshard.vindex";
    public static final String RESHARD_COLUMNS = "reshard.columns";
    public static final String RESHARD_COLUMN_DEFAULT = "reshard.column.default";

    private static final String GROUP_TARGET = "Target";
    private static final String GROUP_MAPPING = "Mapping";
    private static final String GROUP_STATE = "State";
    private static final String GROUP_ERRORS = "Errors";
    private static final String GROUP_RESHARD = "Reshard";

    /** What the sink applies the stream into. */
    public enum Mode {
        /** Every streamed table into a target server: tables created from the source's definitions, DDL replayed. */
        CLONE,
        /** One table into its ghost table on the same shard, through the migration's column mapping (online DDL). */
        GHOST,
        /** Every table into the new shards of a reshard: each row to the target shard whose key range owns it. */
        RESHARD;

        static final String DOC = "What the stream is applied into. 'clone': every table of the stream into the"
                + " target server, tables created from the source's definitions (see table.engine), DDL replayed, so"
                + " the target can later become a native replica (docs/clone.md). 'ghost': the rows of one table into"
                + " its ghost table on the same shard (target.topology), through the column mapping of the migration"
                + " (ghost.migration) that the online-DDL coordinator wrote there (docs/online-ddl.md). 'reshard':"
                + " every table into the new shards listed in target.topology, each row to the shard whose key range"
                + " holds its keyspace id (reshard.vindex of the sharding column, reshard.columns); each source shard's"
                + " log is applied to every new shard its key range overlaps (docs/sink.md, Reshard mode).";
    }

    /** Whether the target's own binlog records the applied writes. */
    public enum TargetBinlog {
        /** {@code SET SESSION sql_log_bin=0}: the target's binlog does not get GTIDs of ours (needed for a clone). */
        OFF,
        /** The applied writes are binlogged on the target with the target's GTIDs. */
        ON
    }

    public static final ConfigDef CONFIG_DEF = configDef();

    private static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        int o = 0;
        def.define(MODE, Type.STRING, "clone", ConfigDef.CaseInsensitiveValidString.in("clone", "ghost", "reshard"),
                Importance.HIGH, Mode.DOC, GROUP_TARGET, ++o, Width.SHORT, "Mode");
        def.define(TARGET_HOST, Type.STRING, "", Importance.HIGH,
                "The target MySQL/MariaDB server's host (unless target.topology names one per shard).", GROUP_TARGET, ++o, Width.MEDIUM,
                "Target host");
        def.define(TARGET_TOPOLOGY, Type.LIST, "", Importance.MEDIUM,
                "Per-shard targets, <shard>=<host>:<port> (the shard is the last part of a topic name): each partition"
                        + " is applied to its shard's server. Empty: every partition goes to target.host:target.port."
                        + " Ghost mode needs it (each shard's ghost table lives on that shard). Reshard mode needs it and"
                        + " lists the NEW shards, each a key range on its own server, e.g. -80=10.0.0.1:3306,"
                        + "80-=10.0.0.2:3306.", GROUP_TARGET, ++o,
                Width.LONG, "Target topology");
        def.define(GHOST_MIGRATION, Type.STRING, "", Importance.MEDIUM,
                "With mode=ghost: the migration id whose plan (table, ghost table, column mapping) the coordinator"
                        + " wrote into state.database.migrations on each shard. With a revert window"
                        + " (the coordinator's ddl.revert.window.ms) the applier goes on past the cut-over's swap,"
                        + " writing the new table's changes into the kept original through the migration's reverse"
                        + " plan.", GROUP_TARGET, ++o, Width.MEDIUM,
                "Ghost migration");
        def.define(TARGET_PORT, Type.INT, 3306, ConfigDef.Range.between(1, 65535), Importance.HIGH,
                "The target server's port.", GROUP_TARGET, ++o, Width.SHORT, "Target port");
        def.define(TARGET_USER, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "The user to write as. It needs ALL on the target databases and on state.database,"
                        + " and, with target.binlog=off, the privilege to set sql_log_bin (MariaDB: BINLOG ADMIN;"
                        + " MySQL: SYSTEM_VARIABLES_ADMIN).", GROUP_TARGET, ++o, Width.MEDIUM, "Target user");
        def.define(TARGET_PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The target user's password.", GROUP_TARGET,
                ++o, Width.MEDIUM, "Target password");
        def.define(TARGET_BINLOG, Type.STRING, "off", ConfigDef.CaseInsensitiveValidString.in("off", "on"),
                Importance.MEDIUM, "'off' (default): the applier's writes are not written to the target's binlog"
                        + " (SET SESSION sql_log_bin=0), so the target's GTID state stays clean and it can become a"
                        + " replica of the source at the exact applied position. 'on': they are, with the target's own"
                        + " GTIDs. Ghost and reshard modes always binlog (the ghost table and the new shards' rows must reach"
                        + " the shards' replicas).",
                GROUP_TARGET, ++o, Width.SHORT, "Target binlog");
        def.define(CONNECT_TIMEOUT_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(1_000), Importance.LOW,
                "How long to wait for the target to accept a connection.", GROUP_TARGET, ++o, Width.SHORT,
                "Connect timeout (ms)");
        o = TlsConfig.define(def, "target.", GROUP_TARGET, o, "the target server (every target.topology server)");
        o = 0;
        def.define(TARGET_DATABASE_FORMAT, Type.STRING, "${db}", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                "The target database of a source table: ${db} (the source database) and ${keyspace} are replaced.",
                GROUP_MAPPING, ++o, Width.MEDIUM, "Target database");
        def.define(TARGET_TABLE_FORMAT, Type.STRING, "${table}", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                "The target table of a source table: ${table} is replaced.", GROUP_MAPPING, ++o, Width.MEDIUM,
                "Target table");
        def.define(TABLE_CREATE, Type.BOOLEAN, true, Importance.MEDIUM,
                "Create a missing target table (and database) from the source's definition carried in FIELD records.",
                GROUP_MAPPING, ++o, Width.SHORT, "Create tables");
        def.define(TABLE_ENGINE, Type.STRING, "", Importance.MEDIUM,
                "With table.create: the storage engine of created tables (e.g. InnoDB), replacing the source's; empty"
                        + " keeps it. Exactly-once apply needs a transactional engine on the target.", GROUP_MAPPING,
                ++o, Width.SHORT, "Target storage engine");
        def.define(DDL_APPLY, Type.BOOLEAN, true, Importance.MEDIUM,
                "Replay the source's DDL statements (DDL records) on the target.", GROUP_MAPPING, ++o, Width.SHORT,
                "Apply DDL");
        def.define(BATCH_MAX_ROWS, Type.INT, 1000, ConfigDef.Range.atLeast(1), Importance.LOW,
                "The most row changes sent to the target in one batch.", GROUP_MAPPING, ++o, Width.SHORT,
                "Batch max rows");
        o = 0;
        def.define(STATE_DATABASE, Type.STRING, "_vstream", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                "The database on the target that holds the applied positions (table `applied`), written in the same"
                        + " transaction as the rows.", GROUP_STATE, ++o, Width.MEDIUM, "State database");
        def.define(STREAM_NAME, Type.STRING, "", Importance.LOW,
                "The name this stream's state is kept under; empty means the connector's name.", GROUP_STATE, ++o,
                Width.MEDIUM, "Stream name");
        o = 0;
        o = RetryConfig.define(def, GROUP_ERRORS, o, "retrying after a retriable target error (deadlock, lock wait"
                + " timeout, lost connection)", "How long retriable errors may go on before the task fails.");
        o = 0;
        def.define(RESHARD_VINDEX, Type.STRING, "hash", new VindexName(), Importance.MEDIUM,
                "With mode=reshard: the vindex that maps a row's sharding column value to its keyspace id, as Vitess"
                        + " computes it (" + String.join(", ", Vindexes.names()) + "). It must be the one the keyspace"
                        + " is sharded by, or rows land on the wrong shard.", GROUP_RESHARD, ++o, Width.SHORT,
                "Reshard vindex");
        def.define(RESHARD_COLUMNS, Type.LIST, "", new TableColumnList(), Importance.MEDIUM,
                "With mode=reshard: the sharding column of each table, as <table>:<column> (source table names),"
                        + " e.g. customer:customer_id,corder:customer_id. A row of a table listed neither here nor"
                        + " covered by reshard.column.default stops the task.", GROUP_RESHARD, ++o, Width.LONG,
                "Sharding columns");
        def.define(RESHARD_COLUMN_DEFAULT, Type.STRING, "", Importance.LOW,
                "With mode=reshard: the sharding column of the tables reshard.columns does not list (e.g. id);"
                        + " empty: every table must be listed.", GROUP_RESHARD, ++o, Width.SHORT,
                "Default sharding column");
        return def;
    }

    /** Accepts a vindex name {@link Vindexes#named} knows. */
    static final class VindexName implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                Vindexes.named((String) value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, "not a vindex this connector computes; set " + name
                        + " to one of " + Vindexes.names() + " (the vindex the keyspace is sharded by)");
            }
        }

        @Override
        public String toString() {
            return String.join(", ", Vindexes.names());
        }
    }

    /** Accepts a list of {@code <table>:<column>}, each table at most once. */
    static final class TableColumnList implements ConfigDef.Validator {
        @Override
        @SuppressWarnings("unchecked")
        public void ensureValid(String name, Object value) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (String entry : (List<String>) value) {
                int colon = entry.indexOf(':');
                if (colon <= 0 || colon == entry.length() - 1 || entry.indexOf(':', colon + 1) >= 0) {
                    throw new ConfigException(name, value, "'" + entry + "' is not <table>:<column>; write each"
                            + " table's sharding column as e.g. customer:customer_id");
                }
                String table = entry.substring(0, colon).strip();
                if (!seen.add(table)) {
                    throw new ConfigException(name, value, "table '" + table + "' is listed twice; give each table"
                            + " one sharding column");
                }
            }
        }

        @Override
        public String toString() {
            return "list of <table>:<column>";
        }
    }

    public VStreamSinkConnectorConfig(Map<?, ?> props) {
        super(CONFIG_DEF, props);
    }

    public Mode mode() {
        return Mode.valueOf(getString(MODE).toUpperCase(Locale.ROOT));
    }

    public String targetHost() {
        return getString(TARGET_HOST);
    }

    public int targetPort() {
        return getInt(TARGET_PORT);
    }

    public String targetUser() {
        return getString(TARGET_USER);
    }

    /** TLS to the target ({@code target.ssl.*}). */
    public io.vstream.connect.core.sql.TlsSettings targetTls() {
        return TlsConfig.read(this, "target.");
    }

    public Password targetPassword() {
        return getPassword(TARGET_PASSWORD);
    }

    public TargetBinlog targetBinlog() {
        return TargetBinlog.valueOf(getString(TARGET_BINLOG).toUpperCase(Locale.ROOT));
    }

    public Duration connectTimeout() {
        return Duration.ofMillis(getLong(CONNECT_TIMEOUT_MS));
    }

    public String targetDatabase(String sourceDb, String keyspace) {
        return getString(TARGET_DATABASE_FORMAT).replace("${db}", sourceDb).replace("${keyspace}", keyspace);
    }

    public String targetTable(String sourceTable) {
        return getString(TARGET_TABLE_FORMAT).replace("${table}", sourceTable);
    }

    public boolean tableCreate() {
        return getBoolean(TABLE_CREATE);
    }

    public String tableEngine() {
        return getString(TABLE_ENGINE).trim();
    }

    public boolean ddlApply() {
        return getBoolean(DDL_APPLY);
    }

    public int batchMaxRows() {
        return getInt(BATCH_MAX_ROWS);
    }

    public String stateDatabase() {
        return getString(STATE_DATABASE);
    }

    public String streamName(String connectorName) {
        String s = getString(STREAM_NAME);
        return s == null || s.isBlank() ? connectorName : s;
    }

    public Duration retryBackoffInitial() {
        return RetryConfig.backoffInitial(this);
    }

    public Duration retryBackoffMax() {
        return RetryConfig.backoffMax(this);
    }

    public Duration retryMaxDuration() {
        return RetryConfig.maxDuration(this);
    }

    /** The reshard vindex's name, normalised (see {@link Vindexes#named}). */
    public String reshardVindex() {
        return Vindexes.named(getString(RESHARD_VINDEX)).name();
    }

    /** The sharding column per source table, from reshard.columns. */
    public Map<String, String> reshardColumns() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String entry : getList(RESHARD_COLUMNS)) {
            int colon = entry.indexOf(':');
            out.put(entry.substring(0, colon).strip(), entry.substring(colon + 1).strip());
        }
        return out;
    }

    /** The sharding column of tables reshard.columns does not list; empty when there is none. */
    public String reshardColumnDefault() {
        return getString(RESHARD_COLUMN_DEFAULT).strip();
    }
}
