package io.vstream.connect.coordinator;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
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

    private static final String GROUP_WORKFLOW = "Workflow";
    private static final String GROUP_SERVERS = "Servers";
    private static final String GROUP_HANDOFF = "Hand-off";

    public static final ConfigDef CONFIG_DEF = configDef();

    private static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        int o = 0;
        def.define(WORKFLOW, Type.STRING, "clone", ConfigDef.CaseInsensitiveValidString.in("clone"), Importance.HIGH,
                "The workflow to drive. 'clone': wait until the applier (the sink in clone mode) has copied and"
                        + " caught up, stop it at an exact position, compare source and target by checksum there, and"
                        + " make the target a native replica of the source from that position (docs/clone.md). The"
                        + " online-DDL and reshard workflows arrive with their issues.", GROUP_WORKFLOW, ++o,
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
        def.define(POLL_INTERVAL_MS, Type.LONG, 1_000L, ConfigDef.Range.atLeast(100), Importance.LOW,
                "How often the coordinator looks at the workflow's progress.", GROUP_WORKFLOW, ++o, Width.SHORT,
                "Poll interval (ms)");
        o = 0;
        def.define(SOURCE_HOST, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "The source shard's server (the one the clone copies).", GROUP_SERVERS, ++o,
                Width.MEDIUM, "Source host");
        def.define(SOURCE_PORT, Type.INT, 3306, ConfigDef.Range.between(1, 65535), Importance.HIGH,
                "The source server's port.", GROUP_SERVERS, ++o, Width.SHORT, "Source port");
        def.define(SOURCE_USER, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "A source user with SELECT on the cloned databases (for the checksum) and"
                        + " REPLICATION CLIENT.", GROUP_SERVERS, ++o, Width.MEDIUM, "Source user");
        def.define(SOURCE_PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The source user's password.", GROUP_SERVERS,
                ++o, Width.MEDIUM, "Source password");
        def.define(TARGET_HOST, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "The clone target's server.", GROUP_SERVERS, ++o, Width.MEDIUM, "Target host");
        def.define(TARGET_PORT, Type.INT, 3306, ConfigDef.Range.between(1, 65535), Importance.HIGH,
                "The target server's port.", GROUP_SERVERS, ++o, Width.SHORT, "Target port");
        def.define(TARGET_USER, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "A target user that may read the applier's state, write its control row and run the"
                        + " hand-off (REPLICATION SLAVE ADMIN / SUPER, and RESET MASTER rights).", GROUP_SERVERS, ++o,
                Width.MEDIUM, "Target user");
        def.define(TARGET_PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The target user's password.", GROUP_SERVERS,
                ++o, Width.MEDIUM, "Target password");
        o = 0;
        def.define(REPLICATION_HOST, Type.STRING, "", Importance.MEDIUM,
                "The source's address as the target reaches it for native replication; empty means source.host.",
                GROUP_HANDOFF, ++o, Width.MEDIUM, "Replication source host");
        def.define(REPLICATION_PORT, Type.INT, 0, ConfigDef.Range.between(0, 65535), Importance.MEDIUM,
                "The source's port for replication; 0 means source.port.", GROUP_HANDOFF, ++o, Width.SHORT,
                "Replication source port");
        def.define(REPLICATION_USER, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "The user the target replicates as (REPLICATION SLAVE on the source); the preflight"
                        + " checks it exists and may replicate.", GROUP_HANDOFF, ++o, Width.MEDIUM,
                "Replication user");
        def.define(REPLICATION_PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The replication user's password.",
                GROUP_HANDOFF, ++o, Width.MEDIUM, "Replication password");
        def.define(HANDOFF_POSTPONE, Type.BOOLEAN, false, Importance.MEDIUM,
                "Hold the workflow in 'postponed' once ready: the clone keeps streaming until this is set back to"
                        + " false (PUT the config again), which releases the hand-off.", GROUP_HANDOFF, ++o,
                Width.SHORT, "Postpone the hand-off");
        def.define(READY_MAX_LAG_TRANSACTIONS, Type.LONG, 100L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "The clone is ready for the hand-off when, its copy done, the applier is at most this many"
                        + " transactions behind the source.", GROUP_HANDOFF, ++o, Width.SHORT, "Ready lag");
        def.define(STOP_TIMEOUT_MS, Type.LONG, 120_000L, ConfigDef.Range.atLeast(1_000), Importance.LOW,
                "How long the hand-off waits for the applier to stop at the hand-off position before it gives up and"
                        + " lets the applier run again (and retries later).", GROUP_HANDOFF, ++o, Width.SHORT,
                "Applier stop timeout (ms)");
        def.define(FORCE, Type.BOOLEAN, false, Importance.LOW,
                "Skip the preflight's refusal of a target that already holds user databases.", GROUP_HANDOFF, ++o,
                Width.SHORT, "Force");
        return def;
    }

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

    public Endpoint source() {
        return new Endpoint(getString(SOURCE_HOST), getInt(SOURCE_PORT), getString(SOURCE_USER),
                getPassword(SOURCE_PASSWORD));
    }

    public Endpoint target() {
        return new Endpoint(getString(TARGET_HOST), getInt(TARGET_PORT), getString(TARGET_USER),
                getPassword(TARGET_PASSWORD));
    }

    /** The source as the target's replication connects to it, with the replication user. */
    public Endpoint replication() {
        String host = getString(REPLICATION_HOST);
        int port = getInt(REPLICATION_PORT);
        return new Endpoint(host == null || host.isBlank() ? getString(SOURCE_HOST) : host,
                port == 0 ? getInt(SOURCE_PORT) : port, getString(REPLICATION_USER), getPassword(REPLICATION_PASSWORD));
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

    public Duration pollInterval() {
        return Duration.ofMillis(getLong(POLL_INTERVAL_MS));
    }

    /** A server and the credentials to use there (the password is never logged). */
    public record Endpoint(String host, int port, String user, Password password) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }
}
