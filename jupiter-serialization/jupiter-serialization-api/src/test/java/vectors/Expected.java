package vectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import vectors.model.User;

/**
 * Turns the type-tagged {@code decoded} JSON of a 1.3.1 vector into the Java values it describes, and checks a
 * decoded body against it. Throwables are compared by class name and message only (their stack traces are
 * build-specific).
 */
public final class Expected {

    private Expected() {
    }

    /** Checks a decoded request against the vector's {@code decoded}. */
    public static void assertRequest(MessageWrapper actual, JsonNode decoded) {
        assertThat(actual.getAppName()).isEqualTo(text(decoded.get("appName")));
        JsonNode metadata = decoded.get("metadata");
        assertThat(actual.getMetadata().getGroup()).isEqualTo(text(metadata.get("group")));
        assertThat(actual.getMetadata().getServiceProviderName())
                .isEqualTo(text(metadata.get("serviceProviderName")));
        assertThat(actual.getMetadata().getVersion()).isEqualTo(text(metadata.get("version")));
        assertThat(actual.getMethodName()).isEqualTo(text(decoded.get("methodName")));
        JsonNode args = decoded.get("args");
        assertThat(actual.getArgs()).hasSize(args.size());
        for (int i = 0; i < args.size(); i++) {
            assertValue(actual.getArgs()[i], args.get(i));
        }
        assertValue(actual.getAttachments(), decoded.get("attachments"));
    }

    /** Checks a decoded response against the vector's {@code decoded}. */
    public static void assertResponse(ResultWrapper actual, JsonNode decoded) {
        assertValue(actual.getResult(), decoded.get("result"));
    }

    /** Checks one value; throwables by type and message. */
    public static void assertValue(Object actual, JsonNode expected) {
        if (expected != null && expected.has("stackTraceLength")) {
            assertThat(actual).isInstanceOf(Throwable.class);
            assertThat(actual.getClass().getName()).isEqualTo(expected.get("type").asText());
            assertThat(((Throwable) actual).getMessage()).isEqualTo(text(expected.get("message")));
            return;
        }
        assertThat(actual).isEqualTo(toJava(expected));
    }

    /** The Java value a type-tagged node describes. */
    public static Object toJava(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isTextual()) {
            return node.asText();
        }
        String type = node.get("type").asText();
        JsonNode value = node.get("value");
        switch (type) {
            case "java.lang.String":
                return value.asText();
            case "java.lang.Integer":
            case "int":
                return value.asInt();
            case "java.lang.Long":
            case "long":
                return value.asLong();
            case "java.lang.Boolean":
                return value.asBoolean();
            case "java.lang.Double":
                return value.asDouble();
            case "java.math.BigDecimal":
                return new BigDecimal(value.asText());
            case "java.util.Date":
                return new Date(node.get("epochMillis").asLong());
            case "byte[]":
                return HexFormat.of().parseHex(node.get("hex").asText());
            case "int[]": {
                int[] array = new int[value.size()];
                for (int i = 0; i < array.length; i++) {
                    array[i] = value.get(i).asInt();
                }
                return array;
            }
            case "java.lang.String[]": {
                String[] array = new String[value.size()];
                for (int i = 0; i < array.length; i++) {
                    array[i] = text(value.get(i));
                }
                return array;
            }
            case "java.util.ArrayList": {
                List<Object> list = new ArrayList<>();
                value.forEach(e -> list.add(toJava(e)));
                return list;
            }
            case "java.util.HashMap": {
                Map<Object, Object> map = new LinkedHashMap<>();
                node.get("entries").forEach(e -> map.put(toJava(e.get("key")), toJava(e.get("value"))));
                return map;
            }
            case "vectors.model.User": {
                JsonNode fields = node.get("fields");
                @SuppressWarnings("unchecked")
                List<String> tags = (List<String>) toJava(fields.get("tags"));
                return new User((Integer) toJava(fields.get("id")), (String) toJava(fields.get("name")), tags);
            }
            default:
                if (node.has("ordinal")) {
                    return enumConstant(type, node.get("name").asText());
                }
                throw new IllegalArgumentException("no conversion for " + node);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(String type, String name) {
        try {
            return Enum.valueOf((Class) Class.forName(type), name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.isTextual() ? node.asText() : node.get("value").asText();
    }
}
