package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.TargetClient;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls to {@link RawEchoServer} over our transport with no RPC. Each request carries the exact bytes the RPC client
 * would send for {@code hello(payload)} (serialized once up front), so framing and body sizes match; responses are
 * matched by id and completed on the IO thread, never deserialized.
 */
final class RawEchoCalls implements TargetClient, FrameHandler {

    private static final long SYNC_TIMEOUT_SECONDS = 3;

    private final ConcurrentHashMap<Long, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final Connector connector;
    private final ConnectionGroup group;
    private final byte[] body;
    private final byte sign;

    /** Connects {@code connections} connections to {@code address}, waiting up to 10 s for the first. */
    RawEchoCalls(InetSocketAddress address, int connections, int ioThreads, SerializerType serializer,
                 String payload) throws InterruptedException {
        this.body = helloRequestBody(serializer, payload);
        this.sign = ProtocolHeader.toSign(serializer.code(), ProtocolHeader.REQUEST);
        TransportConfig config = TransportConfig.builder().threadNamePrefix("raw-echo-client").ioThreads(ioThreads)
                .readerIdleMillis(0).build();
        this.connector = TransportFactory.load().newConnector(config, this);
        this.group = connector.connect(address, connections);
        if (!group.awaitAvailable(10, TimeUnit.SECONDS)) {
            connector.close();
            throw new IllegalStateException("cannot connect to " + address);
        }
    }

    /** The body our client sends for {@code test/service/1.0.0 hello(payload)}. */
    static byte[] helloRequestBody(SerializerType serializerType, String payload) {
        Serializer serializer = Serializers.get(serializerType);
        MessageWrapper message = new MessageWrapper("benchmark", new ServiceMetadata("test", "service", "1.0.0"),
                "hello", new Object[] {payload}, null);
        ByteBuf encoded = Unpooled.buffer();
        try {
            serializer.write(encoded, message);
            byte[] bytes = new byte[encoded.readableBytes()];
            encoded.readBytes(bytes);
            return bytes;
        } finally {
            encoded.release();
        }
    }

    /** Size of each request body. */
    int bodySize() {
        return body.length;
    }

    @Override
    public void call() throws Exception {
        callAsync().get(SYNC_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public CompletableFuture<?> callAsync() {
        long id = ids.incrementAndGet();
        CompletableFuture<Void> future = new CompletableFuture<>();
        Connection connection = group.next();
        if (connection == null) {
            future.completeExceptionally(new IllegalStateException("no connection"));
            return future;
        }
        waiting.put(id, future);
        // Allocated as the RPC client allocates its requests.
        ByteBuf frame = Frames.newFrameOnCallingThread(connection.alloc(), body.length);
        frame.writeBytes(body);
        Frames.fillHeader(frame, sign, (byte) 0, id);
        connection.write(frame);
        return future;
    }

    @Override
    public void frameReceived(Connection connection, Frame frame) {
        CompletableFuture<Void> future = waiting.remove(frame.id());
        frame.release();
        if (future != null) {
            future.complete(null);
        }
    }

    /** Fails every call still waiting: calls are not tracked per connection, and in a benchmark a lost connection
     * is a failed run anyway. */
    @Override
    public void disconnected(Connection connection) {
        IllegalStateException lost = new IllegalStateException("connection closed: " + connection);
        waiting.values().removeIf(future -> future.completeExceptionally(lost));
    }

    @Override
    public void close() {
        connector.close();
    }
}
