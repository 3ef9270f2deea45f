package io.vstream.connect.cli;

import io.vstream.connect.cli.Endpoints.HostPort;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vsc start online-ddl|clone|reshard}: generates a workflow's three connectors, validates them and deploys them. */
@Command(name = "start", description = "Start a workflow: generate, validate and deploy its three connectors.",
        subcommands = {StartCommand.OnlineDdl.class, StartCommand.Clone.class, StartCommand.Reshard.class}, mixinStandardHelpOptions = true)
final class StartCommand implements Callable<Integer> {
    @Spec
    CommandSpec startSpec;

    /** {@code vsc start} alone: the usage, as a usage error. */
    @Override
    public Integer call() {
        startSpec.commandLine().getErr().println("vsc start: say which workflow: online-ddl, clone or reshard");
        startSpec.commandLine().usage(startSpec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** What both workflows take. */
    static class Shared {
        @Mixin
        ClusterOptions cluster;

        @Spec
        CommandSpec spec;

        @Option(names = "--name", required = true, paramLabel = "W",
                description = "The workflow: the coordinator connector's name (and the migration id); the source"
                        + " and sink are W-source and W-sink.")
        String name;

        @Option(names = "--keyspace", required = true, paramLabel = "K", description = "The keyspace.")
        String keyspace;

        @Option(names = "--database", paramLabel = "DB", description = "The database on the shards (default: the keyspace).")
        String database;

        @Option(names = "--user", required = true, paramLabel = "U", description = "The user on the shards.")
        String user;

        @Option(names = "--password-file", paramLabel = "F",
                description = "A local file whose first line is U's password (put into the configs).")
        Path passwordFile;

        @Option(names = "--password-ref", paramLabel = "REF",
                description = "Instead: a reference the workers resolve, e.g."
                        + " '$${file:/etc/kafka-connect/secrets.properties:vstream.password}'.")
        String passwordRef;

        @Option(names = "--postpone", description = "Hold the cut-over until 'vsc cutover W'.")
        boolean postpone;

        @Option(names = "--status-topic", defaultValue = "vstream.status", paramLabel = "TOPIC",
                description = "The coordinator's status topic (default ${DEFAULT-VALUE}).")
        String statusTopic;

        @Option(names = "--topic-prefix", paramLabel = "P", description = "The source's topic prefix (default: W).")
        String topicPrefix;

        @Option(names = "--replication-factor", defaultValue = "-1", paramLabel = "N",
                description = "Replication factor of the topics Connect creates (default ${DEFAULT-VALUE}: the broker's).")
        String replicationFactor;

        @Option(names = "--watch-url", paramLabel = "URL",
                description = "The Connect REST API as the coordinator's worker reaches it, through which it watches"
                        + " the workflow's source and sink (a failed task fails the workflow with its error;"
                        + " default: --connect-url).")
        String watchUrl;

        @Option(names = "--set", paramLabel = "ROLE:KEY=VALUE",
                description = "Override or add a key of one connector (role source, sink or coordinator); repeatable.")
        List<String> overrides = new ArrayList<>();

        @Option(names = "--ssl-mode", paramLabel = "MODE",
                description = "TLS to every server of the workflow: disable, trust, verify-ca or verify-full (default:"
                        + " the connectors' own, disable); see docs/tls.md.")
        String sslMode;

        @Option(names = "--ssl-ca", paramLabel = "FILE",
                description = "The PEM file of the CA that signed the servers' certificates, at this path on every"
                        + " worker (for verify-ca and verify-full).")
        String sslCa;

        @Option(names = "--dry-run", description = "Print the configurations (passwords masked) and deploy nothing.")
        boolean dryRun;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        WorkflowConfigs.Common common() {
            return new WorkflowConfigs.Common(name, statusTopic, topicPrefix, replicationFactor,
                    WorkflowConfigs.overrides(overrides), watchUrl == null || watchUrl.isBlank() ? cluster.connectUrl
                    : watchUrl, new WorkflowConfigs.Tls(sslMode, sslCa));
        }

        String password() {
            return Secrets.one("--password-file", passwordFile, "--password-ref", passwordRef, true);
        }
    }

    @Command(name = "online-ddl", mixinStandardHelpOptions = true,
            description = "Run an ALTER TABLE online on every shard (docs/online-ddl.md).")
    static final class OnlineDdl extends Shared implements Callable<Integer> {
        @Option(names = "--table", required = true, paramLabel = "T", description = "The table to alter.")
        String table;

        @Option(names = "--alter", required = true, paramLabel = "SQL",
                description = "'ALTER TABLE T ...' or just what follows it.")
        String alter;

        @Option(names = "--shards", required = true, paramLabel = "SHARD=HOST:PORT,...",
                description = "The shards, e.g. -80=10.0.0.1:3306,80-=10.0.0.2:3306.")
        String shards;

        @Option(names = "--cutover-mode", defaultValue = "all-at-once", paramLabel = "MODE",
                description = "all-at-once or per-shard (default ${DEFAULT-VALUE}).")
        String cutoverMode;

        @Option(names = "--lock-timeout-ms", defaultValue = "3000", paramLabel = "MS",
                description = "The longest a cut-over blocks writes (default ${DEFAULT-VALUE}).")
        long lockTimeoutMs;

        @Option(names = "--revert-window-ms", defaultValue = "0", paramLabel = "MS",
                description = "ddl.revert.window.ms: keep the original table in sync with the new one this long after"
                        + " the cut-over, until 'vsc release W' (default ${DEFAULT-VALUE}: no revert window).")
        long revertWindowMs;

        @Option(names = "--heartbeat-ms", defaultValue = "200", paramLabel = "MS",
                description = "The source's heartbeat interval (default ${DEFAULT-VALUE}).")
        long heartbeatMs;

        @Override
        public Integer call() {
            LinkedHashMap<String, HostPort> parsed = Endpoints.shards("--shards", shards);
            var configs = WorkflowConfigs.onlineDdl(new WorkflowConfigs.OnlineDdl(common(), keyspace, database,
                    table, alter, parsed, user, password(), postpone, cutoverMode, lockTimeoutMs, heartbeatMs,
                    revertWindowMs));
            return Deployer.run(cluster, name, configs, dryRun, json, spec.commandLine().getOut());
        }
    }

    @Command(name = "clone", mixinStandardHelpOptions = true,
            description = "Clone one shard into an empty server and hand it over to native replication (docs/clone.md).")
    static final class Clone extends Shared implements Callable<Integer> {
        @Option(names = "--source", required = true, paramLabel = "HOST:PORT",
                description = "The server to clone (one shard's); it is streamed as an unsharded keyspace.")
        String source;

        @Option(names = "--target", required = true, paramLabel = "HOST:PORT", description = "The empty target server.")
        String target;

        @Option(names = "--tables", paramLabel = "REGEX,...", description = "table.include.list (default: every table).")
        String tables;

        @Option(names = "--target-user", required = true, paramLabel = "U",
                description = "The coordinator's user on the target (runs the hand-off).")
        String targetUser;

        @Option(names = "--target-password-file", paramLabel = "F")
        Path targetPasswordFile;

        @Option(names = "--target-password-ref", paramLabel = "REF")
        String targetPasswordRef;

        @Option(names = "--applier-user", paramLabel = "U", description = "The sink's user on the target (default: --target-user).")
        String applierUser;

        @Option(names = "--applier-password-file", paramLabel = "F")
        Path applierPasswordFile;

        @Option(names = "--applier-password-ref", paramLabel = "REF")
        String applierPasswordRef;

        @Option(names = "--replication-user", required = true, paramLabel = "U",
                description = "The user the target replicates as.")
        String replicationUser;

        @Option(names = "--replication-password-file", paramLabel = "F")
        Path replicationPasswordFile;

        @Option(names = "--replication-password-ref", paramLabel = "REF")
        String replicationPasswordRef;

        @Option(names = "--table-engine", defaultValue = "InnoDB", paramLabel = "ENGINE",
                description = "Storage engine of the target's tables (default ${DEFAULT-VALUE}).")
        String tableEngine;

        @Override
        public Integer call() {
            HostPort src = Endpoints.hostPort("--source", source);
            HostPort tgt = Endpoints.hostPort("--target", target);
            String targetPassword = Secrets.one("--target-password-file", targetPasswordFile, "--target-password-ref",
                    targetPasswordRef, true);
            String applierPassword = Secrets.one("--applier-password-file", applierPasswordFile,
                    "--applier-password-ref", applierPasswordRef, applierUser != null);
            String replicationPassword = Secrets.one("--replication-password-file", replicationPasswordFile,
                    "--replication-password-ref", replicationPasswordRef, true);
            var configs = WorkflowConfigs.clone(new WorkflowConfigs.Clone(common(), keyspace, database, src,
                    tgt, tables, user, password(), applierUser, applierPassword, targetUser, targetPassword,
                    replicationUser, replicationPassword, tableEngine, postpone));
            return Deployer.run(cluster, name, configs, dryRun, json, spec.commandLine().getOut());
        }
    }

    @Command(name = "reshard", mixinStandardHelpOptions = true,
            description = "Split or merge the keyspace's shards, switched with a journal (docs/reshard.md).")
    static final class Reshard extends Shared implements Callable<Integer> {
        @Option(names = "--from", required = true, paramLabel = "SHARD=HOST:PORT,...",
                description = "The old shards, e.g. -=10.0.0.1:3306.")
        String from;

        @Option(names = "--to", required = true, paramLabel = "SHARD=HOST:PORT,...",
                description = "The new (empty) shards, e.g. -80=10.0.0.2:3306,80-=10.0.0.3:3306.")
        String to;

        @Option(names = "--vindex", defaultValue = "hash", paramLabel = "V",
                description = "The vindex of the sharding columns (default ${DEFAULT-VALUE}).")
        String vindex;

        @Option(names = "--columns", paramLabel = "TABLE:COLUMN,...", description = "Each table's sharding column.")
        String columns;

        @Option(names = "--column-default", paramLabel = "COLUMN",
                description = "The sharding column of tables --columns does not list.")
        String columnDefault;

        @Override
        public Integer call() {
            var configs = WorkflowConfigs.reshard(new WorkflowConfigs.Reshard(common(), keyspace, database,
                    Endpoints.shards("--from", from), Endpoints.shards("--to", to), vindex, columns, columnDefault,
                    user, password(), postpone));
            return Deployer.run(cluster, name, configs, dryRun, json, spec.commandLine().getOut());
        }
    }
}
