package io.jupiter.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One frame captured on the wire from the real Jupiter 1.3.1 (see {@code vectors/jupiter-1.3.1/README.md} in the
 * project's shared material; the JSON files are copied into this module's resources).
 *
 * @param name      unique name, e.g. {@code protostuff/request/pojo}
 * @param file      the JSON file it came from
 * @param serializer {@code protostuff}, {@code hessian}, {@code kryo}, {@code java} or {@code none}
 * @param frame     the whole frame, header and body
 * @param expect    {@code byte-identical}, {@code byte-identical-after-name-mapping} or {@code decode-only}
 * @param json      the whole vector, for {@code header}, {@code decoded} and the rest
 */
public record WireVector(String name, String file, String serializer, byte[] frame, String expect, JsonNode json) {

    /** Files in {@code vectors/jupiter-1.3.1/}. */
    public static final List<String> FILES = List.of(
            "requests-protostuff.json", "responses-protostuff.json",
            "requests-hessian.json", "responses-hessian.json",
            "requests-kryo.json", "responses-kryo.json",
            "requests-java.json", "responses-java.json",
            "heartbeat.json", "registry.json");

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Every vector of every file (213). */
    public static List<WireVector> all() {
        List<WireVector> vectors = new ArrayList<>();
        for (String file : FILES) {
            vectors.addAll(load(file));
        }
        return vectors;
    }

    /** The vectors of one file. */
    public static List<WireVector> load(String file) {
        String resource = "/vectors/jupiter-1.3.1/" + file;
        try (InputStream in = WireVector.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            JsonNode root = MAPPER.readTree(in);
            List<WireVector> vectors = new ArrayList<>();
            for (JsonNode v : root.get("vectors")) {
                vectors.add(new WireVector(v.get("name").asText(), file, v.get("serializer").asText(),
                        HexFormat.of().parseHex(v.get("frameHex").asText()), v.get("expect").asText(), v));
            }
            return vectors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The body: the frame without its 16-byte header. */
    public byte[] body() {
        byte[] body = new byte[frame.length - 16];
        System.arraycopy(frame, 16, body, 0, body.length);
        return body;
    }

    /** The {@code header} object. */
    public JsonNode header() {
        return json.get("header");
    }

    /** The {@code decoded} value, or {@code null}. */
    public JsonNode decoded() {
        return json.get("decoded");
    }

    @Override
    public String toString() {
        return name;
    }
}
