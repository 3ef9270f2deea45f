package io.vstream.connect.coordinator;

import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.APPLIER_STREAM;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.CANCEL;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.CUTOVER_LOCK_TIMEOUT_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.CUTOVER_MAX_ATTEMPTS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.CUTOVER_MODE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.CUTOVER_TEST_CRASH_AT_STEP;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_ALLOW_NEW_UNIQUE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_ALTER;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_COPY_CHUNK_MAX_ROWS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_COPY_CHUNK_TARGET_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_COPY_DEFER_INDEXES;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_COPY_MAX_ROWS_PER_SECOND;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_COPY_METHOD;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_COPY_START;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_COPY_PAUSED;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_COPY_THREADS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_DATABASE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_GHOST_FORMAT;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_MIGRATION;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_PREFER_INSTANT;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_REVERT;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_REVERT_DROP;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_REVERT_RELEASE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_REVERT_WINDOW_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DDL_TABLE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DIFF_CHUNK_ROWS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DIFF_REQUEST;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.DIFF_SLICE_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.FORCE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.HANDOFF_POSTPONE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.POLL_INTERVAL_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.READY_MAX_LAG_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.READY_MAX_LAG_TRANSACTIONS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.REPLICATION_HOST;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.REPLICATION_PASSWORD;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.REPLICATION_PORT;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.REPLICATION_USER;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.RESHARD_COLUMNS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.RESHARD_COLUMN_DEFAULT;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.RESHARD_DATABASE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.RESHARD_KEYSPACE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.RESHARD_TARGET_SHARDS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.RESHARD_VINDEX;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.SERVER_RETRY_MAX_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.SHARDS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.SOURCE_HOST;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.SOURCE_PASSWORD;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.SOURCE_PORT;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.SOURCE_USER;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.STATE_DATABASE;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.STATUS_TOPIC;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.STOP_TIMEOUT_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.TARGET_HOST;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.TARGET_PASSWORD;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.TARGET_PORT;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.TARGET_USER;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.THROTTLE_MAX_APPLIER_LAG_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.THROTTLE_MAX_REPLICA_LAG_MS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.THROTTLE_REPLICAS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.WATCH_CONNECTORS;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.WATCH_CONNECT_PASSWORD;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.WATCH_CONNECT_URL;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.WATCH_CONNECT_USER;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.WORKFLOW;
import static io.vstream.connect.coordinator.VStreamCoordinatorConnectorConfig.WORKFLOW_NAME;

import io.vstream.connect.core.config.TlsConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The coordinator's configuration keys: their types, defaults, validators, groups and documentation, from which the
 * REST API validates a configuration and docs/reference/coordinator.md is generated ({@code ConfigReferenceTest}).
 * The names are {@link VStreamCoordinatorConnectorConfig}'s constants; the typed accessors live there too.
 */
final class CoordinatorConfigDef {
    private static final String GROUP_WORKFLOW = "Workflow";
    private static final String GROUP_SERVERS = "Servers";
    private static final String GROUP_HANDOFF = "Hand-off";
    private static final String GROUP_DDL = "Online DDL";
    private static final String GROUP_RESHARD = "Reshard";

    private CoordinatorConfigDef() {
    }

    static ConfigDef build() {
        ConfigDef def = new ConfigDef();
        int o = 0;
        def.define(WORKFLOW, Type.STRING, WorkflowType.CLONE.label(),
                ConfigDef.CaseInsensitiveValidString.in(WorkflowType.labels()), Importance.HIGH,
                "The workflow to drive. 'clone': wait until the applier (the sink in clone mode) has copied and"
                        + " caught up, stop it at an exact position, compare source and target by checksum there, and"
                        + " make the target a native replica of the source from that position (docs/clone.md)."
                        + " 'online-ddl': validate the ALTER, create the ghost table on every shard, wait until the"
                        + " applier (the sink in ghost mode) has copied and caught up, compare by checksum, and swap the"
                        + " tables atomically on every shard (docs/online-ddl.md). 'reshard': check that the new shards"
                        + " cover exactly the old ones and are empty, wait until the applier (the sink in reshard mode)"
                        + " has copied and caught up, then switch: make the old shards read-only, wait until every new"
                        + " shard holds everything up to each old shard's final position, and write the journal into"
                        + " every old and new shard (docs/reshard.md).", GROUP_WORKFLOW, ++o,
                Width.SHORT, "Workflow");
        def.define(WORKFLOW_NAME, Type.STRING, "", Importance.MEDIUM,
                "The workflow's name in status records and offsets; empty means the connector's name.",
                GROUP_WORKFLOW, ++o, Width.MEDIUM, "Workflow name");
        def.define(STATUS_TOPIC, Type.STRING, "vstream.status", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                "The topic that receives a record at every state change and every progress update (keyed by workflow"
                        + " name).", GROUP_WORKFLOW, ++o, Width.MEDIUM, "Status topic");
        def.define(APPLIER_STREAM, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "The applier's stream name (the sink connector's stream.name, by default its"
                        + " connector name), whose state and control rows the coordinator reads and writes.",
                GROUP_WORKFLOW, ++o, Width.MEDIUM, "Applier stream");
        def.define(STATE_DATABASE, Type.STRING, "_vstream", new ConfigDef.NonEmptyString(), Importance.LOW,
                "The applier's state.database on the target.", GROUP_WORKFLOW, ++o, Width.MEDIUM, "State database");
        def.define(CANCEL, Type.BOOLEAN, false, Importance.MEDIUM,
                "Set to true to cancel the workflow: the applier is retired and (online DDL) the ghost tables are"
                        + " dropped; the original tables are untouched. A completed workflow cannot be cancelled.",
                GROUP_WORKFLOW, ++o, Width.SHORT, "Cancel");
        def.define(POLL_INTERVAL_MS, Type.LONG, 1_000L, ConfigDef.Range.atLeast(100), Importance.LOW,
                "How often the coordinator looks at the workflow's progress.", GROUP_WORKFLOW, ++o, Width.SHORT,
                "Poll interval (ms)");
        def.define(DIFF_REQUEST, Type.STRING, "", Importance.LOW,
                "Set to a new value (any text; `vsc diff` sets a fresh one) to compare the workflow's target with its"
                        + " source on demand, at exact positions, chunk by chunk (docs/diff.md). The result, with the"
                        + " keys that differ, is in the status records (diff_* fields) and `vsc status`. A value the"
                        + " coordinator has already answered is not run again. Clone, online DDL and reshard"
                        + " workflows (a reshard compares each new shard with the old shards' rows of its key range:"
                        + " reshard.vindex and reshard.columns must then match the sink's).",
                GROUP_WORKFLOW, ++o, Width.MEDIUM, "Diff request");
        def.define(DIFF_SLICE_MS, Type.LONG, 2_000L, ConfigDef.Range.between(100, 600_000), Importance.LOW,
                "How long one slice of an on-demand diff compares while it holds the target at a position (the"
                        + " target's applier or replication waits meanwhile; the source's writes never do); the target"
                        + " runs again for poll.interval.ms between slices.",
                GROUP_WORKFLOW, ++o, Width.SHORT, "Diff slice (ms)");
        def.define(DIFF_CHUNK_ROWS, Type.INT, 5_000, ConfigDef.Range.between(100, 1_000_000), Importance.LOW,
                "Rows per chunk of an on-demand diff: each chunk is one checksum query per side, and a chunk that"
                        + " differs is compared row by row to name its keys (at most 10 per chunk).",
                GROUP_WORKFLOW, ++o, Width.SHORT, "Diff chunk rows");
        def.define(WATCH_CONNECT_URL, Type.LIST, "", Importance.MEDIUM,
                "The REST API of the Connect cluster that runs the workflow (one or more workers, e.g."
                        + " http://connect-1:8083), as the coordinator's worker reaches it. With watch.connectors,"
                        + " the coordinator asks it every few seconds how the workflow's connectors and tasks are: a"
                        + " FAILED one makes the workflow FAILED with the task's error (it goes on by itself once the"
                        + " task is restarted and runs), one that is paused, unassigned or restarting makes it STALLED."
                        + " Empty: not watched (a dead task then shows only as a workflow that makes no progress).",
                GROUP_WORKFLOW, ++o, Width.LONG, "Watch: Connect REST URL");
        def.define(WATCH_CONNECTORS, Type.LIST, "", Importance.MEDIUM,
                "The workflow's source and sink connectors, by name, that the coordinator watches through"
                        + " watch.connect.url.", GROUP_WORKFLOW, ++o, Width.LONG, "Watch: connectors");
        def.define(WATCH_CONNECT_USER, Type.STRING, "", Importance.LOW,
                "The basic-auth user of the Connect REST API, when it requires one (empty: no authentication).",
                GROUP_WORKFLOW, ++o, Width.MEDIUM, "Watch: REST user");
        def.define(WATCH_CONNECT_PASSWORD, Type.PASSWORD, "", Importance.LOW,
                "The basic-auth password of watch.connect.user.", GROUP_WORKFLOW, ++o, Width.MEDIUM,
                "Watch: REST password");
        o = 0;
        def.define(SERVER_RETRY_MAX_MS, Type.LONG, 300_000L, ConfigDef.Range.atLeast(1_000), Importance.MEDIUM,
                "How long the coordinator retries a server that fails (unreachable, restarting, lost connections),"
                        + " with a backoff that doubles up to 30 s, before the workflow fails with the last error. A"
                        + " server that refuses the coordinator's account (a wrong password, a missing grant) fails"
                        + " the workflow at once.", GROUP_SERVERS, ++o, Width.SHORT, "Server retry limit (ms)");
        def.define(SOURCE_HOST, Type.STRING, "", Importance.HIGH,
                "Clone: the source shard's server (the one the clone copies).", GROUP_SERVERS, ++o,
                Width.MEDIUM, "Source host");
        def.define(SOURCE_PORT, Type.INT, 3306, ConfigDef.Range.between(1, 65535), Importance.HIGH,
                "The source server's port.", GROUP_SERVERS, ++o, Width.SHORT, "Source port");
        def.define(SOURCE_USER, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "Clone: a source user with SELECT on the cloned databases (for the checksum) and"
                        + " REPLICATION CLIENT. Online DDL: the user on every shard that creates, compares, locks and"
                        + " renames the tables (SELECT, CREATE, ALTER, DROP, LOCK TABLES, INSERT on the database;"
                        + " PROCESS to see the cut-over's metadata lock).", GROUP_SERVERS, ++o, Width.MEDIUM, "Source user");
        def.define(SOURCE_PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The source user's password.", GROUP_SERVERS,
                ++o, Width.MEDIUM, "Source password");
        def.define(TARGET_HOST, Type.STRING, "", Importance.HIGH,
                "Clone: the clone target's server.", GROUP_SERVERS, ++o, Width.MEDIUM, "Target host");
        def.define(TARGET_PORT, Type.INT, 3306, ConfigDef.Range.between(1, 65535), Importance.HIGH,
                "The target server's port.", GROUP_SERVERS, ++o, Width.SHORT, "Target port");
        def.define(TARGET_USER, Type.STRING, "", Importance.HIGH, "Clone: a target user that may read the applier's state, write its control row and run the"
                        + " hand-off (REPLICATION SLAVE ADMIN / SUPER, and RESET MASTER rights).", GROUP_SERVERS, ++o,
                Width.MEDIUM, "Target user");
        def.define(TARGET_PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The target user's password.", GROUP_SERVERS,
                ++o, Width.MEDIUM, "Target password");
        o = TlsConfig.define(def, "source.", GROUP_SERVERS, o, "the source's servers (every shard, and the replicas"
                + " of throttle.replicas)");
        o = TlsConfig.define(def, "target.", GROUP_SERVERS, o, "the clone target");
        o = 0;
        def.define(REPLICATION_HOST, Type.STRING, "", Importance.MEDIUM,
                "The source's address as the target reaches it for native replication; empty means source.host.",
                GROUP_HANDOFF, ++o, Width.MEDIUM, "Replication source host");
        def.define(REPLICATION_PORT, Type.INT, 0, ConfigDef.Range.between(0, 65535), Importance.MEDIUM,
                "The source's port for replication; 0 means source.port.", GROUP_HANDOFF, ++o, Width.SHORT,
                "Replication source port");
        def.define(REPLICATION_USER, Type.STRING, "", Importance.HIGH, "Clone: the user the target replicates as (REPLICATION SLAVE on the source); the preflight"
                        + " checks it exists and may replicate.", GROUP_HANDOFF, ++o, Width.MEDIUM,
                "Replication user");
        def.define(REPLICATION_PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The replication user's password.",
                GROUP_HANDOFF, ++o, Width.MEDIUM, "Replication password");
        def.define(HANDOFF_POSTPONE, Type.BOOLEAN, false, Importance.MEDIUM,
                "Hold the workflow in 'postponed' once ready: the clone keeps streaming until this is set back to"
                        + " false (PUT the config again), which releases the hand-off.", GROUP_HANDOFF, ++o,
                Width.SHORT, "Postpone the hand-off");
        def.define(READY_MAX_LAG_TRANSACTIONS, Type.LONG, 100L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "Clone: ready for the hand-off when, the copy done, the applier is at most this many transactions"
                        + " behind the source, or at most ready.max.lag.ms behind in time (a source busy with"
                        + " transactions the stream does not carry is ready by the second). Reshard: ready for the"
                        + " switch when at most this many transactions behind (the switch refuses writes until the new"
                        + " shards have caught up, so it starts only with little to apply).",
                GROUP_HANDOFF, ++o, Width.SHORT, "Ready lag");
        def.define(READY_MAX_LAG_MS, Type.LONG, 10_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "Online DDL: ready to cut over (clone: to hand off, or by ready.max.lag.transactions) when, the"
                        + " copy done, every applier is at most this far behind what its source has read (the age"
                        + " of the last record it applied; the source sends a HEARTBEAT at least every"
                        + " heartbeat.interval.ms, so keep this above that interval). The cut-over itself then waits"
                        + " for the exact position.",
                GROUP_HANDOFF, ++o, Width.SHORT, "Ready: max applier lag (ms)");
        def.define(STOP_TIMEOUT_MS, Type.LONG, 120_000L, ConfigDef.Range.atLeast(1_000), Importance.LOW,
                "How long the hand-off waits for the applier to stop at the hand-off position before it gives up and"
                        + " lets the applier run again (and retries later).", GROUP_HANDOFF, ++o, Width.SHORT,
                "Applier stop timeout (ms)");
        def.define(FORCE, Type.BOOLEAN, false, Importance.LOW,
                "Skip the preflight's refusal of a target that already holds user databases.", GROUP_HANDOFF, ++o,
                Width.SHORT, "Force");
        o = 0;
        def.define(SHARDS, Type.LIST, "", Importance.HIGH,
                "Online DDL: the shards holding the table, <shard>=<host>:<port> (as the source connector's"
                        + " topology). Reshard: the old shards, which the switch retires.", GROUP_DDL, ++o, Width.LONG,
                "Shards");
        def.define(DDL_DATABASE, Type.STRING, "", Importance.HIGH, "Online DDL: the database of the table.",
                GROUP_DDL, ++o, Width.MEDIUM, "Database");
        def.define(DDL_TABLE, Type.STRING, "", Importance.HIGH, "Online DDL: the table to alter.", GROUP_DDL, ++o,
                Width.MEDIUM, "Table");
        def.define(DDL_ALTER, Type.STRING, "", Importance.HIGH,
                "Online DDL: the ALTER TABLE statement, or what follows 'ALTER TABLE <table>', e.g. 'MODIFY amount"
                        + " DECIMAL(14,2), ADD INDEX (k), RENAME COLUMN v TO v2'.", GROUP_DDL, ++o, Width.LONG,
                "ALTER");
        def.define(DDL_MIGRATION, Type.STRING, "", Importance.MEDIUM,
                "Online DDL: the migration id the applier (ghost.migration) finds the plan under; empty means the"
                        + " workflow name.", GROUP_DDL, ++o, Width.MEDIUM, "Migration id");
        def.define(DDL_ALLOW_NEW_UNIQUE, Type.BOOLEAN, false, Importance.MEDIUM,
                "Online DDL: accept an ALTER that adds a UNIQUE key; rows that violate it then fail the migration"
                        + " (never dropped or replaced).", GROUP_DDL, ++o, Width.SHORT, "Allow a new unique key");
        def.define(DDL_GHOST_FORMAT, Type.STRING, "_${table}_gho", new ConfigDef.NonEmptyString(), Importance.LOW,
                "Online DDL: the ghost table's name; ${table} is replaced.", GROUP_DDL, ++o, Width.MEDIUM,
                "Ghost table name");
        def.define(DDL_PREFER_INSTANT, Type.BOOLEAN, true, Importance.MEDIUM,
                "Online DDL: run the ALTER directly when the server can apply it instantly (ALGORITHM=INSTANT: add a"
                        + " nullable or defaulted column, drop or reorder one, change a default, rename a column, ...),"
                        + " on every shard, with no ghost, copy or cut-over (the workflow completes with 'applied"
                        + " instantly' in its status). Asked of the server first on an empty copy of the table; it"
                        + " waits while a long transaction is open, and each try waits at most"
                        + " cutover.lock.timeout.ms for the table's metadata lock (at most cutover.max.attempts"
                        + " tries). An ALTER the server cannot run instantly, or one that names its own ALGORITHM or"
                        + " LOCK, takes the copy path (the reason is logged). false: always copy.", GROUP_DDL, ++o,
                Width.SHORT, "Prefer instant ALTER");
        def.define(DDL_REVERT_WINDOW_MS, Type.LONG, 0L, ConfigDef.Range.between(0L, 30L * 24 * 3_600_000L),
                Importance.MEDIUM,
                "Online DDL: keep the original table (kept under its old name, e.g. <t>_old) equal to the new one for"
                        + " this long after the cut-over, so that the ALTER can be reverted without losing a write"
                        + " (docs/online-ddl.md, Revert). The workflow's source and sink keep running as a reverse"
                        + " stream (the new table's changes applied to the original through the inverse column"
                        + " mapping), and the workflow waits in REVERTIBLE until the window ends or 'vsc release'"
                        + " (ddl.revert.release=true) ends it; then it is COMPLETE. 'vsc revert' (ddl.revert) swaps"
                        + " the original back in meanwhile, and again the other way, each swap restarting the window."
                        + " A change the original cannot hold"
                        + " (a value too wide for its type) ends the window at once, the status naming the key. A"
                        + " revertible ALTER always copies (ddl.prefer.instant does not apply: a revert needs the"
                        + " original). 0: no reverse stream; the migration is COMPLETE at the swap.", GROUP_DDL, ++o,
                Width.SHORT, "Revert window (ms)");
        def.define(DDL_REVERT_RELEASE, Type.BOOLEAN, false, Importance.LOW,
                "Online DDL: set to true (PUT the config again, or 'vsc release') to end the revert window"
                        + " (ddl.revert.window.ms) now: the reverse stream stops, the tables stay as they are, and the"
                        + " workflow is COMPLETE (REVERTED if the original tables serve).", GROUP_DDL, ++o,
                Width.SHORT, "End the revert window");
        def.define(DDL_REVERT_DROP, Type.BOOLEAN, false, Importance.LOW,
                "Online DDL: with ddl.revert.release=true ('vsc release --drop'), also drop, on every shard, the"
                        + " table that followed the serving one (the kept original, or after a revert the ALTERed"
                        + " table) once the reverse stream is stopped. Only a table the workflow's applier was"
                        + " following is dropped; false keeps it until you drop it.", GROUP_DDL, ++o, Width.SHORT,
                "Drop the follower on release");
        def.define(DDL_REVERT, Type.BOOLEAN, false, Importance.LOW,
                "Online DDL with a revert window: which tables should serve while the window is open. true (PUT the"
                        + " config again, or 'vsc revert') swaps the original tables back in on every shard"
                        + " (REVERTING, then REVERTIBLE with the ALTERed tables following the originals); false"
                        + " again swaps the ALTERed tables back in. Each swap is the ALTER's own cut-over (its"
                        + " checksum through the mapping, the sentry swap, writes blocked at most"
                        + " cutover.lock.timeout.ms, at most cutover.max.attempts attempts), after which the tables"
                        + " that serve hold every write made to the others. When the window ends the workflow is"
                        + " COMPLETE if the ALTERed tables serve, REVERTED if the originals do.", GROUP_DDL, ++o,
                Width.SHORT, "Revert");
        def.define(DDL_COPY_METHOD, Type.STRING, "server", ConfigDef.CaseInsensitiveValidString.in("server", "stream"),
                Importance.MEDIUM, "Online DDL: how the ghost is filled with the table's existing rows. 'server'"
                        + " (default): the coordinator copies them on each shard itself, chunk by chunk with INSERT"
                        + " ... SELECT through the column mapping, and only the changes travel through Kafka: deploy"
                        + " the source with start.mode=current (a source that copies fails the workflow). 'stream':"
                        + " the source's copy phase (start.mode=copy) sends every row through Kafka and the sink"
                        + " writes it (the clone's and reshard's way; slower).", GROUP_DDL, ++o, Width.SHORT,
                "Copy method");
        def.define(DDL_COPY_START, Type.STRING, "after-applier",
                ConfigDef.CaseInsensitiveValidString.in("after-applier", "at-once"), Importance.MEDIUM,
                "Online DDL with ddl.copy.method=server: when each shard's copy starts. 'after-applier' (default):"
                        + " once the shard's applier (the sink) has recorded its first position, so that every chunk"
                        + " is read after the stream's start whatever the source's start.mode. 'at-once': right after"
                        + " the ghost tables are created, from the GTID position the coordinator records for each"
                        + " shard with the migration's plan (state.database's table 'migrations'); deploy the source"
                        + " with start.mode=migration and start.migration=<ddl.migration>, so that its stream starts"
                        + " exactly there. The copy then does not wait for the source and the sink to start. The"
                        + " applier checks that its stream starts at or before the recorded position and fails the"
                        + " workflow otherwise (the original table untouched).", GROUP_DDL, ++o, Width.SHORT,
                "Copy start");
        def.define(DDL_COPY_THREADS, Type.INT, 0, ConfigDef.Range.between(0, 32), Importance.LOW,
                "Online DDL, server copy: key ranges copied at once on each shard, each on its own connection. 0"
                        + " (default): as many as the shard's server has processors, at most 4 (MariaDB's"
                        + " thread_pool_size, whose default is the processor count; 4 on MySQL): the copy is bound by"
                        + " the server's CPU, and more copy statements than processors only contend with each other"
                        + " and with the application's writes (on a 2-processor server 2 threads copied 200,000 rows"
                        + " faster than 4).",
                GROUP_DDL, ++o, Width.SHORT, "Copy threads per shard");
        def.define(DDL_COPY_CHUNK_TARGET_MS, Type.LONG, 200L, ConfigDef.Range.between(10, 60_000), Importance.LOW,
                "Online DDL, server copy: the time a chunk should take; its size adapts to it. A chunk holds shared"
                        + " locks on its rows of the original until it commits, so this bounds how long a write to a"
                        + " row being copied may wait.", GROUP_DDL, ++o, Width.SHORT, "Copy chunk target (ms)");
        def.define(DDL_COPY_CHUNK_MAX_ROWS, Type.INT, 100_000, ConfigDef.Range.between(
                        io.vstream.connect.coordinator.copy.GhostCopySettings.MIN_CHUNK_ROWS, 10_000_000),
                Importance.LOW, "Online DDL, server copy: the largest chunk, in rows.", GROUP_DDL, ++o, Width.SHORT,
                "Copy chunk max rows");
        def.define(DDL_COPY_MAX_ROWS_PER_SECOND, Type.LONG, 0L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "Online DDL, server copy: at most this many rows per second on each shard; 0 (default): no cap.",
                GROUP_DDL, ++o, Width.SHORT, "Copy max rows/s");
        def.define(DDL_COPY_DEFER_INDEXES, Type.BOOLEAN, true, Importance.LOW,
                "Online DDL, server copy: true (default) creates the ghost without its plain (non-unique B-tree)"
                        + " secondary keys and builds them with one online ALTER TABLE ... ADD KEY once every key"
                        + " range is copied, while the checksum runs (the swap waits for them): the server sorts each"
                        + " key once instead of updating"
                        + " it row by row (the copy costs the server about a third less). Unique keys are always"
                        + " there during the copy; a table with FULLTEXT, SPATIAL, hash or foreign keys keeps every"
                        + " key. The key build replicates as one DDL: a replica applies it after the primary and"
                        + " lags meanwhile. false: the ghost has every key from the start.", GROUP_DDL, ++o,
                Width.SHORT, "Defer secondary keys");
        def.define(DDL_COPY_PAUSED, Type.BOOLEAN, false, Importance.LOW,
                "Online DDL, server copy: true holds the copy on every shard (a manual throttle, with the reason in"
                        + " the status) until it is set back to false; the change stream goes on meanwhile.",
                GROUP_DDL, ++o, Width.SHORT, "Copy paused");
        def.define(THROTTLE_REPLICAS, Type.LIST, "", Importance.LOW,
                "Online DDL, server copy: replicas (<host>:<port>, reached with source.user) whose lag holds the copy"
                        + " back: while any lags more than throttle.max.replica.lag.ms, or does not replicate, the"
                        + " copy waits on every shard, with the reason in the status. (The source's copy has its own"
                        + " throttle.replicas.)", GROUP_DDL, ++o, Width.LONG, "Throttle: replicas");
        def.define(THROTTLE_MAX_REPLICA_LAG_MS, Type.LONG, 5_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "Online DDL, server copy: the replica lag above which the copy waits.", GROUP_DDL, ++o, Width.SHORT,
                "Throttle: max replica lag (ms)");
        def.define(CUTOVER_MODE, Type.STRING, "all-at-once",
                ConfigDef.CaseInsensitiveValidString.in("all-at-once", "per-shard"), Importance.MEDIUM,
                "Online DDL: 'all-at-once' locks the table on every shard, then swaps all; 'per-shard' swaps each"
                        + " shard as it is ready.", GROUP_DDL, ++o, Width.SHORT, "Cut-over mode");
        def.define(CUTOVER_LOCK_TIMEOUT_MS, Type.LONG, 3_000L, ConfigDef.Range.atLeast(100), Importance.MEDIUM,
                "Online DDL: the longest a cut-over attempt blocks writes to the table (lock wait and hold); past"
                        + " it the attempt is abandoned, the original table stays, and it is retried.", GROUP_DDL,
                ++o, Width.SHORT, "Cut-over lock timeout (ms)");
        def.define(CUTOVER_MAX_ATTEMPTS, Type.INT, 10, ConfigDef.Range.atLeast(1), Importance.LOW,
                "Online DDL: cut-over attempts before the workflow fails. Clone: hand-off attempts abandoned"
                        + " before anything replicated (the applier did not pause or reach the snapshot within"
                        + " handoff.stop.timeout.ms) before the workflow fails.", GROUP_DDL, ++o, Width.SHORT,
                "Cut-over attempts");
        def.define(THROTTLE_MAX_APPLIER_LAG_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
                "Online DDL: while a shard's applier is more than this far behind what the source copied or streamed"
                        + " (the age of the last record it applied), the copy on that shard (the server copy, or the"
                        + " source's with ddl.copy.method=stream) waits"
                        + " (throttled, with the reason in the status) so the backlog does not grow. 0 disables it.",
                GROUP_DDL, ++o, Width.SHORT, "Throttle: max applier lag (ms)");
        def.define(CUTOVER_TEST_CRASH_AT_STEP, Type.INT, 0, ConfigDef.Range.between(0, 7), Importance.LOW,
                "For tests only: after step N (1-7) of a cut-over, drop every connection of the cut-over without any"
                        + " cleanup and fail the task, as a coordinator that dies there would. 0 (default): never.",
                GROUP_DDL, ++o, Width.SHORT, "Test: crash at cut-over step");
        o = 0;
        def.define(RESHARD_KEYSPACE, Type.STRING, "", Importance.HIGH,
                "Reshard: the keyspace, as the source connectors name it (the journal is keyed by it).",
                GROUP_RESHARD, ++o, Width.MEDIUM, "Keyspace");
        def.define(RESHARD_DATABASE, Type.STRING, "", Importance.HIGH,
                "Reshard: the database that holds the keyspace's tables on every shard.", GROUP_RESHARD, ++o,
                Width.MEDIUM, "Database");
        def.define(RESHARD_TARGET_SHARDS, Type.LIST, "", Importance.HIGH,
                "Reshard: the new shards, <shard>=<host>:<port>, reached with target.user (or source.user when"
                        + " target.user is empty). Their key ranges must cover exactly the old shards' ranges.",
                GROUP_RESHARD, ++o, Width.LONG, "New shards");
        def.define(RESHARD_VINDEX, Type.STRING, "hash", ConfigDef.CaseInsensitiveValidString.in(
                io.vstream.connect.core.vindex.Vindexes.names().toArray(new String[0])), Importance.MEDIUM,
                "Reshard: the vindex that maps a sharding column value to its keyspace id (as the sink's"
                        + " reshard.vindex).", GROUP_RESHARD, ++o, Width.SHORT, "Vindex");
        def.define(RESHARD_COLUMNS, Type.LIST, "", Importance.MEDIUM,
                "Reshard: the sharding column of each table, <table>:<column> (as the sink's reshard.columns); the"
                        + " preflight checks that every table of the database has one.", GROUP_RESHARD, ++o,
                Width.LONG, "Sharding columns");
        def.define(RESHARD_COLUMN_DEFAULT, Type.STRING, "", Importance.LOW,
                "Reshard: the sharding column of tables that reshard.columns does not list (as the sink's).",
                GROUP_RESHARD, ++o, Width.SHORT, "Default sharding column");
        return def;
    }
}
