package io.vstream.connect.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Asks a Connect cluster's REST API how the workflow's connectors and tasks are ({@code GET
 * /connectors/{name}/status}) and hands the answers to {@link ConnectorHealth}. Touches the Connect REST API only.
 */
final class ConnectorWatch {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final List<URI> bases;
    private final List<String> connectors;
    private final HttpClient http;
    private final String authorization;
    private volatile List<String> summaries = List.of();

    /** {@code authorization} is the value of an {@code Authorization} header, or null for none (never logged). */
    /** The connectors' Connect status at the last check that got an answer (one line each). */
    List<String> summaries() {
        return summaries;
    }

    ConnectorWatch(List<String> urls, List<String> connectors, String authorization) {
        this.bases = urls.stream().map(u -> URI.create(u.endsWith("/") ? u : u + "/")).toList();
        this.connectors = List.copyOf(connectors);
        this.authorization = authorization;
        this.http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    }

    /**
     * The verdict now, asking each URL in turn until one answers.
     *
     * @throws IOException when no URL answers (the workflow's state is then left as it is)
     */
    ConnectorHealth.Verdict check() throws IOException, InterruptedException {
        IOException last = null;
        for (URI base : bases) {
            try {
                Map<String, JsonNode> statuses = new LinkedHashMap<>();
                for (String name : connectors) {
                    statuses.put(name, status(base, name));
                }
                summaries = ConnectorHealth.summaries(statuses);
                return ConnectorHealth.judge(statuses);
            } catch (IOException e) {
                last = e;
            }
        }
        throw last == null ? new IOException("no watch.connect.url") : last;
    }

    private JsonNode status(URI base, String name) throws IOException, InterruptedException {
        URI uri = base.resolve("connectors/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20")
                + "/status");
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json").GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return null;
        }
        if (r.statusCode() / 100 != 2) {
            throw new IOException("GET " + uri + " answered " + r.statusCode() + (r.statusCode() == 401
                    ? " (set watch.connect.user and watch.connect.password)" : "") + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }
}
