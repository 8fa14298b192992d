package io.jupiter.rpc;

import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.buffer.ByteBuf;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A JVM holding many client connections to one provider, driven over stdin by {@link ManyConnectionsTest}: it
 * connects ({@code connected N}), then on {@code call} sends one request on every connection and reports when all
 * are answered ({@code answered N in T ms}); {@code quit} or end of input closes everything.
 */
public final class ConnectionFlood {

    private ConnectionFlood() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress address = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int count = Integer.parseInt(args[2]);
        long heartbeatMillis = Long.parseLong(args[3]);
        CountDownLatch[] answered = {new CountDownLatch(0)};
        Set<Long> answeredIds = ConcurrentHashMap.newKeySet();
        FrameHandler handler = (connection, frame) -> {
            answeredIds.add(frame.id());
            frame.release();
            answered[0].countDown();
        };
        // Heartbeats only, no keepalive: at load 19 the provider answered pings over 13.5 s late on some of the
        // 10,000 connections and the keepalive closed live ones while they connected. The provider's side of idle
        // connections is the subject here; finding a dead link is KeepaliveTest's.
        TransportConfig config = TransportConfig.builder().threadNamePrefix("flood").ioThreads(2)
                .readerIdleMillis(0).writerIdleMillis(heartbeatMillis).keepaliveTimeoutMillis(0)
                .reconnectBackoff(50, 2_000).build();
        try (Connector connector = TransportFactory.load().newConnector(config, handler)) {
            ConnectionGroup group = connector.connect(address, count);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (group.activeConnections().size() < count && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            System.out.println("connected " + group.activeConnections().size());
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String command;
            while ((command = stdin.readLine()) != null && !command.equals("quit")) {
                if (command.equals("call")) {
                    List<Connection> connections = group.activeConnections();
                    answered[0] = new CountDownLatch(connections.size());
                    long start = System.nanoTime();
                    long id = 1;
                    for (Connection connection : connections) {
                        connection.write(request(connection, id++));
                    }
                    boolean all = answered[0].await(120, TimeUnit.SECONDS); // 19 s seen at load 11
                    if (!all) {
                        unanswered(connections, answeredIds);
                    }
                    System.out.println((all ? "answered " : "unanswered ") + (connections.size()
                            - answered[0].getCount()) + " in "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
                }
            }
        }
    }

    /** Which connections got no answer, and whether they are still open: for a failure's diagnosis. */
    private static void unanswered(List<Connection> connections, Set<Long> answeredIds) {
        int unanswered = 0;
        int closed = 0;
        long id = 1;
        for (Connection connection : connections) {
            if (!answeredIds.contains(id)) {
                unanswered++;
                if (!connection.isActive()) {
                    closed++;
                }
                if (unanswered <= 5) {
                    System.out.println("no answer to request " + id + " on " + connection + " (open: "
                            + connection.isActive() + ")");
                }
            }
            id++;
        }
        System.out.println(unanswered + " requests without an answer, " + closed + " of them on a closed connection");
    }

    private static ByteBuf request(Connection connection, long id) {
        MessageWrapper message = new MessageWrapper("flood", new ServiceMetadata("test", "echo", "1.0.0"), "ping",
                new Object[0], null);
        ByteBuf frame = Frames.newFrame(connection.alloc(), 64);
        Serializers.get(SerializerType.PROTOSTUFF).write(frame, message);
        return Frames.fillHeader(frame, ProtocolHeader.toSign(SerializerType.PROTOSTUFF.code(),
                ProtocolHeader.REQUEST), (byte) 0, id);
    }
}
