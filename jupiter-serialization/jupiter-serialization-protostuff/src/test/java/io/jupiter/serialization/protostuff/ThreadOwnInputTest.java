package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A Jupiter thread's reads reuse one input: each read starts from a clean state, whatever the last one left. */
class ThreadOwnInputTest {

    private final ProtostuffSerializer serializer = new ProtostuffSerializer();

    @Test
    void onAJupiterThreadEveryReadIsAsIfTheInputWereNew() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread io = new FastThreadLocalThread(() -> {
            try {
                readsAlternatingWithFailures();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        io.start();
        io.join(30_000);
        assertThat(io.isAlive()).isFalse();
        assertThat(failure.get()).isNull();
    }

    @Test
    void onAnyOtherThreadToo() {
        readsAlternatingWithFailures();
    }

    private void readsAlternatingWithFailures() {
        MessageWrapper request = new MessageWrapper("app", new ServiceMetadata("g", "org.example.Hello", "1.0.0"),
                "hello", new Object[] {"x", new int[] {1, 2, 3}, new HashMap<>(Map.of("k", "v"))},
                Map.of("jupiter.timeout", "300"));
        byte[] good = bytesOf(request);
        // A body cut in the middle of a nested value: the read fails deep inside, its state left mid-way.
        byte[] cut = Arrays.copyOf(good, good.length - 6);
        for (int round = 0; round < 50; round++) {
            MessageWrapper read = read(good);
            assertThat(read.getMethodName()).isEqualTo("hello");
            assertThat(read.getMetadata().directory()).isEqualTo(request.getMetadata().directory());
            assertThat(read.getArgs()[0]).isEqualTo("x");
            assertThat((int[]) read.getArgs()[1]).containsExactly(1, 2, 3);
            assertThat(read.getArgs()[2]).isEqualTo(Map.of("k", "v"));
            assertThat(read.getAttachments()).isEqualTo(Map.of("jupiter.timeout", "300"));
            assertThatThrownBy(() -> read(cut)).isInstanceOf(SerializationException.class);
        }
    }

    private byte[] bytesOf(MessageWrapper request) {
        ByteBuf buffer = Unpooled.buffer();
        try {
            serializer.write(buffer, request);
            byte[] bytes = new byte[buffer.readableBytes()];
            buffer.readBytes(bytes);
            return bytes;
        } finally {
            buffer.release();
        }
    }

    private MessageWrapper read(byte[] bytes) {
        ByteBuf buffer = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        try {
            return serializer.read(buffer, MessageWrapper.class);
        } finally {
            buffer.release();
        }
    }
}
