package io.jupiter.example.benchmark;

import io.jupiter.example.Args;
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
 * {@code raw-echo-client}: the same load as {@code benchmark-client}, sent to {@link RawEchoServer}. Each request
 * carries the exact bytes the RPC client would send for the same payload (serialized once up front), so framing and
 * body sizes match; the responses are only matched by id, never deserialized.
 */
public final class RawEchoClient {

    private RawEchoClient() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Args args = new Args(argv, 1, BenchmarkClient.FLAGS);
        if (args.get("registry", null) != null) {
            throw new IllegalArgumentException("raw-echo-client has no --registry (it calls --host and --port)");
        }
        String host = args.get("host", "127.0.0.1");
        int port = args.getInt("port", 18098, 1, 65535);
        String mode = args.oneOf("mode", "sync", "sync", "future");
        int threads = args.getInt("threads", 32, 1, 4096);
        int warmup = args.getInt("warmup", 5, 0, 3600);
        int seconds = args.getInt("seconds", 30, 1, 86_400);
        int interval = args.getInt("interval", 0, 0, 86_400);
        String payloadName = args.oneOf("payload", "small", "small", "1k");
        SerializerType serializerType = SerializerType.parse(args.get("serializer", "protostuff"));
        int connections = args.getInt("connections", 1, 1, 64);

        Serializer serializer = Serializers.get(serializerType);
        MessageWrapper message = new MessageWrapper("benchmark", new ServiceMetadata("test", "service", "1.0.0"),
                "hello", new Object[] {Payloads.of(payloadName)}, null);
        ByteBuf encoded = Unpooled.buffer();
        serializer.write(encoded, message);
        byte[] body = new byte[encoded.readableBytes()];
        encoded.readBytes(body);
        encoded.release();

        System.out.printf("raw-echo-client: %s:%d mode=%s threads=%d payload=%s (request body %d bytes) "
                        + "connections=%d warmup=%ds seconds=%ds cores=%d%n", host, port, mode, threads, payloadName,
                body.length, connections, warmup, seconds, Runtime.getRuntime().availableProcessors());
        try (RawTarget target = new RawTarget(new InetSocketAddress(host, port), connections, body,
                ProtocolHeader.toSign(serializerType.code(), ProtocolHeader.REQUEST))) {
            long failed = new LoadRunner(target, mode, threads, interval).run(warmup, seconds);
            return failed == 0 ? 0 : 1;
        }
    }

    private static final class RawTarget implements LoadTarget, FrameHandler {
        private final ConcurrentHashMap<Long, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();
        private final AtomicLong ids = new AtomicLong();
        private final Connector connector;
        private final ConnectionGroup group;
        private final byte[] body;
        private final byte sign;

        RawTarget(InetSocketAddress address, int connections, byte[] body, byte sign) throws InterruptedException {
            this.body = body;
            this.sign = sign;
            TransportConfig config = TransportConfig.builder().threadNamePrefix("raw-echo-client")
                    .readerIdleMillis(0).build();
            this.connector = TransportFactory.load().newConnector(config, this);
            this.group = connector.connect(address, connections);
            if (!group.awaitAvailable(10, TimeUnit.SECONDS)) {
                connector.close();
                throw new IllegalStateException("cannot connect to " + address);
            }
        }

        @Override
        public void call() throws Exception {
            callAsync().get(3, TimeUnit.SECONDS);
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
            ByteBuf frame = Frames.newFrame(connection.alloc(), body.length);
            frame.writeBytes(body);
            Frames.fillHeader(frame, sign, (byte) 0, id);
            connection.write(frame, cause -> {
                CompletableFuture<Void> lost = waiting.remove(id);
                if (lost != null) {
                    lost.completeExceptionally(cause);
                }
            });
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

        @Override
        public void close() {
            connector.close();
        }
    }
}
