package io.vstream.connect.quickstart;

import java.nio.file.Path;
import java.util.List;

/**
 * What a failed run prints once its workflow was deployed: where the workflow says why (its status topic, the
 * coordinator's and the tasks' state through the REST API, {@code vsc status}), the worker's log, and how to run
 * again with more time or keep everything for a look. No I/O beyond printing.
 */
record FailureHelp(String restUrl, String bootstrapServers, Path workerLog, String workflow, String statusTopic,
                   List<String> connectors) {

    void print(boolean kept) {
        System.out.println();
        System.out.println("Where to look:");
        System.out.println("  the workflow    ./vsc status " + workflow + " --connect-url " + restUrl
                + " --bootstrap-servers " + bootstrapServers + "   (state, progress, the reason it stopped)");
        for (String c : connectors) {
            System.out.println("  connector       curl -s " + restUrl + "/connectors/" + c + "/status");
        }
        System.out.println("  status records  topic " + statusTopic + " on " + bootstrapServers);
        System.out.println("  the worker log  " + workerLog);
        System.out.println(kept ? "Everything is still running (--keep); ./quickstart --stop ends it."
                : "Run again with --keep to leave it all running for a look, or --timeout S on a slow machine.");
    }
}
