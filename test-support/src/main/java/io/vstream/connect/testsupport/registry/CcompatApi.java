package io.vstream.connect.testsupport.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of a schema registry's Confluent-compatible REST API ({@code .../apis/ccompat/v7} on Apicurio), the API
 * a plain consumer uses to fetch writer schemas by id: subjects, versions, schemas by id, compatibility level and
 * compatibility checks. Only what the tests read; every failure names the request and the registry's answer.
 */
public final class CcompatApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public CcompatApi(String baseUrl) {
        this.baseUrl = baseUrl.replaceAll("/$", "");
    }

    /** One registered schema version: {@code GET /subjects/{s}/versions/{v}}. */
    public record SchemaVersion(String subject, int version, int id, String schema) {
    }

    /** {@code GET /subjects}. */
    public List<String> subjects() {
        return strings(get("/subjects"));
    }

    /** {@code GET /subjects/{subject}/versions}: the version numbers, oldest first. */
    public List<Integer> versions(String subject) {
        List<Integer> out = new ArrayList<>();
        get("/subjects/" + encode(subject) + "/versions").forEach(n -> out.add(n.asInt()));
        return out;
    }

    /** {@code GET /subjects/{subject}/versions/{version}} ({@code version} may be {@code latest}). */
    public SchemaVersion version(String subject, String version) {
        JsonNode n = get("/subjects/" + encode(subject) + "/versions/" + version);
        return new SchemaVersion(n.path("subject").asText(subject), n.path("version").asInt(), n.path("id").asInt(),
                n.path("schema").asText());
    }

    /** {@code GET /schemas/ids/{id}}: the schema text that the id in a record's wire format names. */
    public String schemaById(int id) {
        return get("/schemas/ids/" + id).path("schema").asText();
    }

    /** {@code GET /config}: the global compatibility level. */
    public String globalCompatibility() {
        return get("/config").path("compatibilityLevel").asText();
    }

    /** {@code PUT /config}: sets the global compatibility level ({@code BACKWARD}, {@code FULL}, {@code NONE}...). */
    public void setGlobalCompatibility(String level) {
        ObjectNode body = JSON.createObjectNode().put("compatibility", level);
        send("PUT", "/config", body.toString());
    }

    /**
     * {@code POST /compatibility/subjects/{subject}/versions/{version}}: whether {@code avroSchema} may be registered
     * after that version under the subject's (or the global) compatibility level.
     */
    public boolean isCompatible(String subject, String version, String avroSchema) {
        ObjectNode body = JSON.createObjectNode().put("schema", avroSchema);
        return send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/" + version, body.toString())
                .path("is_compatible").asBoolean();
    }

    private JsonNode get(String path) {
        return send("GET", path, null);
    }

    private JsonNode send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", CONTENT_TYPE + ", application/json");
        if (body != null) {
            request.header("Content-Type", CONTENT_TYPE);
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(method + " " + baseUrl + path + " answered HTTP "
                        + response.statusCode() + ": " + response.body());
            }
            return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + baseUrl + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: " + method + " " + baseUrl + path, e);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
