package io.vstream.connect.source;

import io.vstream.connect.core.config.RetryConfig;
import io.vstream.connect.core.config.TlsConfig;
import io.vstream.connect.core.sql.TlsSettings;
import io.vstream.connect.core.topology.ShardAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.config.types.Password;

/**
 * The source connector's configuration: which keyspace and shards to stream, how to reach them, what to filter and
 * where to start. Cross-field rules (topology coverage, start position) live in {@link #validate(Map)} so that
 * {@code PUT /connector-plugins/.../config/validate} reports them per field.
 */
public class VStreamSourceConnectorConfig extends AbstractConfig {

    public static final String KEYSPACE = "keyspace";
    public static final String DATABASE = "database";
    public static final String TOPOLOGY = "topology";
    public static final String USER = "user";
    public static final String PASSWORD = "password";
    public static final String CONNECT_TIMEOUT_MS = "connect.timeout.ms";
    public static final String RETRY_BACKOFF_INITIAL_MS = RetryConfig.BACKOFF_INITIAL_MS;
    public static final String RETRY_BACKOFF_MAX_MS = RetryConfig.BACKOFF_MAX_MS;
    public static final String RETRY_MAX_DURATION_MS = RetryConfig.MAX_DURATION_MS;
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String START_MODE = "start.mode";
    public static final String START_POSITION = "start.position";
    public static final String START_MIGRATION = "start.migration";
    public static final String START_MIGRATION_DATABASE = "start.migration.database";
    public static final String TABLE_INCLUDE_LIST = "table.include.list";
    public static final String TABLE_EXCLUDE_LIST = "table.exclude.list";
    public static final String COLUMN_EXCLUDE_LIST = "column.exclude.list";
    public static final String FIELD_NAME_ADJUSTMENT_MODE = "field.name.adjustment.mode";
    public static final String HEARTBEAT_INTERVAL_MS = "heartbeat.interval.ms";
    public static final String SERVER_ID_BASE = "binlog.server.id.base";
    /** The server ids a derived base ({@code binlog.server.id.base=0}) leaves each connector. */
    static final int DERIVED_SERVER_IDS = 1000;
    public static final String COPY_TABLE_INCLUDE_LIST = "copy.table.include.list";
    public static final String COPY_KEYLESS_TABLES = "copy.keyless.tables";
    public static final String COPY_CHUNK_TARGET_MS = "copy.chunk.target.ms";
    public static final String COPY_CHUNK_MAX_ROWS = "copy.chunk.max.rows";
    public static final String COPY_ROWS_PER_RECORD = "copy.rows.per.record";
    public static final String COPY_CYCLE_MAX_MS = "copy.cycle.max.ms";
    public static final String COPY_MAX_ROWS_PER_SECOND = "copy.max.rows.per.second";
    public static final String THROTTLE_REPLICAS = "throttle.replicas";
    public static final String THROTTLE_MAX_REPLICA_LAG_MS = "throttle.max.replica.lag.ms";
    public static final String THROTTLE_STATE_DATABASE = "throttle.state.database";
    public static final String JOURNAL_DATABASE = "reshard.journal.database";
    public static final String RESHARD_FALLBACK = "reshard.fallback";
    public static final String JOURNAL_CHECK_INTERVAL_MS = "reshard.check.interval.ms";
    public static final String MAX_BATCH_SIZE = "max.batch.size";
    public static final String MAX_QUEUE_SIZE = "max.queue.size";
    public static final String POLL_INTERVAL_MS = "poll.interval.ms";

    private static final String GROUP_KEYSPACE = "Keyspace";
    private static final String GROUP_CONNECTION = "Connection";
    private static final String GROUP_STREAM = "Stream";
    private static final String GROUP_FILTER = "Filters";
    private static final String GROUP_COPY = "Copy phase";
    private static final String GROUP_TUNING = "Tuning";

    /** Where a shard without a stored offset starts. */
    public enum StartMode {
        /** Copy the existing rows of the streamed tables first (the copy phase), then stream from there. */
        COPY,
        /** From the shard's current position ({@code @@gtid_binlog_pos} / {@code @@gtid_executed}): only new changes. */
        CURRENT,
        /** From the per-shard positions given in {@code start.position} (a VGTID). */
        POSITION,
        /** From the position an online-DDL coordinator recorded on each shard for {@code start.migration}. */
        MIGRATION;

        static final String DOC = "Where a shard with no stored offset starts. 'copy' (default): copy the existing rows"
                + " of the streamed tables (those matching copy.table.include.list) in a resumable copy phase, then"
                + " stream the binlog from the copy's position, so a consumer that applies the whole log ends with the"
                + " source's data; tables not copied stream from the start position. 'current': from the shard's"
                + " current GTID position (only changes made from now on). 'position': from the shard's entry in"
                + " 'start.position'. 'migration': from the position the online-DDL coordinator of migration"
                + " 'start.migration' recorded on the shard when it created the ghost table (ddl.copy.start=at-once),"
                + " which its copy starts from; the shard waits for it up to retry.max.duration.ms. A shard that has a"
                + " stored offset always resumes from it.";

        static StartMode parse(String s) {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        }
    }

    public static final ConfigDef CONFIG_DEF = configDef();

    private static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        int o = 0;
        def.define(KEYSPACE, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                "The logical keyspace name, as Vitess would name it. Part of every topic name and of every offset's"
                        + " source partition {keyspace, shard}.", GROUP_KEYSPACE, ++o, Width.MEDIUM, "Keyspace");
        def.define(DATABASE, Type.STRING, "", Importance.MEDIUM,
                "The MySQL database (schema) that holds the keyspace's tables on every shard. Empty means the same"
                        + " as 'keyspace'.", GROUP_KEYSPACE, ++o, Width.MEDIUM, "Database");
        def.define(TOPOLOGY, Type.LIST, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH,
                "The shards of the keyspace and the server to read each from, as a comma-separated list of"
                        + " <shard>=<host>:<port>, e.g. '-80=10.0.0.1:3306,80-=10.0.0.2:3306'. Shard names are Vitess key"
                        + " ranges ('-' or '0' for an unsharded keyspace); together they must cover the whole key space"
                        + " without overlap.", GROUP_KEYSPACE, ++o, Width.LONG, "Topology");
        o = 0;
        def.define(USER, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                "The user to connect as on every shard. It needs REPLICATION SLAVE, REPLICATION CLIENT (MariaDB:"
                        + " BINLOG MONITOR) and SELECT on the keyspace's database; see docs/source.md.",
                GROUP_CONNECTION, ++o, Width.MEDIUM, "User");
        def.define(PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The user's password.",
                GROUP_CONNECTION, ++o, Width.MEDIUM, "Password");
        def.define(CONNECT_TIMEOUT_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(1_000), Importance.LOW,
                "How long to wait for a shard's server to accept a connection.", GROUP_CONNECTION, ++o, Width.SHORT,
                "Connect timeout (ms)");
        o = RetryConfig.define(def, GROUP_CONNECTION, o, "reconnecting to a shard after a lost connection",
                "How long a shard may stay unreachable before the task fails (and Connect reports it).");
        o = TlsConfig.define(def, "", GROUP_CONNECTION, o, "every shard's server (and the replicas of"
                + " throttle.replicas)");
        o = 0;
        def.define(TOPIC_PREFIX, Type.STRING, "vstream", new ConfigDef.NonEmptyString(), Importance.HIGH,
                "Prefix of the per-shard topics: each shard's ordered log is <prefix>.<keyspace>.<shard>; also the"
                        + " namespace of the row schemas.", GROUP_STREAM, ++o, Width.MEDIUM, "Topic prefix");
        def.define(FIELD_NAME_ADJUSTMENT_MODE, Type.STRING, "none",
                ConfigDef.CaseInsensitiveValidString.in("none", "avro"), Importance.MEDIUM,
                "How row structs name columns. 'none' (default): as the columns are named. 'avro': a column whose"
                        + " name is not a valid Avro name (letters, digits and '_', not starting with a digit) is"
                        + " named by its Avro form, each other character replaced by '_' and a leading digit"
                        + " prefixed with '_' ('order-total' becomes 'order_total', '2fa' '_2fa'), as an Avro converter"
                        + " needs; two columns of a table with the same form stop the task. FIELD records and"
                        + " headers keep the column names, and the sink maps the fields back to the columns.",
                GROUP_STREAM, ++o, Width.SHORT, "Field name adjustment");
        def.define(START_MODE, Type.STRING, "copy", enumValidator(StartMode.values()), Importance.HIGH,
                StartMode.DOC, GROUP_STREAM, ++o, Width.SHORT, "Start mode");
        def.define(START_POSITION, Type.STRING, "", Importance.MEDIUM,
                "With start.mode=position: the VGTID to start from, as JSON {\"shard_gtids\":[{\"keyspace\":\"ks\","
                        + "\"shard\":\"-80\",\"gtid\":\"MariaDB/0-1-42\"}, ...]} with one entry per shard.",
                GROUP_STREAM, ++o, Width.LONG, "Start position (VGTID)");
        def.define(START_MIGRATION, Type.STRING, "", Importance.MEDIUM,
                "With start.mode=migration: the online-DDL migration (the coordinator's ddl.migration) whose recorded"
                        + " start position each shard streams from. The account then needs SELECT on the"
                        + " coordinator's table <start.migration.database>.migrations (docs/grants.md).",
                GROUP_STREAM, ++o, Width.MEDIUM, "Start migration");
        def.define(START_MIGRATION_DATABASE, Type.STRING, "_vstream", new ConfigDef.NonEmptyString(), Importance.LOW,
                "With start.mode=migration: the database where the coordinator records the migration (its"
                        + " state.database).", GROUP_STREAM, ++o, Width.MEDIUM, "Start migration database");
        def.define(HEARTBEAT_INTERVAL_MS, Type.LONG, 5_000L, ConfigDef.Range.atLeast(100), Importance.MEDIUM,
                "How often a shard whose filtered tables are idle emits a HEARTBEAT record with its current position"
                        + " (which also stores the offset). A shard also emits one as soon as the server reports its"
                        + " binlog idle (after an eighth of this interval, 20-100 ms) when transactions of tables it"
                        + " does not stream moved its position since its last record: an online DDL's cut-over waits"
                        + " for exactly that.", GROUP_STREAM, ++o, Width.SHORT, "Heartbeat interval (ms)");
        def.define(SERVER_ID_BASE, Type.LONG, 0L, ConfigDef.Range.between(0, 4_294_967_000L), Importance.LOW,
                "The binlog client's server_id for the first shard; shard i uses base + i. Each must differ from every"
                        + " server and every other binlog reader of the same server. 0 derives a base from the connector"
                        + " name in [1000000000, 2000000000), with room for 1000 shards: a topology of more is refused"
                        + " until a base is set.", GROUP_STREAM, ++o, Width.SHORT, "Binlog server id base");
        def.define(JOURNAL_DATABASE, Type.STRING, "_vstream", new ConfigDef.NonEmptyString(), Importance.LOW,
                "The database of the reshard journal table (the coordinator's state.database). A shard's stream ends"
                        + " at a journal row that retires the shard, and the connector continues on the journal's new"
                        + " shards from their journaled positions (docs/reshard.md).", GROUP_STREAM, ++o, Width.MEDIUM,
                "Reshard journal database");
        def.define(RESHARD_FALLBACK, Type.STRING, "copy", ConfigDef.CaseInsensitiveValidString.in("copy", "fail"),
                Importance.MEDIUM,
                "What a stream resumed after a reshard does when an old shard it must read up to the journal is gone"
                        + " or has purged the binlogs it needs: 'copy' copies the journal's new shards afresh (copy"
                        + " rows, op 'r'; logged, and announced by a JOURNAL record with fallback=true on the keyspace"
                        + " topic); 'fail' stops the task with a message naming the shard and the choices.",
                GROUP_STREAM, ++o, Width.SHORT, "Reshard fallback");
        def.define(JOURNAL_CHECK_INTERVAL_MS, Type.LONG, 1_000L, ConfigDef.Range.atLeast(100), Importance.LOW,
                "How often the connector checks whether every participant of a reshard journal has reached it (their"
                        + " stored offsets say so), to move the stream to the new shards. Offsets are stored every"
                        + " offset.flush.interval.ms of the worker, which bounds how soon the switch happens.",
                GROUP_STREAM, ++o, Width.SHORT, "Reshard check interval (ms)");
        o = 0;
        def.define(TABLE_INCLUDE_LIST, Type.LIST, "", Importance.MEDIUM,
                "Regular expressions (full match, case-insensitive) of the table names to stream; empty means all"
                        + " tables of the database.", GROUP_FILTER, ++o, Width.LONG, "Tables to include");
        def.define(TABLE_EXCLUDE_LIST, Type.LIST, "", Importance.MEDIUM,
                "Regular expressions (full match, case-insensitive) of the table names not to stream; applied after"
                        + " the include list.", GROUP_FILTER, ++o, Width.LONG, "Tables to exclude");
        def.define(COLUMN_EXCLUDE_LIST, Type.LIST, "", Importance.MEDIUM,
                "Regular expressions (full match, case-insensitive) of <table>.<column> names to leave out of row"
                        + " events. Key columns cannot be excluded.", GROUP_FILTER, ++o, Width.LONG, "Columns to exclude");
        o = 0;
        def.define(COPY_TABLE_INCLUDE_LIST, Type.LIST, "", Importance.MEDIUM,
                "With start.mode=copy: regular expressions (full match, case-insensitive) of the streamed tables whose"
                        + " existing rows are copied; empty means all streamed tables. The others stream from the start"
                        + " position only.", GROUP_COPY, ++o, Width.LONG, "Tables to copy");
        def.define(COPY_KEYLESS_TABLES, Type.STRING, "fail", ConfigDef.CaseInsensitiveValidString.in("fail", "skip"),
                Importance.MEDIUM, "A table to copy needs a primary key or a unique key over NOT NULL columns (not on"
                        + " FLOAT, DOUBLE or JSON columns) to be copied in order and resumed. 'fail' (default): refuse to"
                        + " start, naming the table. 'skip': do not copy its existing rows, stream its changes only.",
                GROUP_COPY, ++o, Width.SHORT, "Tables without a usable key");
        def.define(COPY_CHUNK_TARGET_MS, Type.LONG, 500L, ConfigDef.Range.atLeast(10), Importance.LOW,
                "The copy reads rows in chunks sized so that one takes about this long; the last copied key is stored"
                        + " after each chunk.", GROUP_COPY, ++o, Width.SHORT, "Copy chunk target time (ms)");
        def.define(COPY_CHUNK_MAX_ROWS, Type.INT, 50_000, ConfigDef.Range.atLeast(CopySettings.MIN_CHUNK_ROWS),
                Importance.LOW, "The most rows one copy chunk reads.", GROUP_COPY, ++o, Width.SHORT,
                "Copy chunk max rows");
        def.define(COPY_ROWS_PER_RECORD, Type.INT, 1, ConfigDef.Range.between(1, CopySettings.MAX_ROWS_PER_RECORD),
                Importance.MEDIUM, "1 (default): every copied row is its own ROW record (op 'r', Debezium's"
                        + " envelope), what any CDC consumer reads. N > 1: up to N consecutive rows of a chunk travel"
                        + " in one ROWS record (their after images only, bounded to about a quarter of the"
                        + " producer's max.request.size), which costs the worker, the broker and the sink a fraction"
                        + " of N records: for the streams a workflow's sink applies (clone, reshard), where"
                        + " config-examples and vsc start set 500. A row whose cells the stream marks in headers"
                        + " (zero dates, invalid ENUM entries) still travels alone as a ROW record. Consumers other"
                        + " than the vstream sink must read ROWS records (docs/consumers.md).", GROUP_COPY, ++o,
                Width.SHORT, "Copy rows per record");
        def.define(COPY_CYCLE_MAX_MS, Type.LONG, 300_000L, ConfigDef.Range.atLeast(1_000), Importance.LOW,
                "How long one consistent snapshot is used before the copy catches up with the binlog and opens a new"
                        + " one (long snapshots hold back InnoDB's purge).", GROUP_COPY, ++o, Width.SHORT,
                "Copy cycle max time (ms)");
        def.define(COPY_MAX_ROWS_PER_SECOND, Type.LONG, 0L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "The most rows per second the copy reads from a shard; 0 for no limit.", GROUP_COPY, ++o,
                Width.SHORT, "Copy max rows/s");
        def.define(THROTTLE_REPLICAS, Type.LIST, "", Importance.LOW,
                "Replicas (<host>:<port>) whose lag holds the copy back: while any lags more than"
                        + " throttle.max.replica.lag.ms, or does not replicate, the copy waits and logs why.",
                GROUP_COPY, ++o, Width.LONG, "Replicas to watch");
        def.define(THROTTLE_MAX_REPLICA_LAG_MS, Type.LONG, 5_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "The replica lag above which the copy waits.", GROUP_COPY, ++o, Width.SHORT,
                "Max replica lag (ms)");
        def.define(THROTTLE_STATE_DATABASE, Type.STRING, "_vstream", new ConfigDef.NonEmptyString(), Importance.LOW,
                "Where a workflow's coordinator asks the copy to wait (table 'throttle' on each shard: an online-DDL"
                        + " coordinator does so while the applier lags). The copy checks it before each chunk.",
                GROUP_COPY, ++o, Width.MEDIUM, "Throttle state database");
        o = 0;
        def.define(MAX_BATCH_SIZE, Type.INT, 512, ConfigDef.Range.atLeast(1), Importance.LOW,
                "The most records one poll() returns.", GROUP_TUNING, ++o, Width.SHORT, "Max batch size");
        def.define(MAX_QUEUE_SIZE, Type.INT, 1024, ConfigDef.Range.atLeast(16), Importance.LOW,
                "Events buffered per shard between the binlog reader and poll(); a full queue makes the reader wait,"
                        + " which bounds memory for any transaction size. The reader builds records far faster than"
                        + " the task hands them on, so a larger queue only holds more records in memory: at 8192 (and"
                        + " max.batch.size 2048) a worker with a 256 MB heap spent about 40% of a CDC run in young-GC"
                        + " pauses copying queued records, and streamed at 60% of the rate it reaches at 1024 (and 512;"
                        + " docs/benchmarks.md).", GROUP_TUNING, ++o, Width.SHORT, "Max queue size");
        def.define(POLL_INTERVAL_MS, Type.LONG, 200L, ConfigDef.Range.atLeast(1), Importance.LOW,
                "How long poll() waits for events before returning an empty batch.", GROUP_TUNING, ++o, Width.SHORT,
                "Poll interval (ms)");
        return def;
    }

    private static ConfigDef.Validator enumValidator(Enum<?>[] values) {
        List<String> names = new ArrayList<>();
        for (Enum<?> v : values) {
            names.add(v.name().toLowerCase(Locale.ROOT));
        }
        return ConfigDef.CaseInsensitiveValidString.in(names.toArray(new String[0]));
    }

    public VStreamSourceConnectorConfig(Map<?, ?> props) {
        super(CONFIG_DEF, props);
    }

    protected VStreamSourceConnectorConfig(ConfigDef def, Map<?, ?> props) {
        super(def, props);
    }

    public String keyspace() {
        return getString(KEYSPACE);
    }

    public String database() {
        String db = getString(DATABASE);
        return db == null || db.isBlank() ? keyspace() : db;
    }

    /** The shards in configuration order. */
    public String journalDatabase() {
        return getString(JOURNAL_DATABASE);
    }

    public boolean reshardFallbackCopy() {
        return "copy".equalsIgnoreCase(getString(RESHARD_FALLBACK));
    }

    public java.time.Duration journalCheckInterval() {
        return java.time.Duration.ofMillis(getLong(JOURNAL_CHECK_INTERVAL_MS));
    }

    public List<ShardAddress> topology() {
        List<ShardAddress> shards = new ArrayList<>();
        for (String entry : getList(TOPOLOGY)) {
            shards.add(ShardAddress.parse(entry));
        }
        return shards;
    }

    /** TLS to the shards' servers ({@code ssl.*}). */
    public TlsSettings tls() {
        return TlsConfig.read(this, "");
    }

    public String user() {
        return getString(USER);
    }

    public Password password() {
        return getPassword(PASSWORD);
    }

    public Duration connectTimeout() {
        return Duration.ofMillis(getLong(CONNECT_TIMEOUT_MS));
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

    /** Whether row structs name columns by their Avro form ({@code field.name.adjustment.mode=avro}). */
    public boolean avroFieldNames() {
        return "avro".equalsIgnoreCase(getString(FIELD_NAME_ADJUSTMENT_MODE));
    }

    public String topicPrefix() {
        return getString(TOPIC_PREFIX);
    }

    public StartMode startMode() {
        return StartMode.parse(getString(START_MODE));
    }

    public String startPosition() {
        return getString(START_POSITION);
    }

    /** With start.mode=migration, the migration whose recorded position the shards start from; else null. */
    public MigrationStart migrationStart() {
        return startMode() == StartMode.MIGRATION
                ? new MigrationStart(getString(START_MIGRATION).strip(), getString(START_MIGRATION_DATABASE)) : null;
    }

    public Duration heartbeatInterval() {
        return Duration.ofMillis(getLong(HEARTBEAT_INTERVAL_MS));
    }

    /** The binlog server_id of the shard at {@code index} in the full topology. */
    public long serverId(String connectorName, int index) {
        long base = getLong(SERVER_ID_BASE);
        if (base == 0) {
            base = 1_000_000_000L + Math.floorMod((long) String.valueOf(connectorName).hashCode(), 1_000_000L)
                    * DERIVED_SERVER_IDS;
        }
        return base + index;
    }

    public TableFilter tableFilter() {
        return new TableFilter(getList(TABLE_INCLUDE_LIST), getList(TABLE_EXCLUDE_LIST), getList(COLUMN_EXCLUDE_LIST));
    }

    public CopySettings copySettings() {
        List<ShardAddress> replicas = new ArrayList<>();
        for (String r : getList(THROTTLE_REPLICAS)) {
            if (!r.isBlank()) {
                replicas.add(ShardAddress.parse("-=" + r.strip()));
            }
        }
        return new CopySettings(startMode() == StartMode.COPY,
                new TableFilter(getList(COPY_TABLE_INCLUDE_LIST), List.of(), List.of()),
                "skip".equalsIgnoreCase(getString(COPY_KEYLESS_TABLES)),
                Duration.ofMillis(getLong(COPY_CHUNK_TARGET_MS)), getInt(COPY_CHUNK_MAX_ROWS),
                getInt(COPY_ROWS_PER_RECORD), Duration.ofMillis(getLong(COPY_CYCLE_MAX_MS)), getLong(COPY_MAX_ROWS_PER_SECOND), replicas,
                Duration.ofMillis(getLong(THROTTLE_MAX_REPLICA_LAG_MS)), getString(THROTTLE_STATE_DATABASE));
    }

    public int maxBatchSize() {
        return getInt(MAX_BATCH_SIZE);
    }

    public int maxQueueSize() {
        return getInt(MAX_QUEUE_SIZE);
    }

    public Duration pollInterval() {
        return Duration.ofMillis(getLong(POLL_INTERVAL_MS));
    }

    /**
     * The cross-field rules, each reported on the field it concerns: topology entries parse, name distinct shards and
     * cover the key space exactly; the start position parses and names every shard; filter regexes compile.
     */
    /**
     * Whether {@code shards} binlog readers fit the server id range: the derived base (0) leaves
     * {@value #DERIVED_SERVER_IDS} ids per connector before the next connector's range, and no id may pass 2^32 - 1.
     */
    static java.util.Optional<String> serverIdProblem(long base, int shards) {
        if (base == 0 && shards > DERIVED_SERVER_IDS) {
            return java.util.Optional.of("the topology has " + shards + " shards, and the derived base leaves "
                    + DERIVED_SERVER_IDS + " server ids per connector (another connector's range starts after them):"
                    + " set binlog.server.id.base to the first of " + shards + " consecutive ids that no server and no"
                    + " other replica of these shards uses (leave room for the shards a split adds)");
        }
        if (base > 0 && base + shards - 1 > 4_294_967_295L) {
            return java.util.Optional.of("binlog.server.id.base " + base + " + " + shards + " shards passes the"
                    + " largest server id (4294967295): choose a base of at most " + (4_294_967_296L - shards));
        }
        return java.util.Optional.empty();
    }

    public static Map<String, ConfigValue> validate(Map<String, String> props, Map<String, ConfigValue> values) {
        ConfigValue topology = values.get(TOPOLOGY);
        List<ShardAddress> shards = new ArrayList<>();
        if (topology != null && topology.errorMessages().isEmpty() && topology.value() instanceof List<?> entries) {
            List<String> texts = entries.stream().map(String::valueOf).toList();
            io.vstream.connect.core.topology.TopologyCheck.problems(texts,
                    io.vstream.connect.core.topology.TopologyCheck.Coverage.WHOLE_KEY_SPACE)
                    .forEach(topology::addErrorMessage);
            if (topology.errorMessages().isEmpty()) {
                texts.forEach(t -> shards.add(ShardAddress.parse(t)));
            }
        }
        ConfigValue serverIdBase = values.get(SERVER_ID_BASE);
        if (serverIdBase != null && serverIdBase.errorMessages().isEmpty()
                && serverIdBase.value() instanceof Long base) {
            serverIdProblem(base, shards.size()).ifPresent(serverIdBase::addErrorMessage);
        }
        ConfigValue mode = values.get(START_MODE);
        ConfigValue position = values.get(START_POSITION);
        if (mode != null && mode.errorMessages().isEmpty() && position != null
                && StartMode.parse(String.valueOf(mode.value())) == StartMode.POSITION) {
            String text = position.value() == null ? "" : String.valueOf(position.value());
            String keyspace = props.get(KEYSPACE);
            StartPositions.validate(text, keyspace, shards).forEach(position::addErrorMessage);
        }
        ConfigValue migration = values.get(START_MIGRATION);
        if (mode != null && mode.errorMessages().isEmpty() && migration != null
                && StartMode.parse(String.valueOf(mode.value())) == StartMode.MIGRATION
                && (migration.value() == null || String.valueOf(migration.value()).isBlank())) {
            migration.addErrorMessage("start.mode is 'migration' but start.migration is empty: set it to the"
                    + " coordinator's ddl.migration");
        }
        ConfigValue replicas = values.get(THROTTLE_REPLICAS);
        if (replicas != null && replicas.value() instanceof List<?> list) {
            for (Object r : list) {
                try {
                    ShardAddress.parse("-=" + String.valueOf(r).strip());
                } catch (IllegalArgumentException e) {
                    replicas.addErrorMessage("'" + r + "' is not <host>:<port>");
                }
            }
        }
        for (String key : List.of(TABLE_INCLUDE_LIST, TABLE_EXCLUDE_LIST, COLUMN_EXCLUDE_LIST,
                COPY_TABLE_INCLUDE_LIST)) {
            ConfigValue v = values.get(key);
            if (v != null && v.value() instanceof List<?> patterns) {
                for (Object p : patterns) {
                    try {
                        Pattern.compile(String.valueOf(p));
                    } catch (PatternSyntaxException e) {
                        v.addErrorMessage("'" + p + "' is not a valid regular expression: " + e.getDescription());
                    }
                }
            }
        }
        Map<String, ConfigValue> out = new LinkedHashMap<>(values);
        return out;
    }
}
