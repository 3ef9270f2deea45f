package io.vstream.connect.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small client of the Kafka Connect REST API (any worker of the cluster): connectors, their configurations and
 * status, and config validation. JSON through Jackson, HTTP through the JDK's {@link HttpClient}; optional basic
 * auth. A worker that does not answer is {@link ExitCodes#UNREACHABLE}; an error answer is {@link ExitCodes#FAILURE}
 * with Connect's own message.
 */
public class ConnectRestClient {
    static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final String authorization;
    private final HttpClient http;
    private final Duration timeout;

    public ConnectRestClient(String url, String user, String password) {
        this(url, user, password, Duration.ofSeconds(30));
    }

    public ConnectRestClient(String url, String user, String password, Duration timeout) {
        String u = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        try {
            this.base = URI.create(u + "/");
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--connect-url " + url + " is not a URL: " + e.getMessage());
        }
        if (!"http".equalsIgnoreCase(base.getScheme()) && !"https".equalsIgnoreCase(base.getScheme())
                || base.getHost() == null) {
            throw CliException.usage("--connect-url " + url + " is not a URL of a Connect REST API: give"
                    + " http(s)://host:port, e.g. http://localhost:8083");
        }
        this.authorization = user == null || user.isEmpty() ? null : "Basic " + Base64.getEncoder().encodeToString(
                (user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public URI base() {
        return base;
    }

    /** {@code GET /connectors}: the connector names. */
    public List<String> connectors() {
        List<String> out = new ArrayList<>();
        send("GET", "connectors", null).forEach(n -> out.add(n.asText()));
        return out;
    }

    /** {@code GET /connectors?expand=info}: every connector's configuration, by name. */
    public Map<String, Map<String, String>> connectorConfigs() {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        JsonNode root = send("GET", "connectors?expand=info", null);
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            out.put(e.getKey(), toMap(e.getValue().path("info").path("config")));
        }
        return out;
    }

    /** {@code GET /connectors/{name}/config}, or a failure naming the connector when it does not exist. */
    public Map<String, String> config(String name) {
        return toMap(send("GET", "connectors/" + encode(name) + "/config", null));
    }

    /** {@code PUT /connectors/{name}/config}: creates or replaces the connector's configuration. */
    public void putConfig(String name, Map<String, String> config) {
        send("PUT", "connectors/" + encode(name) + "/config", JSON.valueToTree(config));
    }

    /** {@code GET /connectors/{name}/status}, or null when the connector does not exist. */
    public JsonNode status(String name) {
        try {
            return send("GET", "connectors/" + encode(name) + "/status", null);
        } catch (CliException e) {
            if (e.exitCode() == ExitCodes.FAILURE) {
                return null;
            }
            throw e;
        }
    }

    /** {@code PUT /connector-plugins/{class}/config/validate}. */
    public ValidationResult validate(String connectorClass, Map<String, String> config) {
        Map<String, String> c = new LinkedHashMap<>(config);
        c.put("connector.class", connectorClass);
        c.putIfAbsent("name", "vsc-validate");
        return ValidationResult.fromJson(send("PUT", "connector-plugins/" + encode(connectorClass)
                + "/config/validate", JSON.valueToTree(c)));
    }

    /**
     * One request; retried while the cluster answers that a rebalance is under way (409, or 500 "a rebalance is
     * expected": Connect's answer right after a connector is created or reconfigured), up to the timeout.
     */
    JsonNode send(String method, String path, JsonNode body) {
        URI uri = base.resolve(path);
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoffMs = 200;
        while (true) {
            HttpResponse<String> r = once(method, uri, body);
            JsonNode json = parse(r.body());
            if (r.statusCode() < 400) {
                return json == null ? JSON.createObjectNode() : json;
            }
            String message = json != null && json.hasNonNull("message") ? json.get("message").asText() : r.body();
            boolean rebalancing = r.statusCode() == 409
                    || (r.statusCode() == 500 && message != null && message.toLowerCase(java.util.Locale.ROOT)
                    .contains("rebalance"));
            if (rebalancing && System.nanoTime() + backoffMs * 1_000_000 < deadline) {
                sleep(backoffMs);
                backoffMs = Math.min(2_000, backoffMs * 2);
                continue;
            }
            if (r.statusCode() == 401 || r.statusCode() == 403) {
                message += " (give --connect-user and --connect-password-file)";
            }
            throw CliException.failure(method + " " + uri.getPath() + ": HTTP " + r.statusCode() + ": " + message);
        }
    }

    private HttpResponse<String> once(String method, URI uri, JsonNode body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json");
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
            b.method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw CliException.unreachable("the Connect REST API at " + base, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.unreachable("the Connect REST API at " + base, e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failure("interrupted");
        }
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            ObjectNode n = JSON.createObjectNode();
            n.put("message", body.strip());
            return n;
        }
    }

    static Map<String, String> toMap(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.properties().forEach(e -> out.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
        return out;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
