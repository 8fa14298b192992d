package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.testkit.FaultProxy.Direction;
import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Dead links are found within the keepalive timeout, idle or busy, when the provider answers pings (within three
 * times the timeout while the provider answers on another connection of the group); a provider
 * answers pings (not heartbeats) at most once per its minimum interval; a peer that never answers (as 1.3.1) keeps
 * its connection and gets one probe ping, then 1.3.1's heartbeats. Real acceptor and connector on 127.0.0.1, with a
 * {@link FaultProxy} in the path.
 */
class KeepaliveTest {

    private static final long TIMEOUT_MILLIS = 1_000;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void aProviderAnswersAPingWithItsIdAndNeverAHeartbeat() throws Exception {
        NettyAcceptor acceptor = acceptor(TransportConfig.builder().pingMinIntervalMillis(0));
        try (Socket socket = socket(acceptor.localAddress())) {
            OutputStream out = socket.getOutputStream();
            out.write(heartbeat(0));
            out.flush();
            assertNothingArrivesFor(socket, 300);
            out.write(heartbeat(42));
            out.flush();
            assertThat(readHeartbeatId(socket)).isEqualTo(42);
        }
    }

    @Test
    void pingsSoonerThanTheMinimumIntervalGoUnanswered() throws Exception {
        NettyAcceptor acceptor = acceptor(TransportConfig.builder().pingMinIntervalMillis(60_000));
        try (Socket socket = socket(acceptor.localAddress())) {
            OutputStream out = socket.getOutputStream();
            for (int id = 1; id <= 20; id++) {
                out.write(heartbeat(id));
            }
            out.flush();
            assertThat(readHeartbeatId(socket)).isEqualTo(1);
            assertNothingArrivesFor(socket, 500);
        }
    }

    @Test
    void anIdleDeadLinkIsClosedWithinTheTimeoutAndNotUsedUntilItHeals() throws Exception {
        NettyAcceptor acceptor = acceptor(TransportConfig.builder().pingMinIntervalMillis(50));
        FaultProxy proxy = proxy(acceptor);
        EchoPeer client = new EchoPeer();
        ConnectionGroup group = connect(client, proxy, 2);
        // Each connection's first ping was answered: the group knows its peer answers pings.
        Await.until("both connections had their pong", Duration.ofSeconds(5),
                () -> proxy.forwardedBytes(Direction.TARGET_TO_CLIENT) >= 2L * ProtocolHeader.HEADER_SIZE);

        long start = System.nanoTime();
        proxy.blackhole();
        Await.until("both connections are closed", Duration.ofMillis(TIMEOUT_MILLIS + 2_000),
                () -> client.disconnects.get() >= 2);
        long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(detectedMillis).isBetween(TIMEOUT_MILLIS * 8 / 10, TIMEOUT_MILLIS + 1_000);

        // The proxy still accepts connections, but none answers a ping: none is offered for use.
        assertThat(Await.holdsFor(Duration.ofMillis(3 * TIMEOUT_MILLIS), () -> !group.isAvailable())).isTrue();
        assertThat(proxy.acceptedConnections()).isGreaterThan(2);

        proxy.healthy();
        Await.until("the group is back", Duration.ofSeconds(15), group::isAvailable);
        roundTrip(client, group, 7);
    }

    @Test
    void aBusyDeadLinkIsClosedWithinTheTimeoutAndItsWritesStop() throws Exception {
        NettyAcceptor acceptor = acceptor(TransportConfig.builder().pingMinIntervalMillis(50));
        FaultProxy proxy = proxy(acceptor);
        EchoPeer client = new EchoPeer();
        ConnectionGroup group = connect(client, proxy, 1);
        Await.until("the pong", Duration.ofSeconds(5),
                () -> proxy.forwardedBytes(Direction.TARGET_TO_CLIENT) >= ProtocolHeader.HEADER_SIZE);
        Connection connection = group.next();
        roundTrip(client, group, 1);

        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            // Bounded: at most 2,000 requests, 5 ms apart (10 s).
            for (long id = 100; id < 2_100 && writing.get() && connection.isActive(); id++) {
                connection.write(EchoPeer.request(connection.alloc(), id, "busy"));
                sleepQuietly(5);
            }
        }, "keepalive-test-writer");
        writer.start();
        try {
            Await.until("requests flow", Duration.ofSeconds(5), () -> client.responses.size() > 10);
            long start = System.nanoTime();
            proxy.blackhole(Direction.TARGET_TO_CLIENT);
            Await.until("the connection is closed", Duration.ofMillis(TIMEOUT_MILLIS + 2_000),
                    () -> !connection.isActive());
            long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(detectedMillis).isBetween(TIMEOUT_MILLIS * 8 / 10, TIMEOUT_MILLIS + 1_000);
        } finally {
            writing.set(false);
            writer.join(5_000);
        }
    }

    @Test
    void aDeadPathToAPeerThatAnswersOnAnotherConnectionIsClosedAfterThreeTimesTheTimeout() throws Exception {
        NettyAcceptor acceptor = acceptor(TransportConfig.builder().pingMinIntervalMillis(50));
        FaultProxy proxy = proxy(acceptor);
        EchoPeer client = new EchoPeer();
        ConnectionGroup group = connect(client, proxy, 2);
        Await.until("both connections had their pong", Duration.ofSeconds(5),
                () -> proxy.forwardedBytes(Direction.TARGET_TO_CLIENT) >= 2L * ProtocolHeader.HEADER_SIZE);

        int deadPort = proxy.blackholeOneOpenConnection();
        Connection dead = connectionWithLocalPort(group, deadPort);
        Connection alive = group.activeConnections().stream().filter(c -> c != dead).findFirst().orElseThrow();
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            // Bounded: at most 2,000 requests, 5 ms apart (10 s), on the healthy connection only.
            for (long id = 100; id < 2_100 && writing.get() && alive.isActive(); id++) {
                alive.write(EchoPeer.request(alive.alloc(), id, "busy"));
                sleepQuietly(5);
            }
        }, "keepalive-test-writer");
        long start = System.nanoTime();
        writer.start();
        try {
            Await.until("the dead path is closed", Duration.ofMillis(3 * TIMEOUT_MILLIS + 2_000),
                    () -> !dead.isActive());
            long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // Its peer answered on the other connection all along: three times the timeout, not one.
            assertThat(detectedMillis).isBetween(2 * TIMEOUT_MILLIS, 3 * TIMEOUT_MILLIS + 1_000);
            assertThat(alive.isActive()).isTrue();
        } finally {
            writing.set(false);
            writer.join(5_000);
        }
    }

    @Test
    void aPeerThatNeverAnswersKeepsItsConnectionAndGetsOneProbeThenHeartbeats() throws Exception {
        try (ServerSocket legacy = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            EchoPeer client = new EchoPeer();
            NettyConnector connector = new NettyConnector(clientConfig().writerIdleMillis(400).build(), client);
            toClose.add(connector);
            ConnectionGroup group = connector.connect(legacy.getLocalSocketAddress(), 1);
            try (Socket accepted = legacy.accept()) {
                accepted.setSoTimeout(100);
                ByteArrayOutputStream received = new ByteArrayOutputStream();
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3 * TIMEOUT_MILLIS);
                InputStream in = accepted.getInputStream();
                byte[] buffer = new byte[256];
                while (System.nanoTime() < end) {
                    try {
                        int n = in.read(buffer);
                        assertThat(n).as("the client closed a connection to a peer that never answered").isPositive();
                        received.write(buffer, 0, n);
                    } catch (SocketTimeoutException nothingYet) {
                        // keep listening until the end
                    }
                }
                assertThat(group.isAvailable()).isTrue();
                ByteBuffer frames = ByteBuffer.wrap(received.toByteArray());
                assertThat(frames.remaining() % ProtocolHeader.HEADER_SIZE).isZero();
                List<Long> ids = new ArrayList<>();
                while (frames.hasRemaining()) {
                    assertThat(frames.getShort()).isEqualTo(ProtocolHeader.MAGIC);
                    assertThat(frames.get()).isEqualTo(ProtocolHeader.HEARTBEAT);
                    assertThat(frames.get()).isZero();
                    ids.add(frames.getLong());
                    assertThat(frames.getInt()).isZero();
                }
                // One probe ping (id 1) on activation, then only 1.3.1's heartbeats (id 0), one per writer idle.
                assertThat(ids.get(0)).isEqualTo(1L);
                assertThat(ids.subList(1, ids.size())).isNotEmpty().allMatch(id -> id == 0L);
            }
        }
    }

    private NettyAcceptor acceptor(TransportConfig.Builder config) {
        NettyAcceptor acceptor = new NettyAcceptor(config.ioThreads(1).threadNamePrefix("keepalive-server").build(),
                new InetSocketAddress("127.0.0.1", 0), new EchoPeer());
        toClose.add(acceptor);
        acceptor.start();
        return acceptor;
    }

    private FaultProxy proxy(NettyAcceptor acceptor) {
        FaultProxy proxy = FaultProxy.start((InetSocketAddress) acceptor.localAddress());
        toClose.add(proxy);
        return proxy;
    }

    private static TransportConfig.Builder clientConfig() {
        return TransportConfig.builder().ioThreads(1).threadNamePrefix("keepalive-client")
                .keepaliveTimeoutMillis(TIMEOUT_MILLIS).reconnectBackoff(10, 200);
    }

    private ConnectionGroup connect(EchoPeer client, FaultProxy proxy, int connections) throws InterruptedException {
        NettyConnector connector = new NettyConnector(clientConfig().build(), client);
        toClose.add(connector);
        ConnectionGroup group = connector.connect(proxy.address(), connections);
        assertThat(group.awaitAvailable(5, TimeUnit.SECONDS)).isTrue();
        Await.until("all connections are up", Duration.ofSeconds(5),
                () -> group.activeConnections().size() == connections);
        return group;
    }

    private static Connection connectionWithLocalPort(ConnectionGroup group, int port) {
        return group.activeConnections().stream()
                .filter(c -> ((InetSocketAddress) c.localAddress()).getPort() == port)
                .findFirst().orElseThrow(() -> new AssertionError("no connection from local port " + port));
    }

    private static void roundTrip(EchoPeer client, ConnectionGroup group, long id) throws InterruptedException {
        var latch = client.expect(1);
        Connection connection = group.next();
        connection.write(EchoPeer.request(connection.alloc(), id, "ping?"));
        assertThat(latch.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(client.responses).containsEntry(id, "ping?");
    }

    private Socket socket(SocketAddress address) throws IOException {
        Socket socket = new Socket();
        toClose.add(socket);
        socket.connect(address, 5_000);
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static byte[] heartbeat(long id) {
        return ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE).putShort(ProtocolHeader.MAGIC)
                .put(ProtocolHeader.HEARTBEAT).put((byte) 0).putLong(id).putInt(0).array();
    }

    private static long readHeartbeatId(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        assertThat(in.readShort()).isEqualTo(ProtocolHeader.MAGIC);
        assertThat(in.readByte()).isEqualTo(ProtocolHeader.HEARTBEAT);
        assertThat(in.readByte()).isZero();
        long id = in.readLong();
        assertThat(in.readInt()).isZero();
        return id;
    }

    private static void assertNothingArrivesFor(Socket socket, int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            int read = socket.getInputStream().read();
            throw new AssertionError("expected nothing, got byte " + read);
        } catch (SocketTimeoutException expected) {
            // nothing came
        } finally {
            socket.setSoTimeout(5_000);
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis); // pacing of the bounded load loop, not synchronisation
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
