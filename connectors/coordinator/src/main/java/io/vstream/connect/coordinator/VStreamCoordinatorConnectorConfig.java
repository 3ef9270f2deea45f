package io.vstream.connect.coordinator;

import io.vstream.connect.core.config.TlsConfig;
import io.vstream.connect.core.sql.TlsSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

/**
 * The coordinator's configuration: which workflow it drives, the servers it talks to (the source shard, the target
 * and the applier's state there), the status topic, and the hand-off's knobs.
 */
public class VStreamCoordinatorConnectorConfig extends AbstractConfig {
    public static final String WORKFLOW = "workflow";
    public static final String WORKFLOW_NAME = "workflow.name";
    public static final String STATUS_TOPIC = "status.topic";
    public static final String SOURCE_HOST = "source.host";
    public static final String SOURCE_PORT = "source.port";
    public static final String SOURCE_USER = "source.user";
    public static final String SOURCE_PASSWORD = "source.password";
    public static final String TARGET_HOST = "target.host";
    public static final String TARGET_PORT = "target.port";
    public static final String TARGET_USER = "target.user";
    public static final String TARGET_PASSWORD = "target.password";
    public static final String STATE_DATABASE = "state.database";
    public static final String APPLIER_STREAM = "applier.stream";
    public static final String REPLICATION_HOST = "replication.source.host";
    public static final String REPLICATION_PORT = "replication.source.port";
    public static final String REPLICATION_USER = "replication.user";
    public static final String REPLICATION_PASSWORD = "replication.password";
    public static final String HANDOFF_POSTPONE = "handoff.postpone";
    public static final String READY_MAX_LAG_TRANSACTIONS = "ready.max.lag.transactions";
    public static final String STOP_TIMEOUT_MS = "handoff.stop.timeout.ms";
    public static final String FORCE = "preflight.force";
    public static final String POLL_INTERVAL_MS = "poll.interval.ms";
    public static final String WATCH_CONNECT_URL = "watch.connect.url";
    public static final String SERVER_RETRY_MAX_MS = "server.retry.max.ms";
    public static final String WATCH_CONNECTORS = "watch.connectors";
    public static final String WATCH_CONNECT_USER = "watch.connect.user";
    public static final String WATCH_CONNECT_PASSWORD = "watch.connect.password";
    public static final String CANCEL = "workflow.cancel";
    public static final String DIFF_REQUEST = "diff.request";
    public static final String DIFF_SLICE_MS = "diff.slice.ms";
    public static final String DIFF_CHUNK_ROWS = "diff.chunk.rows";
    public static final String SHARDS = "shards";
    public static final String DDL_DATABASE = "ddl.database";
    public static final String DDL_TABLE = "ddl.table";
    public static final String DDL_ALTER = "ddl.alter";
    public static final String DDL_MIGRATION = "ddl.migration";
    public static final String DDL_ALLOW_NEW_UNIQUE = "ddl.allow.new.unique.key";
    public static final String DDL_GHOST_FORMAT = "ddl.ghost.name.format";
    public static final String DDL_PREFER_INSTANT = "ddl.prefer.instant";
    public static final String DDL_REVERT_WINDOW_MS = "ddl.revert.window.ms";
    public static final String DDL_REVERT_RELEASE = "ddl.revert.release";
    public static final String DDL_REVERT = "ddl.revert";
    public static final String DDL_REVERT_DROP = "ddl.revert.drop.on.release";
    public static final String DDL_COPY_METHOD = "ddl.copy.method";
    public static final String DDL_COPY_START = "ddl.copy.start";
    public static final String DDL_COPY_THREADS = "ddl.copy.threads";
    public static final String DDL_COPY_CHUNK_TARGET_MS = "ddl.copy.chunk.target.ms";
    public static final String DDL_COPY_CHUNK_MAX_ROWS = "ddl.copy.chunk.max.rows";
    public static final String DDL_COPY_MAX_ROWS_PER_SECOND = "ddl.copy.max.rows.per.second";
    public static final String DDL_COPY_PAUSED = "ddl.copy.paused";
    public static final String DDL_COPY_DEFER_INDEXES = "ddl.copy.defer.indexes";
    public static final String THROTTLE_REPLICAS = "throttle.replicas";
    public static final String THROTTLE_MAX_REPLICA_LAG_MS = "throttle.max.replica.lag.ms";
    public static final String CUTOVER_MODE = "cutover.mode";
    public static final String CUTOVER_LOCK_TIMEOUT_MS = "cutover.lock.timeout.ms";
    public static final String CUTOVER_MAX_ATTEMPTS = "cutover.max.attempts";
    public static final String CUTOVER_TEST_CRASH_AT_STEP = "cutover.test.crash.at.step";
    public static final String THROTTLE_MAX_APPLIER_LAG_MS = "throttle.max.applier.lag.ms";
    public static final String READY_MAX_LAG_MS = "ready.max.lag.ms";
    public static final String RESHARD_KEYSPACE = "reshard.keyspace";
    public static final String RESHARD_DATABASE = "reshard.database";
    public static final String RESHARD_TARGET_SHARDS = "reshard.target.shards";
    public static final String RESHARD_VINDEX = "reshard.vindex";
    public static final String RESHARD_COLUMNS = "reshard.columns";
    public static final String RESHARD_COLUMN_DEFAULT = "reshard.column.default";

    public static final ConfigDef CONFIG_DEF = CoordinatorConfigDef.build();

    public VStreamCoordinatorConnectorConfig(Map<?, ?> props) {
        super(CONFIG_DEF, props);
    }

    public String workflowName(String connectorName) {
        String n = getString(WORKFLOW_NAME);
        return n == null || n.isBlank() ? connectorName : n;
    }

    public String statusTopic() {
        return getString(STATUS_TOPIC);
    }

    /** TLS to the source's servers, the shards and their replicas ({@code source.ssl.*}). */
    public TlsSettings sourceTls() {
        return TlsConfig.read(this, "source.");
    }

    public Endpoint source() {
        return new Endpoint(getString(SOURCE_HOST), getInt(SOURCE_PORT), getString(SOURCE_USER),
                getPassword(SOURCE_PASSWORD), sourceTls());
    }

    public Endpoint target() {
        return new Endpoint(getString(TARGET_HOST), getInt(TARGET_PORT), getString(TARGET_USER),
                getPassword(TARGET_PASSWORD), TlsConfig.read(this, "target."));
    }

    /** The source as the target's replication connects to it, with the replication user. */
    public Endpoint replication() {
        String host = getString(REPLICATION_HOST);
        int port = getInt(REPLICATION_PORT);
        return new Endpoint(host == null || host.isBlank() ? getString(SOURCE_HOST) : host,
                port == 0 ? getInt(SOURCE_PORT) : port, getString(REPLICATION_USER), getPassword(REPLICATION_PASSWORD),
                sourceTls());
    }

    public String stateDatabase() {
        return getString(STATE_DATABASE);
    }

    public String applierStream() {
        return getString(APPLIER_STREAM);
    }

    public boolean postponed() {
        return getBoolean(HANDOFF_POSTPONE);
    }

    public long readyMaxLag() {
        return getLong(READY_MAX_LAG_TRANSACTIONS);
    }

    public Duration stopTimeout() {
        return Duration.ofMillis(getLong(STOP_TIMEOUT_MS));
    }

    public boolean force() {
        return getBoolean(FORCE);
    }

    WorkflowType workflowType() {
        return WorkflowType.of(getString(WORKFLOW));
    }

    public boolean cancelled() {
        return getBoolean(CANCEL);
    }

    /** The on-demand diff asked for ({@code diff.request}), or null when none. */
    public String diffRequest() {
        String r = getString(DIFF_REQUEST);
        return r == null || r.isBlank() ? null : r.strip();
    }

    public Duration diffSlice() {
        return Duration.ofMillis(getLong(DIFF_SLICE_MS));
    }

    public int diffChunkRows() {
        return getInt(DIFF_CHUNK_ROWS);
    }

    /** Online DDL, reshard (the old shards): each shard's name and server, with the source credentials. */
    public java.util.LinkedHashMap<String, Endpoint> shards() {
        return parseShards(SHARDS);
    }

    private java.util.LinkedHashMap<String, Endpoint> parseShards(String key) {
        java.util.LinkedHashMap<String, Endpoint> out = new java.util.LinkedHashMap<>();
        for (String e : getList(key)) {
            io.vstream.connect.core.topology.ShardAddress a;
            try {
                a = io.vstream.connect.core.topology.ShardAddress.parse(e);
            } catch (IllegalArgumentException ex) {
                throw new org.apache.kafka.common.config.ConfigException(key, e, ex.getMessage());
            }
            out.put(a.name(), new Endpoint(a.host(), a.port(), getString(SOURCE_USER), getPassword(SOURCE_PASSWORD),
                    sourceTls()));
        }
        return out;
    }

    public String ddlDatabase() {
        return getString(DDL_DATABASE);
    }

    public String ddlTable() {
        return getString(DDL_TABLE);
    }

    public String ddlAlter() {
        return getString(DDL_ALTER);
    }

    public String ddlMigration(String workflowName) {
        String m = getString(DDL_MIGRATION);
        return m == null || m.isBlank() ? workflowName : m;
    }

    public boolean allowNewUniqueKey() {
        return getBoolean(DDL_ALLOW_NEW_UNIQUE);
    }

    public boolean preferInstant() {
        return getBoolean(DDL_PREFER_INSTANT);
    }

    /**
     * How long after the cut-over the reverse stream keeps the original equal to the new table (ddl.revert.window.ms);
     * zero: no reverse stream, the migration completes at the swap.
     */
    public Duration revertWindow() {
        return Duration.ofMillis(getLong(DDL_REVERT_WINDOW_MS));
    }

    /** Whether the operator ended the revert window early (ddl.revert.release, `vsc release`). */
    public boolean revertReleased() {
        return getBoolean(DDL_REVERT_RELEASE);
    }

    /** Whether releasing the window also drops the tables that no longer serve (`vsc release --drop`). */
    public boolean revertDropOnRelease() {
        return getBoolean(DDL_REVERT_DROP);
    }

    /** Whether the operator asked to swap the original tables back (ddl.revert, `vsc revert`). */
    public boolean revertRequested() {
        return getBoolean(DDL_REVERT);
    }

    /** Whether the server copy builds the ghost's plain secondary keys after the copy (ddl.copy.defer.indexes). */
    boolean deferIndexes() {
        return getBoolean(DDL_COPY_DEFER_INDEXES);
    }

    /** Whether the coordinator fills the ghost on each shard itself (ddl.copy.method=server). */
    public boolean serverCopy() {
        return "server".equalsIgnoreCase(getString(DDL_COPY_METHOD));
    }

    /**
     * Whether the server copy starts right after the ghost tables are created, from the position the coordinator
     * records on each shard (ddl.copy.start=at-once; the source starts there with start.mode=migration), rather than
     * once each shard's applier has recorded its first position.
     */
    public boolean copyStartsAtOnce() {
        return serverCopy() && "at-once".equalsIgnoreCase(getString(DDL_COPY_START));
    }

    public io.vstream.connect.coordinator.copy.GhostCopySettings ghostCopy() {
        return new io.vstream.connect.coordinator.copy.GhostCopySettings(getInt(DDL_COPY_THREADS),
                Duration.ofMillis(getLong(DDL_COPY_CHUNK_TARGET_MS)), getInt(DDL_COPY_CHUNK_MAX_ROWS),
                getLong(DDL_COPY_MAX_ROWS_PER_SECOND));
    }

    /** Whether the operator holds the server copy (ddl.copy.paused). */
    public boolean copyPaused() {
        return getBoolean(DDL_COPY_PAUSED);
    }

    /** The replicas whose lag holds the server copy back, reached with the source account. */
    public List<Endpoint> throttleReplicas() {
        List<Endpoint> out = new java.util.ArrayList<>();
        for (String r : getList(THROTTLE_REPLICAS)) {
            if (!r.isBlank()) {
                io.vstream.connect.core.topology.ShardAddress a = io.vstream.connect.core.topology.ShardAddress.parse(
                        "-=" + r.strip());
                out.add(new Endpoint(a.host(), a.port(), getString(SOURCE_USER), getPassword(SOURCE_PASSWORD),
                        sourceTls()));
            }
        }
        return out;
    }

    public Duration throttleMaxReplicaLag() {
        return Duration.ofMillis(getLong(THROTTLE_MAX_REPLICA_LAG_MS));
    }

    public String ghostName(String table) {
        return getString(DDL_GHOST_FORMAT).replace("${table}", table);
    }

    public boolean cutOverAllAtOnce() {
        return "all-at-once".equalsIgnoreCase(getString(CUTOVER_MODE));
    }

    public Duration cutOverLockTimeout() {
        return Duration.ofMillis(getLong(CUTOVER_LOCK_TIMEOUT_MS));
    }

    public Duration throttleMaxApplierLag() {
        return Duration.ofMillis(getLong(THROTTLE_MAX_APPLIER_LAG_MS));
    }

    public Duration serverRetryMax() {
        return Duration.ofMillis(getLong(SERVER_RETRY_MAX_MS));
    }

    public List<String> watchUrls() {
        return getList(WATCH_CONNECT_URL);
    }

    public List<String> watchConnectors() {
        return getList(WATCH_CONNECTORS);
    }

    /** The {@code Authorization} header value for the watch's REST calls, or null without a user. */
    public String watchAuthorization() {
        String user = getString(WATCH_CONNECT_USER);
        if (user == null || user.isBlank()) {
            return null;
        }
        String password = getPassword(WATCH_CONNECT_PASSWORD) == null ? "" : getPassword(WATCH_CONNECT_PASSWORD).value();
        return "Basic " + java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public Duration readyMaxLagTime() {
        return Duration.ofMillis(getLong(READY_MAX_LAG_MS));
    }

    public int testCrashAtStep() {
        return getInt(CUTOVER_TEST_CRASH_AT_STEP);
    }

    public int cutOverMaxAttempts() {
        return getInt(CUTOVER_MAX_ATTEMPTS);
    }

    public String reshardKeyspace() {
        return getString(RESHARD_KEYSPACE);
    }

    public String reshardDatabase() {
        return getString(RESHARD_DATABASE);
    }

    /**
     * Reshard: each new shard's name and server, with the target credentials and TLS (the source's when no
     * target.user is set).
     */
    public java.util.LinkedHashMap<String, Endpoint> reshardTargets() {
        String user = getString(TARGET_USER);
        boolean own = user != null && !user.isBlank();
        java.util.LinkedHashMap<String, Endpoint> out = new java.util.LinkedHashMap<>();
        for (java.util.Map.Entry<String, Endpoint> e : parseShards(RESHARD_TARGET_SHARDS).entrySet()) {
            Endpoint s = e.getValue();
            out.put(e.getKey(), new Endpoint(s.host(), s.port(), own ? user : getString(SOURCE_USER),
                    own ? getPassword(TARGET_PASSWORD) : getPassword(SOURCE_PASSWORD),
                    own ? TlsConfig.read(this, "target.") : sourceTls()));
        }
        return out;
    }

    public String reshardVindex() {
        return getString(RESHARD_VINDEX);
    }

    /** Reshard: table -> sharding column, from reshard.columns. */
    public java.util.Map<String, String> reshardColumns() {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String e : getList(RESHARD_COLUMNS)) {
            int colon = e.indexOf(':');
            if (colon <= 0 || colon == e.length() - 1) {
                throw new org.apache.kafka.common.config.ConfigException(RESHARD_COLUMNS, e,
                        "must be <table>:<column>, e.g. orders:customer_id");
            }
            out.put(e.substring(0, colon).strip(), e.substring(colon + 1).strip());
        }
        return out;
    }

    public String reshardColumnDefault() {
        String c = getString(RESHARD_COLUMN_DEFAULT);
        return c == null || c.isBlank() ? null : c.strip();
    }

    public Duration pollInterval() {
        return Duration.ofMillis(getLong(POLL_INTERVAL_MS));
    }

    /** A server and the credentials to use there (the password is never logged). */
    public record Endpoint(String host, int port, String user, Password password, TlsSettings tls) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }
}
