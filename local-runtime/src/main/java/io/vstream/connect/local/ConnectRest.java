package io.vstream.connect.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The Kafka Connect REST API of one worker, as a user drives it with curl: list plugins, PUT a connector's config,
 * read its status, delete it. Retries what a worker answers while it rebalances (409, 503).
 */
public final class ConnectRest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final String url;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ConnectRest(String url) {
        this.url = url;
    }

    public String url() {
        return url;
    }

    /** True once {@code GET /connectors} answers 200. */
    boolean isReady() {
        try {
            return send(HttpRequest.newBuilder(URI.create(url + "/connectors"))).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code GET /connector-plugins?connectorsOnly=true}: each with its class, type and version. */
    public JsonNode connectorPlugins() {
        return getJson("/connector-plugins?connectorsOnly=true");
    }

    /** {@code PUT /connectors/{name}/config}: creates or updates the connector. */
    public void putConfig(String name, Map<String, String> config) {
        String body;
        try {
            body = JSON.writeValueAsString(config);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url + "/connectors/" + name + "/config"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = retrying(req, Duration.ofSeconds(60));
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("PUT /connectors/" + name + "/config answered " + r.statusCode() + ": "
                    + r.body());
        }
    }

    /** {@code GET /connectors/{name}/status}, or null while the connector is unknown. */
    public JsonNode status(String name) {
        HttpResponse<String> r = retrying(HttpRequest.newBuilder(URI.create(url + "/connectors/" + name + "/status")),
                Duration.ofSeconds(30));
        return r.statusCode() == 404 ? null : parse(r);
    }

    /** Waits until the connector and {@code tasks} tasks are RUNNING; fails with a failed task's trace. */
    public void awaitRunning(String name, int tasks, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = status(name);
            if (last != null) {
                int running = 0;
                for (JsonNode t : last.path("tasks")) {
                    if ("FAILED".equals(t.path("state").asText())) {
                        throw new IllegalStateException("A task of " + name + " failed: " + t.path("trace").asText());
                    }
                    running += "RUNNING".equals(t.path("state").asText()) ? 1 : 0;
                }
                if ("RUNNING".equals(last.path("connector").path("state").asText()) && running >= tasks) {
                    return;
                }
            }
            Sleeper.sleep(300);
        }
        throw new IllegalStateException(name + " is not running with " + tasks + " task(s) after " + timeout.toSeconds()
                + " s: " + last);
    }

    /** {@code DELETE /connectors/{name}}; a connector that is not there is no error. */
    public void delete(String name) {
        HttpResponse<String> r = retrying(HttpRequest.newBuilder(URI.create(url + "/connectors/" + name)).DELETE(),
                Duration.ofSeconds(30));
        if (r.statusCode() / 100 != 2 && r.statusCode() != 404) {
            throw new IllegalStateException("DELETE /connectors/" + name + " answered " + r.statusCode() + ": "
                    + r.body());
        }
    }

    private JsonNode getJson(String path) {
        return parse(retrying(HttpRequest.newBuilder(URI.create(url + path)), Duration.ofSeconds(30)));
    }

    private static JsonNode parse(HttpResponse<String> r) {
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(r.request().method() + " " + r.request().uri() + " answered "
                    + r.statusCode() + ": " + r.body());
        }
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new IllegalStateException("Not JSON from " + r.request().uri() + ": " + r.body(), e);
        }
    }

    private HttpResponse<String> retrying(HttpRequest.Builder req, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                HttpResponse<String> r = send(req);
                boolean rebalancing = r.statusCode() == 409 || r.statusCode() == 503
                        || (r.statusCode() == 500 && r.body().contains("timed out"));
                if (!rebalancing || System.nanoTime() > deadline) {
                    return r;
                }
            } catch (ConnectException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The Connect worker at " + url + " does not answer", e);
                }
            } catch (IOException e) {
                throw new IllegalStateException("REST call to " + url + " failed: " + e, e);
            }
            Sleeper.sleep(500);
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder req) throws IOException {
        try {
            return http.send(req.timeout(Duration.ofSeconds(90)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
