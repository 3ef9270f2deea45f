package io.vstream.connect.testsupport.db;

import io.vstream.connect.local.DataDirTemplate;
import io.vstream.connect.local.MariaDbBinaries;
import io.vstream.connect.local.MariaDbConfig;
import io.vstream.connect.local.MariaDbProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A set of MariaDB shards for tests: N {@code mariadbd} processes (see {@link MariaDbServer}) started once
 * per test class and always stopped, plus replicas on demand. Register it on a static field
 * ({@code @RegisterExtension static final MariaDbShards SHARDS = MariaDbShards.builder().count(2).build();}
 * starts in {@code beforeAll}; {@code MariaDbShards.start(2)} starts at once), or use
 * {@link #start()}/{@link #close()} directly for a suite or a benchmark. Datadirs live under
 * {@code target/mariadb/<name>-<n>-<random>} of the working directory (the module under Maven); touches only
 * the servers it started. The servers are launched by local-runtime ({@link MariaDbProcess}, {@link MariaDbConfig},
 * {@link DataDirTemplate}), as the quickstart's shards are.
 */
public final class MariaDbShards implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MariaDbShards.class);

    private final int count;
    private final List<String> extraConfig;
    private final int gtidDomainId;
    private final int maxConnections;
    private final Path baseDir;
    private final boolean keepData;
    private final List<MariaDbServer> primaries = new ArrayList<>();
    private final List<MariaDbServer> replicas = new ArrayList<>();
    private final String runId = UUID.randomUUID().toString().substring(0, 6);
    private String name;
    private boolean started;
    private volatile String currentTest;

    private MariaDbShards(Builder options) {
        this.count = options.count;
        this.extraConfig = List.copyOf(options.extraConfig);
        this.gtidDomainId = options.gtidDomainId;
        this.maxConnections = options.maxConnections;
        this.baseDir = options.baseDir.toAbsolutePath();
        this.keepData = options.keepData;
        this.name = options.name;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts {@code count} shards now, named after the calling class. */
    public static MariaDbShards start(int count) {
        String caller = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .getCallerClass().getSimpleName();
        return builder().count(count).name(caller.isEmpty() ? "shards" : caller).build().start();
    }

    /** Starts the shards if they are not running yet; idempotent. */
    public synchronized MariaDbShards start() {
        if (started) {
            return this;
        }
        long begin = System.nanoTime();
        started = true;
        try {
            for (int i = 0; i < count; i++) {
                primaries.add(launch());
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("Started {} MariaDB shard(s) for {} in {} ms", count, name,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
        return this;
    }

    /** The shard primary at {@code index} (0-based). */
    public synchronized MariaDbServer server(int index) {
        requireStarted();
        return primaries.get(index);
    }

    /** The shard primaries, in index order (replicas are not included). */
    public synchronized List<MariaDbServer> servers() {
        requireStarted();
        return List.copyOf(primaries);
    }

    public int size() {
        return count;
    }

    /** Starts another server that replicates from shard {@code primaryIndex} with GTIDs; closed with the shards. */
    public synchronized MariaDbServer startReplica(int primaryIndex) {
        MariaDbServer primary = server(primaryIndex);
        MariaDbServer replica = launch();
        replicas.add(replica);
        replica.replicateFrom(primary);
        return replica;
    }

    /** Creates the same fresh database on every shard, named after the running test method. */
    public String freshDatabase() {
        String test = currentTest;
        return freshDatabase(test == null ? "db" : test);
    }

    /** Creates the same fresh database on every shard (a keyspace), named after {@code hint}. */
    public synchronized String freshDatabase(String hint) {
        requireStarted();
        String database = DatabaseNames.next(hint);
        primaries.forEach(server -> server.createDatabase(database));
        return database;
    }

    /** Stops every server (in parallel: shutdown is requested of all first) and prunes their datadirs. */
    @Override
    public synchronized void close() {
        List<MariaDbServer> all = new ArrayList<>(replicas);
        all.addAll(primaries);
        all.forEach(server -> {
            try {
                server.requestShutdown();
            } catch (RuntimeException e) {
                LOG.warn("Could not request the shutdown of {}", server, e);
            }
        });
        RuntimeException failure = null;
        for (MariaDbServer server : all) {
            try {
                server.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        replicas.clear();
        primaries.clear();
        started = false;
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        synchronized (this) {
            if (name == null) {
                name = context.getRequiredTestClass().getSimpleName();
            }
        }
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        currentTest = context.getTestMethod().map(m -> m.getName()).orElse(context.getDisplayName());
    }

    private MariaDbServer launch() {
        int index = primaries.size() + replicas.size();
        String serverName = (name == null ? "shards" : name) + "-" + index + "-" + runId;
        Path datadir = baseDir.resolve(serverName);
        MariaDbBinaries binaries = MariaDbBinaries.find();
        try {
            Files.createDirectories(baseDir);
            DataDirTemplate.copyTo(datadir, baseDir, binaries);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prepare the datadir " + datadir, e);
        }
        MariaDbConfig config = MariaDbConfig.inDatadir(datadir, socketPath(datadir), MariaDbServer.freePort(),
                ServerIds.next(), gtidDomainId, maxConnections, extraConfig);
        MariaDbServer server = new MariaDbServer(serverName, config,
                new MariaDbProcess(serverName, binaries.mariadbd(), config, null, true), keepData);
        try {
            server.start();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** In the datadir, unless that path is too long for a Unix socket (108 bytes). */
    private static Path socketPath(Path datadir) {
        Path inDatadir = datadir.resolve("mariadbd.sock");
        return inDatadir.toString().length() < 100 ? inDatadir
                : Path.of(System.getProperty("java.io.tmpdir"), "vstream-" + UUID.randomUUID() + ".sock");
    }

    private void requireStarted() {
        if (!started) {
            throw new IllegalStateException("The MariaDB shards are not started: register them on a static "
                    + "field with @RegisterExtension, or call start()");
        }
    }

    /** Options of a {@link MariaDbShards}. */
    public static final class Builder {
        private int count = 1;
        private final List<String> extraConfig = new ArrayList<>();
        private int gtidDomainId;
        private int maxConnections = 200;
        private String name;
        private Path baseDir = Path.of("target", "mariadb");
        private boolean keepData = Boolean.getBoolean("vstream.mariadb.keepData");

        private Builder() {
        }

        /** The number of shard primaries (default 1). */
        public Builder count(int shards) {
            if (shards < 1) {
                throw new IllegalArgumentException("count must be at least 1, was " + shards);
            }
            this.count = shards;
            return this;
        }

        /** Lines appended to {@code [mysqld]} of every server, e.g. {@code "performance_schema=ON"}. */
        public Builder extraConfig(String... lines) {
            extraConfig.addAll(List.of(lines));
            return this;
        }

        /** The {@code gtid_domain_id} of every server (default 0). */
        public Builder gtidDomainId(int domainId) {
            this.gtidDomainId = domainId;
            return this;
        }

        /** {@code max_connections} of every server (default 200). */
        public Builder maxConnections(int connections) {
            this.maxConnections = connections;
            return this;
        }

        /** The datadir name prefix (default: the test class's simple name). */
        public Builder name(String prefix) {
            this.name = prefix.replaceAll("[^A-Za-z0-9_.-]", "_");
            return this;
        }

        /** Where datadirs go (default {@code target/mariadb} of the working directory). */
        public Builder baseDir(Path dir) {
            this.baseDir = dir;
            return this;
        }

        /** Keep whole datadirs after close (default: only the log and config; {@code -Dvstream.mariadb.keepData=true}). */
        public Builder keepData(boolean keep) {
            this.keepData = keep;
            return this;
        }

        public MariaDbShards build() {
            return new MariaDbShards(this);
        }
    }
}
