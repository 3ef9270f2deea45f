package io.vstream.connect.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import picocli.CommandLine.Option;

/** Where the Connect cluster and its Kafka are: the options every command that talks to them takes. */
public final class ClusterOptions {
    @Option(names = "--connect-url", paramLabel = "URL", defaultValue = "${env:VSC_CONNECT_URL:-http://localhost:8083}",
            description = "A Connect worker's REST API (env VSC_CONNECT_URL; default ${DEFAULT-VALUE}).")
    String connectUrl;

    @Option(names = "--connect-user", paramLabel = "USER", defaultValue = "${env:VSC_CONNECT_USER}",
            description = "Basic-auth user of the REST API (env VSC_CONNECT_USER).")
    String connectUser;

    @Option(names = "--connect-password-file", paramLabel = "FILE",
            description = "File holding the basic-auth password (first line; env VSC_CONNECT_PASSWORD instead).")
    Path connectPasswordFile;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT,...",
            defaultValue = "${env:VSC_BOOTSTRAP_SERVERS:-localhost:9092}",
            description = "Kafka, to read the status topic (env VSC_BOOTSTRAP_SERVERS; default ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--kafka-config", paramLabel = "FILE",
            description = "Consumer properties for Kafka (security.protocol, sasl.*, ssl.*).")
    Path kafkaConfig;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "30000",
            description = "How long to wait for the REST API or Kafka before giving up with exit 3 (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    public ConnectRestClient rest() {
        String password = null;
        if (connectPasswordFile != null) {
            password = Secrets.readFile("--connect-password-file", connectPasswordFile);
        } else if (System.getenv("VSC_CONNECT_PASSWORD") != null) {
            password = System.getenv("VSC_CONNECT_PASSWORD");
        }
        return new ConnectRestClient(connectUrl, connectUser, password, Duration.ofMillis(timeoutMs));
    }

    public StatusReader statusReader() {
        Properties extra = new Properties();
        if (kafkaConfig != null) {
            try (Reader r = Files.newBufferedReader(kafkaConfig)) {
                extra.load(r);
            } catch (IOException e) {
                throw CliException.usage("--kafka-config " + kafkaConfig + ": " + e.getMessage());
            }
        }
        return new StatusReader(bootstrapServers, extra, Duration.ofMillis(timeoutMs));
    }
}
