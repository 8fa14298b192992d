package vectors;

import io.jupiter.serialization.Serializer;
import io.jupiter.testkit.WireVector;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;

/** Reads and re-encodes vector bodies through pooled Netty buffers, releasing them. */
public final class VectorBodies {

    private VectorBodies() {
    }

    /** Decodes the vector's body from a pooled direct buffer. */
    public static <T> T decode(Serializer serializer, WireVector vector, Class<T> type) {
        byte[] body = vector.body();
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(body.length);
        try {
            buf.writeBytes(body);
            return serializer.read(buf, type);
        } finally {
            buf.release();
        }
    }

    /** Encodes {@code value} into a pooled heap buffer and returns the bytes. */
    public static byte[] encode(Serializer serializer, Object value) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(64);
        try {
            serializer.write(buf, value);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** Encodes a response body of {@code result} with {@code writeResult} (no wrapper) and returns the bytes. */
    public static byte[] encodeResult(Serializer serializer, Object result) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(64);
        try {
            serializer.writeResult(buf, result);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** The response status byte, e.g. {@code 0x20}. */
    public static int status(WireVector vector) {
        return Integer.decode(vector.header().get("status").asText());
    }

    /** The class name of the decoded result, or null. */
    public static String resultType(WireVector vector) {
        var result = vector.decoded().get("result");
        return result == null || result.isNull() ? null : result.get("type").asText();
    }
}
