package io.vstream.connect.quickstart;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The quickstart's options: the run directory, the ports (fixed defaults, each overridable, checked for being free
 * before anything starts), the size of the sample data, {@code --keep} and {@code --stop}. Pure logic apart from the
 * port check.
 */
record Settings(Path repo, Path runDir, List<Integer> shardPorts, int kafkaPort, int controllerPort, int connectPort,
                int orders, int loadTps, boolean keep, boolean stop, java.time.Duration migrationTimeout) {

    static final String USAGE = String.join("\n",
            "usage: ./quickstart [--keep] [--stop] [--dir DIR] [--shard-ports P1,P2] [--kafka-port P]",
            "                    [--controller-port P] [--connect-port P] [--orders N] [--tps N] [--timeout S]",
            "",
            "  --keep             leave everything running at the end (stop it later with ./quickstart --stop)",
            "  --stop             stop what a run with --keep left running, and exit",
            "  --dir DIR          the run directory (default .quickstart); it is wiped at the start of a run",
            "  --shard-ports      the two MariaDB shards' ports (default 3307,3308, as in config-examples/)",
            "  --kafka-port       Kafka's client port (default 9092); --controller-port its KRaft port (default 9093)",
            "  --connect-port     the Connect worker's REST port (default 8083)",
            "  --orders N         rows of the table the ALTER migrates, over both shards (default 50000)",
            "  --tps N            transactions per second of the live write load (default 100)",
            "  --timeout S        how long the online ALTER may take before the run fails (default 900 s; a loaded",
            "                     machine copies slower, and the copy waits while the applier lags)");

    static Settings parse(Path repo, String[] args) {
        Path dir = repo.resolve(".quickstart");
        List<Integer> shardPorts = List.of(3307, 3308);
        int kafka = 9092;
        int controller = 9093;
        int connect = 8083;
        int orders = 50_000;
        int tps = 100;
        int timeout = 900;
        boolean keep = false;
        boolean stop = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--keep" -> keep = true;
                case "--stop" -> stop = true;
                case "--dir" -> dir = Path.of(value(args, ++i, a)).toAbsolutePath();
                case "--shard-ports" -> {
                    String[] p = value(args, ++i, a).split(",");
                    if (p.length != 2) {
                        throw new IllegalArgumentException("--shard-ports takes two ports, e.g. 3307,3308");
                    }
                    shardPorts = List.of(port(p[0], a), port(p[1], a));
                }
                case "--kafka-port" -> kafka = port(value(args, ++i, a), a);
                case "--controller-port" -> controller = port(value(args, ++i, a), a);
                case "--connect-port" -> connect = port(value(args, ++i, a), a);
                case "--orders" -> orders = Integer.parseInt(value(args, ++i, a));
                case "--tps" -> tps = Integer.parseInt(value(args, ++i, a));
                case "--timeout" -> timeout = Integer.parseInt(value(args, ++i, a));
                case "-h", "--help" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
            }
        }
        if (timeout <= 0) {
            throw new IllegalArgumentException("--timeout takes a number of seconds above 0, e.g. --timeout 1800");
        }
        return new Settings(repo, dir, shardPorts, kafka, controller, connect, orders, tps, keep, stop,
                java.time.Duration.ofSeconds(timeout));
    }

    /** Each port with its role. */
    Map<String, Integer> ports() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("MariaDB shard -80", shardPorts.get(0));
        m.put("MariaDB shard 80-", shardPorts.get(1));
        m.put("Kafka", kafkaPort);
        m.put("Kafka controller", controllerPort);
        m.put("Connect REST", connectPort);
        return m;
    }

    /** Fails naming every port that is taken and the option that moves it. */
    void checkPortsFree() {
        List<String> taken = new ArrayList<>();
        for (Map.Entry<String, Integer> e : ports().entrySet()) {
            try (ServerSocket s = new ServerSocket(e.getValue(), 1, InetAddress.getByName("127.0.0.1"))) {
                s.setReuseAddress(true);
            } catch (IOException ex) {
                taken.add(e.getKey() + " port " + e.getValue());
            }
        }
        if (!taken.isEmpty()) {
            throw new IllegalStateException("in use: " + String.join(", ", taken) + ". Stop what uses it, or choose"
                    + " other ports (--shard-ports, --kafka-port, --controller-port, --connect-port; see --help)");
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    private static int port(String s, String option) {
        int p = Integer.parseInt(s.strip());
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException(option + ": " + s + " is not a port");
        }
        return p;
    }
}
