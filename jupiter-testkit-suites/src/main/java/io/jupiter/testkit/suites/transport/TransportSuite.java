package io.jupiter.testkit.suites.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.testkit.Await;
import io.jupiter.testkit.LeakDetectionExtension;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.buffer.ByteBuf;
import io.netty.util.ResourceLeakDetector;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The cases every transport passes, whatever carries the bytes: TCP, Unix domain sockets, in process. Jupiter's
 * Netty transport runs it for each kind of address, and so can a transport of your own. A subclass only says which
 * address to serve ({@link #newBindAddress()}); acceptor and connector come from {@link #transport()}, by default
 * {@link TransportFactory#load()}, so the suite sees the transport as the RPC layer does. Frames are echoed by
 * {@link EchoPeer}s at both ends.
 *
 * <p>Leaked buffers fail the class (Netty's leak detector is set to {@code paranoid}, and
 * {@link LeakDetectionExtension} collects its reports), and every case ends with no thread left whose name starts with
 * the case's prefix ({@link TransportConfig.Builder#threadNamePrefix}, set by {@link #config()}): a transport must name
 * its IO threads after that prefix, or say in {@link #ioThreadNames()} which threads are its own.
 *
 * <p>As Netty's {@code testsuite} and gRPC-java's {@code AbstractTransportTest}: a transport that needs an exception
 * overrides the case with a comment saying why.
 */
@ExtendWith(LeakDetectionExtension.class)
public abstract class TransportSuite {

    /** Time limit of every wait. */
    protected static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();
    /** Thread name prefix of this test's acceptors and connectors. */
    protected String prefix;

    /** For subclasses. */
    protected TransportSuite() {
    }

    /**
     * A fresh address to serve on, of this transport's kind (TCP port 0 is fine).
     *
     * @return an address no other case of this class uses
     * @throws Exception if none can be made
     */
    protected abstract SocketAddress newBindAddress() throws Exception;

    /**
     * The transport under test.
     *
     * @return by default the one on the class path, {@link TransportFactory#load()}
     */
    protected TransportFactory transport() {
        return TransportFactory.load();
    }

    /** Tracks every buffer: leaks are reported, not sampled. */
    @BeforeAll
    static void trackEveryBuffer() {
        if (ResourceLeakDetector.getLevel().ordinal() < ResourceLeakDetector.Level.PARANOID.ordinal()) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
    }

    @BeforeEach
    void name(TestInfo test) {
        prefix = "tt-" + test.getTestMethod().orElseThrow().getName() + "-" + System.nanoTime() % 10_000;
    }

    @AfterEach
    void closeAll() throws Exception {
        while (!toClose.isEmpty()) {
            toClose.pop().close();
        }
        Await.until("no thread named " + prefix + "-* is alive (" + threadsNamed(prefix) + ")", TIMEOUT,
                () -> threadsNamed(prefix).isEmpty());
    }

    @Test
    protected void connectsAndExchangesFramesBothWays() throws Exception {
        EchoPeer server = new EchoPeer();
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config().build(), server);
        assertThat(acceptor.localAddress()).isNotNull().isInstanceOf(newBindAddress().getClass());
        ConnectionGroup group = connector(config().build(), client).connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertThat(group.address()).isEqualTo(acceptor.localAddress());

        CountDownLatch answered = client.expect(10);
        Connection connection = group.next();
        assertThat(connection.remoteAddress()).isEqualTo(acceptor.localAddress());
        for (int i = 1; i <= 10; i++) {
            connection.write(EchoPeer.request(connection.alloc(), i, "hello " + i));
        }
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
        for (long i = 1; i <= 10; i++) {
            assertThat(client.responses).containsEntry(i, "hello " + i);
        }

        // The accepting side may send requests too.
        Connection accepted = server.connected.poll(10, TimeUnit.SECONDS);
        assertThat(accepted).isNotNull();
        assertThat(accepted.remoteAddress()).isInstanceOf(acceptor.localAddress().getClass());
        assertThat(acceptor.connectionCount()).isEqualTo(1);
        CountDownLatch back = server.expect(1);
        accepted.write(EchoPeer.request(accepted.alloc(), -5, "from the server"));
        assertThat(back.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(server.responses).containsEntry(-5L, "from the server");
    }

    @Test
    protected void manyConcurrentFramesAllArrive() throws Exception {
        EchoPeer server = new EchoPeer();
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config().build(), server);
        ConnectionGroup group = connector(config().build(), client).connect(acceptor.localAddress(), 2);
        Await.until("both connections are up", TIMEOUT, () -> group.activeConnections().size() == 2);

        int threads = 4;
        int perThread = 2_500;
        CountDownLatch answered = client.expect(threads * perThread);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long base = (long) t * perThread;
            Thread writer = new Thread(() -> {
                for (int i = 1; i <= perThread; i++) {
                    Connection connection = group.next();
                    long id = base + i;
                    connection.write(EchoPeer.request(connection.alloc(), id, "request " + id));
                }
            }, prefix + "-writer-" + t);
            writers.add(writer);
            writer.start();
        }
        for (Thread writer : writers) {
            writer.join(TIMEOUT.toMillis());
        }

        assertThat(answered.await(30, TimeUnit.SECONDS)).as("all answered").isTrue();
        assertThat(client.disconnects).as("no connection was lost").hasValue(0);
        assertThat(client.responses).hasSize(threads * perThread);
        for (long id = 1; id <= threads * perThread; id++) {
            assertThat(client.responses.get(id)).isEqualTo("request " + id);
        }
        assertThat(server.maxOpen).hasValue(2);
    }

    @Test
    protected void largeBodyRoundTrips() throws Exception {
        int maxBody = 2 * 1024 * 1024;
        TransportConfig config = config().maxBodySize(maxBody).build();
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config, new EchoPeer());
        ConnectionGroup group = connector(config, client).connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();

        StringBuilder body = new StringBuilder(maxBody);
        for (int i = 0; body.length() < maxBody; i++) {
            body.append((char) ('a' + i % 26));
        }
        CountDownLatch answered = client.expect(1);
        Connection connection = group.next();
        connection.write(EchoPeer.request(connection.alloc(), 1, body.toString()));
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(client.responses.get(1L)).hasSize(maxBody).isEqualTo(body.toString());
    }

    @Test
    protected void heartbeatsKeepAnIdleConnectionOpen() throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(config().readerIdleMillis(600).build(), server);
        ConnectionGroup group = connector(config().writerIdleMillis(200).build(), new EchoPeer())
                .connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        Connection connection = group.next();

        // More than three reader idle periods without a request: the heartbeats alone keep it open.
        assertThat(Await.holdsFor(Duration.ofMillis(2_000), () -> server.disconnects.get() == 0)).isTrue();
        assertThat(connection.isActive()).isTrue();
    }

    @Test
    protected void aSilentConnectionIsClosedAfterTheReaderIdleTime() throws Exception {
        EchoPeer server = new EchoPeer();
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config().readerIdleMillis(300).build(), server);
        ConnectionGroup group = connector(config().writerIdleMillis(0).reconnectBackoff(5_000, 10_000).build(),
                client).connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();
        Await.until("the server closed the silent connection", TIMEOUT, () -> client.disconnects.get() == 1);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(250);
    }

    @Test
    protected void peerCloseIsDetectedOnBothSides() throws Exception {
        EchoPeer server = new EchoPeer();
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config().build(), server);
        ConnectionGroup group = connector(config().reconnectBackoff(1_000, 2_000).build(), client)
                .connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();

        // The server closes: the client hears it.
        Connection accepted = server.connected.poll(10, TimeUnit.SECONDS);
        assertThat(accepted).isNotNull();
        accepted.close();
        Await.until("the client saw the server close", TIMEOUT, () -> client.disconnects.get() == 1);
        assertThat(group.isAvailable()).isFalse();
        Await.until("the server saw its own close", TIMEOUT, () -> server.disconnects.get() == 1);
        Await.until("the acceptor counts no connection", TIMEOUT, () -> acceptor.connectionCount() == 0);

        // The client closes (its group reconnected first): the server hears it.
        assertThat(group.awaitAvailable(20, TimeUnit.SECONDS)).as("reconnected").isTrue();
        Await.until("the server has the new connection", TIMEOUT, () -> server.open.get() == 1);
        group.close();
        Await.until("the server saw the client close", TIMEOUT, () -> server.disconnects.get() == 2);
        assertThat(server.open).hasValue(0);
    }

    @Test
    protected void oversizedFrameClosesOnlyThatConnection() throws Exception {
        EchoPeer server = new EchoPeer();
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config().maxBodySize(1024).build(), server);
        // The client's own cap is larger, so it sends what the server refuses.
        Connector connector = connector(config().maxBodySize(64 * 1024).reconnectBackoff(5_000, 10_000).build(),
                client);
        ConnectionGroup victim = connector.connect(acceptor.localAddress(), 1);
        ConnectionGroup bystander = connector.connect(acceptor.localAddress(), 1);
        assertThat(victim.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertThat(bystander.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        Await.until("the server has both connections", TIMEOUT, () -> server.open.get() == 2);

        Connection refused = victim.next();
        refused.write(EchoPeer.request(refused.alloc(), 1, "x".repeat(1025)));
        Await.until("the oversized frame's connection is closed", TIMEOUT, () -> !refused.isActive());
        Await.until("the server saw one connection close", TIMEOUT, () -> server.disconnects.get() == 1);

        Connection other = bystander.next();
        CountDownLatch answered = client.expect(1);
        other.write(EchoPeer.request(other.alloc(), 2, "still fine"));
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(client.responses).containsEntry(2L, "still fine").doesNotContainKey(1L);
        assertThat(other.isActive()).isTrue();
        assertThat(server.disconnects).hasValue(1);
    }

    @Test
    protected void writeOnAClosedConnectionReleasesTheFrame() throws Exception {
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config().build(), new EchoPeer());
        ConnectionGroup group = connector(config().reconnectBackoff(5_000, 10_000).build(), client)
                .connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        Connection connection = group.next();
        connection.close();
        Await.until("the connection is closed", TIMEOUT, () -> !connection.isActive());

        ByteBuf frame = EchoPeer.request(connection.alloc(), 1, "too late");
        connection.write(frame);
        assertThat(frame.refCnt()).isZero();
    }

    @Test
    protected void closingLeavesNoThreadAndNoConnection() throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = transport().newAcceptor(config().build(), newBindAddress(), server);
        acceptor.start();
        Connector connector = transport().newConnector(config().build(), new EchoPeer());
        ConnectionGroup group = connector.connect(acceptor.localAddress(), 2);
        Await.until("both connections are up", TIMEOUT, () -> group.activeConnections().size() == 2);
        assertThat(ioThreadNames()).isNotEmpty();

        connector.close();
        acceptor.close();
        assertThat(acceptor.connectionCount()).isZero();
        Await.until("no IO thread is alive (" + ioThreadNames() + ")", TIMEOUT, () -> ioThreadNames().isEmpty());
    }

    /**
     * The names of the live IO threads of this test's acceptors and connectors.
     *
     * @return by default the live threads named after {@link #prefix}
     */
    protected List<String> ioThreadNames() {
        return threadsNamed(prefix);
    }

    /**
     * Settings of this test: two IO threads named after it.
     *
     * @return a new builder with those settings
     */
    protected TransportConfig.Builder config() {
        return TransportConfig.builder().ioThreads(2).threadNamePrefix(prefix);
    }

    /**
     * A started acceptor on a fresh address, closed after the test.
     *
     * @param config  its settings
     * @param handler its frame handler
     * @return the acceptor
     * @throws Exception if it cannot start
     */
    protected Acceptor acceptor(TransportConfig config, EchoPeer handler) throws Exception {
        Acceptor acceptor = transport().newAcceptor(config, newBindAddress(), handler);
        toClose.push(acceptor);
        acceptor.start();
        return acceptor;
    }

    /**
     * A connector closed after the test.
     *
     * @param config  its settings
     * @param handler its frame handler
     * @return the connector
     */
    protected Connector connector(TransportConfig config, EchoPeer handler) {
        Connector connector = transport().newConnector(config, handler);
        toClose.push(connector);
        return connector;
    }

    /**
     * Closes {@code closeable} after the test (before the acceptors and connectors made earlier).
     *
     * @param closeable what to close
     */
    protected void closeAfter(AutoCloseable closeable) {
        toClose.push(closeable);
    }

    /**
     * The names of the live threads whose names start with {@code prefix} and a dash.
     *
     * @param prefix the name prefix
     * @return their names
     */
    protected static List<String> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith(prefix + "-"))
                .toList();
    }
}
