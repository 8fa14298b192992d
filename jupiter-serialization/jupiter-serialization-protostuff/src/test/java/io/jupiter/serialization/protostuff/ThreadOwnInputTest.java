package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Jupiter thread's reads reuse one input and one argument reader: each read starts from a clean state, whatever the
 * last one left; a read inside a read (a listener reading another body) gets its own; the services read are shared
 * between requests but never changed.
 */
class ThreadOwnInputTest {

    private final ProtostuffSerializer serializer = new ProtostuffSerializer();

    @Test
    void onAJupiterThreadEveryReadIsAsIfTheInputWereNew() throws Exception {
        JupiterThread.run(this::readsAlternatingWithFailures);
    }

    @Test
    void onAnyOtherThreadToo() {
        readsAlternatingWithFailures();
    }

    @Test
    void onAJupiterThreadEveryRequestReadIsAsIfTheReaderWereNew() throws Exception {
        JupiterThread.run(this::requestReadsAlternatingWithRefusalsAndReadsInside);
    }

    @Test
    void requestReadsOnAnyOtherThreadToo() {
        requestReadsAlternatingWithRefusalsAndReadsInside();
    }

    @Test
    void onAJupiterThreadRequestsNamingOneServiceShareItsMetadata() throws Exception {
        JupiterThread.run(() -> {
            MessageWrapper first = readRequest(bytesOf(requestTo("org.example.Hello")), ANY);
            MessageWrapper again = readRequest(bytesOf(requestTo("org.example.Hello")), ANY);
            MessageWrapper other = readRequest(bytesOf(requestTo("org.example.Other")), ANY);
            assertThat(again.getMetadata()).isSameAs(first.getMetadata());
            assertThat(other.getMetadata().getServiceProviderName()).isEqualTo("org.example.Other");
            // More services than it remembers: each read is still the service named.
            for (int i = 0; i < 20; i++) {
                ServiceMetadata read = readRequest(bytesOf(requestTo("org.example.S" + i)), ANY).getMetadata();
                assertThat(read).isEqualTo(new ServiceMetadata("g", "org.example.S" + i, "1.0.0"));
            }
        });
    }

    @Test
    void aServiceNamedTwiceMergesAsProtostuffDoesWithoutChangingTheSharedOne() throws Exception {
        JupiterThread.run(() -> {
            MessageWrapper shared = readRequest(bytesOf(requestTo("org.example.Hello")), ANY);
            // Two bodies one after the other are one message, their fields merged: the second service names a group
            // and a name, and keeps the first one's version.
            MessageWrapper renamed = new MessageWrapper("app", new ServiceMetadata("g2", "org.example.Other", null),
                    "hello", null, null);
            byte[] first = bytesOf(requestTo("org.example.Hello"));
            byte[] second = bytesOf(renamed);
            byte[] both = Arrays.copyOf(first, first.length + second.length);
            System.arraycopy(second, 0, both, first.length, second.length);
            MessageWrapper merged = read(both);
            assertThat(merged.getMetadata()).isEqualTo(new ServiceMetadata("g2", "org.example.Other", "1.0.0"));
            assertThat(shared.getMetadata()).isEqualTo(new ServiceMetadata("g", "org.example.Hello", "1.0.0"));
            assertThat(readRequest(first, ANY).getMetadata()).isSameAs(shared.getMetadata());
        });
    }

    private static final EnvelopeListener ANY = (appName, service, methodName) -> ArgumentTypes.ANY;

    private static MessageWrapper requestTo(String service) {
        return new MessageWrapper("app", new ServiceMetadata("g", service, "1.0.0"), "hello",
                new Object[] {"x"}, Map.of("jupiter.timeout", "300"));
    }

    private void requestReadsAlternatingWithRefusalsAndReadsInside() {
        byte[] hello = bytesOf(requestTo("org.example.Hello"));
        byte[] other = bytesOf(requestTo("org.example.Other"));
        byte[] twice = Arrays.copyOf(hello, hello.length * 2);
        System.arraycopy(hello, 0, twice, hello.length, hello.length);
        EnvelopeListener stringArgument = (appName, service, methodName) ->
                ArgumentTypes.of(methodName, List.<Class<?>[]>of(new Class<?>[] {String.class}));
        EnvelopeListener intArgument = (appName, service, methodName) ->
                ArgumentTypes.of(methodName, List.<Class<?>[]>of(new Class<?>[] {int.class}));
        for (int round = 0; round < 50; round++) {
            MessageWrapper read = readRequest(hello, stringArgument);
            assertThat(read.getMetadata().getServiceProviderName()).isEqualTo("org.example.Hello");
            assertThat(read.getArgs()).containsExactly("x");
            assertThat(read.getAttachments()).isEqualTo(Map.of("jupiter.timeout", "300"));
            // The listener stops the read: nothing of it is left for the next one.
            MessageWrapper stopped = readRequest(hello, (appName, service, methodName) -> null);
            assertThat(stopped.getArgs()).isEmpty();
            assertThatThrownBy(() -> readRequest(hello, intArgument)).isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> readRequest(twice, stringArgument)).isInstanceOf(EnvelopeException.class);
            // A listener that reads another request while its own is read: each read is told its own envelope.
            List<String> told = new ArrayList<>();
            MessageWrapper outer = readRequest(hello, (appName, service, methodName) -> {
                told.add(service.getServiceProviderName());
                if (told.size() == 1) {
                    MessageWrapper inner = readRequest(other, (a, s, m) -> {
                        told.add(s.getServiceProviderName());
                        return ArgumentTypes.ANY;
                    });
                    assertThat(inner.getArgs()).containsExactly("x");
                }
                return ArgumentTypes.ANY;
            });
            assertThat(told).containsExactly("org.example.Hello", "org.example.Other");
            assertThat(outer.getMetadata().getServiceProviderName()).isEqualTo("org.example.Hello");
            assertThat(outer.getArgs()).containsExactly("x");
        }
    }

    private MessageWrapper readRequest(byte[] bytes, EnvelopeListener listener) {
        ByteBuf buffer = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        try {
            return serializer.readRequest(buffer, listener);
        } finally {
            buffer.release();
        }
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
