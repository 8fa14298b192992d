package io.jupiter.protocol.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.transport.Status;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Locale;

/**
 * The JSON of HTTP calls, with Jackson: a request body is a JSON array holding one value per parameter (empty, or
 * {@code []}, for a method without any), each read as its parameter's declared type; a result is written as JSON.
 *
 * <p>As strict as the binary protocol: the body is capped by the connection's body cap before it is parsed, nesting
 * by the server's {@link ReadLimits#maxDepth()}, one string by the body cap; no class name is read from the JSON (no
 * polymorphic typing), so only the method's declared parameter types are built, and unknown properties are refused.
 */
final class JsonCalls {

    private final ObjectMapper mapper;

    JsonCalls(int maxBodySize, ReadLimits limits) {
        JsonMapper json = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .build();
        json.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxDepth())
                .maxStringLength(maxBodySize)
                .maxDocumentLength(maxBodySize)
                .build());
        this.mapper = json;
    }

    /**
     * The arguments in {@code body} (a JSON array, or nothing); the number of values picks among overloads.
     *
     * @throws ForeignCallException BAD_REQUEST, saying what is wrong with the JSON
     */
    JsonNode[] values(InputStream body, boolean empty) {
        if (empty) {
            return new JsonNode[0];
        }
        JsonNode tree;
        try {
            tree = mapper.readTree(body);
        } catch (IOException e) {
            throw badJson(e);
        }
        if (tree == null || tree.isMissingNode()) {
            return new JsonNode[0];
        }
        if (!tree.isArray()) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "the body is a JSON " + tree.getNodeType()
                    .name().toLowerCase(Locale.ROOT) + " (expected: an array of the method's arguments)");
        }
        JsonNode[] values = new JsonNode[tree.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = tree.get(i);
        }
        return values;
    }

    /** {@code values} as the parameters of {@code method}. */
    Object[] arguments(Method method, JsonNode[] values) {
        Type[] types = method.getGenericParameterTypes();
        Object[] args = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            try {
                args[i] = mapper.readerFor(mapper.constructType(types[i])).readValue(values[i]);
            } catch (IOException | IllegalArgumentException e) {
                throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "argument " + i + " is not a "
                        + types[i].getTypeName() + ": " + shortMessage(e));
            }
        }
        return args;
    }

    /** A result as JSON. */
    byte[] result(Object result) throws JsonProcessingException {
        return mapper.writeValueAsBytes(result);
    }

    /** The JSON of a failed call: {@code {"status": "...", "message": "..."}}. */
    byte[] error(Status status, String message) {
        ObjectNode node = mapper.createObjectNode();
        node.put("status", status.name());
        node.put("message", message);
        try {
            return mapper.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ForeignCallException badJson(IOException e) {
        return new ForeignCallException(StatusTable.BAD_REQUEST.status(),
                "the body is not valid JSON: " + shortMessage(e));
    }

    private static String shortMessage(Exception e) {
        String message = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
