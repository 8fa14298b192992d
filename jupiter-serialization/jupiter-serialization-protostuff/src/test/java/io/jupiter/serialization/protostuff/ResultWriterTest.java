package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.legacy.JupiterServiceNotFoundException;
import io.jupiter.testkit.suites.serialization.Samples;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A response is written without its schema's field iterator, byte for byte as its schema writes it, and so is a
 * result written without its wrapper ({@code writeResult}, what a provider answers with).
 */
class ResultWriterTest {

    private final ProtostuffSerializer serializer = new ProtostuffSerializer(Samples.allowList());

    @Test
    void everyKindOfResultIsWrittenAsItsSchemaWritesIt() {
        assertSameBytesForEveryKind();
    }

    @Test
    void onAJupiterThreadWithItsOwnOutputToo() throws Exception {
        JupiterThread.run(() -> {
            assertSameBytesForEveryKind();
            assertSameBytesForEveryKind(); // the thread's own output, reused
        });
    }

    private void assertSameBytesForEveryKind() {
        List<Object> results = new ArrayList<>(Samples.argumentKinds());
        results.add(new JupiterServiceNotFoundException("no such service"));
        results.add(new IllegalStateException("failed"));
        results.add(new ResultWrapper("nested"));
        results.add(null);
        for (Object result : results) {
            ResultWrapper wrapper = new ResultWrapper(result);
            bySchema(wrapper); // once before: protostuff names a throwable's class differently the first time
            assertThat(Samples.encode(serializer, wrapper)).as("%s", result).isEqualTo(bySchema(wrapper));
            assertThat(withoutWrapper(result)).as("%s without its wrapper", result).isEqualTo(bySchema(wrapper));
        }
    }

    /** What {@code writeResult} appends after a few bytes already in the buffer (a frame's header). */
    private byte[] withoutWrapper(Object result) {
        ByteBuf buffer = Unpooled.buffer();
        try {
            buffer.writeBytes(new byte[] {1, 2, 3});
            serializer.writeResult(buffer, result);
            assertThat(buffer.readByte()).isEqualTo((byte) 1);
            buffer.skipBytes(2);
            return ByteBufUtil.getBytes(buffer);
        } finally {
            buffer.release();
        }
    }

    /** What the runtime schema writes through the same output (1.3.1's exception names included). */
    private static byte[] bySchema(ResultWrapper wrapper) {
        Schema<ResultWrapper> schema = RuntimeSchema.getSchema(ResultWrapper.class);
        ByteBuf buffer = Unpooled.buffer();
        try {
            schema.writeTo(new ByteBufOutput(buffer), wrapper);
            return ByteBufUtil.getBytes(buffer);
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            buffer.release();
        }
    }
}
