package io.vstream.connect.quickstart;

import io.vstream.connect.core.event.TopicNames;
import io.vstream.connect.local.KafkaClasspath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * What to look at after a run: the REST calls, the topics, a ready console-consumer command (a script in the run
 * directory that runs Kafka's {@code ConsoleConsumer} on the broker's classpath) and the shards. Writes the script;
 * prints the rest.
 */
final class NextSteps {
    private final Console out;
    private final Settings settings;
    private final Path runDir;
    private final String restUrl;
    private final String bootstrapServers;

    NextSteps(Console out, Settings settings, Path runDir, String restUrl, String bootstrapServers) {
        this.out = out;
        this.settings = settings;
        this.runDir = runDir;
        this.restUrl = restUrl;
        this.bootstrapServers = bootstrapServers;
    }

    /** {@code <run>/bin/kafka-console-consumer}, pointed at the broker, quiet unless something goes wrong. */
    void writeConsumerScript(KafkaClasspath classpath) {
        Path bin = runDir.resolve("bin");
        Path script = bin.resolve("kafka-console-consumer");
        Path logConfig = bin.resolve("log4j2.properties");
        Path classpathFile = runDir.resolve("kafka.classpath");
        try {
            Files.createDirectories(bin);
            Files.writeString(classpathFile, classpath.asArgument());
            Files.writeString(logConfig, String.join("\n", "rootLogger.level=WARN",
                    "rootLogger.appenderRef.err.ref=ERR",
                    "appender.err.type=Console", "appender.err.name=ERR", "appender.err.target=SYSTEM_ERR",
                    "appender.err.layout.type=PatternLayout", "appender.err.layout.pattern=%p %m%n", ""));
            Files.writeString(script, String.join("\n",
                    "#!/bin/sh",
                    "# Kafka's console consumer against the quickstart's broker (Kafka's jars, from Maven)",
                    "exec java -cp \"$(cat '" + classpathFile + "')\" -Dlog4j2.configurationFile='" + logConfig + "'"
                            + " org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server " + bootstrapServers
                            + " \"$@\"",
                    ""));
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void print(Map<String, String> cdc, String workflow, String statusTopic, List<MariaDbShard> shards) {
        String first = TopicNames.shardTopic(cdc.get("topic.prefix"), cdc.get("keyspace"), shards.get(0).shard());
        String second = TopicNames.shardTopic(cdc.get("topic.prefix"), cdc.get("keyspace"), shards.get(1).shard());
        Path rel = settings.repo().relativize(runDir);
        String dir = rel.toString().startsWith("..") ? runDir.toString() : rel.toString();
        out.plain("");
        out.plain("What to look at next%s:",
                settings.keep() ? "" : " (with ./quickstart --keep, which leaves it running)");
        out.plain("  REST API        curl -s %s/connectors?expand=status", restUrl);
        out.plain("  connector state curl -s %s/connectors/%s/status", restUrl, workflow);
        out.plain("  topics          %s and %s (CDC), ddl-orders.commerce.* (the ALTER's stream), %s", first, second,
                statusTopic);
        out.plain("  consume         %s/bin/kafka-console-consumer --topic %s --from-beginning --max-messages 5", dir,
                first);
        out.plain("  workflow        %s/bin/kafka-console-consumer --topic %s --from-beginning --timeout-ms 3000", dir,
                statusTopic);
        out.plain("  the shards      mariadb -h127.0.0.1 -P%d -uroot commerce -e 'SHOW CREATE TABLE orders'"
                + "   (and -P%d)", shards.get(0).port(), shards.get(1).port());
        out.plain("  logs            %s/kafka/kafka.log, %s/connect/connect.log, %s/shard_*/mariadbd.log", dir, dir,
                dir);
    }
}
