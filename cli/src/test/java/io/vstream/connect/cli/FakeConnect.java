package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A stand-in for a Connect worker's REST API: stores configs, answers validation from a table of errors, records requests. */
final class FakeConnect implements AutoCloseable {
    final HttpServer server;
    final Map<String, Map<String, String>> configs = new LinkedHashMap<>();
    final Map<String, String> validationErrors = new ConcurrentHashMap<>(); // key -> message, for every class
    final List<String> requests = new ArrayList<>();
    /** The next this many requests are answered as Connect does during a rebalance. */
    final java.util.concurrent.atomic.AtomicInteger rebalancing = new java.util.concurrent.atomic.AtomicInteger();

    FakeConnect() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            String method = ex.getRequestMethod();
            String path = ex.getRequestURI().getRawPath();
            String query = ex.getRequestURI().getRawQuery();
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (this) {
                requests.add(method + " " + path);
            }
            int code = 200;
            JsonNode answer;
            String[] parts = path.split("/");
            if (rebalancing.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                answer = error("Request cannot be completed because a rebalance is expected");
                code = 500;
            } else if (path.startsWith("/connector-plugins/") && path.endsWith("/config/validate")) {
                answer = validate(ConnectRestClient.JSON.readTree(body));
            } else if (path.equals("/connectors") && "expand=info".equals(query)) {
                ObjectNode n = ConnectRestClient.JSON.createObjectNode();
                synchronized (this) {
                    configs.forEach((name, c) -> n.putObject(name).putObject("info")
                            .set("config", ConnectRestClient.JSON.valueToTree(c)));
                }
                answer = n;
            } else if (parts.length == 4 && parts[3].equals("config") && method.equals("PUT")) {
                Map<String, String> c = ConnectRestClient.toMap(ConnectRestClient.JSON.readTree(body));
                synchronized (this) {
                    configs.put(java.net.URLDecoder.decode(parts[2], StandardCharsets.UTF_8), c);
                }
                answer = ConnectRestClient.JSON.valueToTree(c);
                code = 201;
            } else if (parts.length == 4 && parts[3].equals("config")) {
                Map<String, String> c = configs.get(parts[2]);
                answer = c == null ? error("Connector " + parts[2] + " not found") : ConnectRestClient.JSON.valueToTree(c);
                code = c == null ? 404 : 200;
            } else if (parts.length == 4 && parts[3].equals("status")) {
                boolean exists = configs.containsKey(parts[2]);
                answer = exists ? ConnectRestClient.JSON.readTree("{\"name\":\"" + parts[2] + "\",\"connector\":"
                        + "{\"state\":\"RUNNING\"},\"tasks\":[{\"id\":0,\"state\":\"RUNNING\"}]}")
                        : error("No status found for connector " + parts[2]);
                code = exists ? 200 : 404;
            } else {
                answer = error("not found");
                code = 404;
            }
            byte[] bytes = answer.toString().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(code, bytes.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(bytes);
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private JsonNode validate(JsonNode config) {
        ObjectNode root = ConnectRestClient.JSON.createObjectNode();
        root.put("name", config.path("connector.class").asText());
        var configsNode = root.putArray("configs");
        int errors = 0;
        var it = config.fieldNames();
        while (it.hasNext()) {
            String key = it.next();
            ObjectNode value = configsNode.addObject().putObject("value");
            value.put("name", key);
            var errs = value.putArray("errors");
            if (validationErrors.containsKey(key)) {
                errs.add(validationErrors.get(key));
                errors++;
            }
        }
        root.put("error_count", errors);
        root.putArray("groups");
        return root;
    }

    private static JsonNode error(String message) {
        ObjectNode n = ConnectRestClient.JSON.createObjectNode();
        n.put("error_code", 404);
        n.put("message", message);
        return n;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
