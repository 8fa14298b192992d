package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.PeerIncident;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What a hostile peer can make the transport do with junk and with its own misbehaviour: flood the log (a connection
 * closed for not reading logs once, not once per frame that was waiting), or burn the IO thread on heartbeats (a
 * heartbeat flood is closed, a well-behaved client on the same IO thread is served throughout). Sane peers (a
 * keepalive client, a 1.3.1-style heartbeat sender) are never taken for floods. Raw sockets on 127.0.0.1 against a
 * real acceptor.
 */
class HostilePeerTest {

    /** The body of each frame the non-reading peer is sent: above the coalescer's batch, so each is its own write. */
    private static final int BIG_BODY = 20 * 1024;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void aPeerThatStopsReadingIsClosedWithAFewLogLinesNotOnePerFrame() throws Exception {
        assertANonReadingPeerIsClosedWithAFewLines(false);
    }

    @Test
    void aPeerThatStopsReadingIsClosedWithAFewLogLinesWhenAnotherThreadWrites() throws Exception {
        assertANonReadingPeerIsClosedWithAFewLines(true);
    }

    /** @param offIoThread whether the answers are written by another thread (through the outbound queue) */
    private void assertANonReadingPeerIsClosedWithAFewLines(boolean offIoThread) throws Exception {
        CountDownLatch disconnected = new CountDownLatch(1);
        FrameHandler firehose = new FrameHandler() {
            @Override
            public void frameReceived(Connection connection, Frame frame) {
                long id = frame.id();
                frame.release();
                if (offIoThread) {
                    Thread writer = new Thread(() -> answer(connection, id), "firehose");
                    writer.setDaemon(true);
                    writer.start();
                } else {
                    answer(connection, id);
                }
            }

            /** One request is answered with 40 MiB: far more than the socket and the pending-bytes limit hold. */
            private void answer(Connection connection, long id) {
                for (int i = 0; i < 2_000 && connection.isActive(); i++) {
                    ByteBuf response = Frames.newFrame(connection.alloc(), BIG_BODY);
                    response.writeZero(BIG_BODY);
                    Frames.fillHeader(response, ProtocolHeader.toSign(EchoPeer.SERIALIZER, ProtocolHeader.RESPONSE),
                            Status.OK.value(), id);
                    connection.write(response);
                }
            }

            @Override
            public void disconnected(Connection connection) {
                disconnected.countDown();
            }
        };
        Acceptor acceptor = acceptor(config().maxPendingWriteBytes(8L << 20), firehose);
        try (CapturedLog log = new CapturedLog()) {
            Socket socket = new Socket();
            toClose.add(socket);
            socket.setReceiveBufferSize(64 * 1024);
            socket.connect(acceptor.localAddress(), 5_000);
            socket.getOutputStream().write(request(1, "go"));
            // Never read: the provider closes the connection once 8 MiB wait to be sent.
            assertThat(disconnected.await(30, TimeUnit.SECONDS)).as("closed for not reading").isTrue();
            assertThat(acceptor.incidents().count(PeerIncident.NOT_READING)).isEqualTo(1);
            List<String> lines = log.transportLines();
            assertThat(lines).as("log lines of one connection closed for not reading").hasSizeBetween(1, 5);
            assertThat(lines.get(0)).contains("the peer is not reading");
            // Each frame that was waiting failed on the closed connection: counted, not printed.
            assertThat(acceptor.incidents().suppressedLogLines()).isPositive();
        }
    }

    @Test
    void heartbeatFloodsAreClosedAndAGoodClientOnTheSameIoThreadIsServed() throws Exception {
        Acceptor acceptor = acceptor(config(), new EchoPeer());
        int flooders = 6;
        try (CapturedLog log = new CapturedLog()) {
            List<Flooder> floods = new ArrayList<>();
            for (int i = 0; i < flooders; i++) {
                Flooder flood = new Flooder(socket(acceptor), i % 2 == 0);
                floods.add(flood);
                flood.start();
            }
            // A good client calls all along, one call at a time, on its own connection (the same single IO thread).
            Socket good = socket(acceptor);
            AtomicInteger calls = new AtomicInteger();
            long id = 0;
            while (floods.stream().anyMatch(Flooder::isAlive) && id < 100_000) {
                id++;
                good.getOutputStream().write(request(id, "call " + id));
                assertThat(readResponseBody(good, id)).isEqualTo("call " + id);
                calls.incrementAndGet();
            }
            for (Flooder flood : floods) {
                flood.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(flood.closed.get()).as("a flooding connection is closed").isTrue();
            }
            // ... and the good client goes on being served.
            for (int i = 0; i < 100; i++) {
                id++;
                good.getOutputStream().write(request(id, "after " + id));
                assertThat(readResponseBody(good, id)).isEqualTo("after " + id);
            }
            assertThat(acceptor.incidents().count(PeerIncident.TOO_MANY_HEARTBEATS)).isEqualTo(flooders);
            assertThat(log.transportLines()).as("the closes of one peer's floods, throttled").hasSizeBetween(1, 5)
                    .allMatch(line -> line.contains("heartbeats within one second"));
        }
    }

    @Test
    void aKeepaliveClientAndA131StyleHeartbeatSenderAreNotClosed() throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(config(), server);
        // 1.3.1 sends one heartbeat per writer idle time (30 s by default); this one sends 50 a second, pings too.
        Socket legacy = socket(acceptor);
        Socket pinger = socket(acceptor);
        // Our own client with keepalive on and a heartbeat every 100 ms of writer idleness.
        EchoPeer client = new EchoPeer();
        NettyConnector connector = new NettyConnector(TransportConfig.builder().ioThreads(1)
                .threadNamePrefix("hostile-client").writerIdleMillis(100).keepaliveTimeoutMillis(2_500).build(),
                client);
        toClose.add(connector);
        ConnectionGroup group = connector.connect(acceptor.localAddress(), 2);
        assertThat(group.awaitAvailable(5, TimeUnit.SECONDS)).isTrue();

        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        long pingId = 1;
        while (System.nanoTime() - end < 0) {
            legacy.getOutputStream().write(heartbeat(0));
            pinger.getOutputStream().write(heartbeat(pingId++));
            Thread.sleep(20);
        }
        legacy.getOutputStream().write(request(1, "still here"));
        assertThat(readResponseBody(legacy, 1)).isEqualTo("still here");
        pinger.getOutputStream().write(request(2, "me too"));
        assertThat(readNonHeartbeatBody(pinger, 2)).isEqualTo("me too");
        assertThat(group.activeConnections()).hasSize(2);
        assertThat(acceptor.incidents().count(PeerIncident.TOO_MANY_HEARTBEATS)).isZero();
        assertThat(server.disconnects.get()).isZero();
    }

    /** Writes heartbeats (pings with ids, or 1.3.1's with id 0) as fast as the socket takes them, until closed. */
    private static final class Flooder extends Thread {
        private final Socket socket;
        private final byte[] burst;
        final AtomicBoolean closed = new AtomicBoolean();

        Flooder(Socket socket, boolean pings) {
            super("flooder");
            setDaemon(true);
            this.socket = socket;
            ByteBuffer frames = ByteBuffer.allocate(4_096 * ProtocolHeader.HEADER_SIZE);
            for (int i = 0; i < 4_096; i++) {
                frames.put(heartbeat(pings ? i + 1 : 0));
            }
            this.burst = frames.array();
        }

        @Override
        public void run() {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            try {
                OutputStream out = socket.getOutputStream();
                while (System.nanoTime() - end < 0) {
                    out.write(burst);
                }
            } catch (IOException closedByThePeer) {
                closed.set(true);
            }
        }
    }

    /** Captures what the transport logs at INFO and above while open. */
    private static final class CapturedLog implements AutoCloseable {
        private final Logger logger = (Logger) LoggerFactory.getLogger("io.jupiter.transport");
        private final Level level = logger.getLevel();
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

        CapturedLog() {
            // the logging thread appends while the test reads: a list that iterates over a snapshot
            appender.list = new CopyOnWriteArrayList<>();
            appender.start();
            logger.addAppender(appender);
            logger.setLevel(Level.INFO);
        }

        /** The lines logged by the transport's connections (not the acceptor's own start and stop lines). */
        List<String> transportLines() {
            synchronized (appender.list) {
                return appender.list.stream().filter(event -> !event.getLoggerName().endsWith("NettyAcceptor"))
                        .map(ILoggingEvent::getFormattedMessage).toList();
            }
        }

        @Override
        public void close() {
            logger.detachAppender(appender);
            logger.setLevel(level);
        }
    }

    private TransportConfig.Builder config() {
        return TransportConfig.builder().ioThreads(1).threadNamePrefix("hostile");
    }

    private Acceptor acceptor(TransportConfig.Builder config, FrameHandler handler) {
        NettyAcceptor acceptor = new NettyAcceptor(config.build(), new InetSocketAddress("127.0.0.1", 0), handler);
        toClose.add(acceptor);
        acceptor.start();
        return acceptor;
    }

    private Socket socket(Acceptor acceptor) throws IOException {
        Socket socket = new Socket();
        toClose.add(socket);
        socket.connect(acceptor.localAddress(), 5_000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static byte[] heartbeat(long id) {
        return ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE).putShort(ProtocolHeader.MAGIC)
                .put(ProtocolHeader.HEARTBEAT).put((byte) 0).putLong(id).putInt(0).array();
    }

    private static byte[] request(long id, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE + bytes.length).putShort(ProtocolHeader.MAGIC)
                .put(ProtocolHeader.toSign(EchoPeer.SERIALIZER, ProtocolHeader.REQUEST)).put((byte) 0).putLong(id)
                .putInt(bytes.length).put(bytes).array();
    }

    /** Reads one response frame; checks its id and returns its body. */
    private static String readResponseBody(Socket socket, long id) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        assertThat(in.readShort()).isEqualTo(ProtocolHeader.MAGIC);
        assertThat(ProtocolHeader.messageCode(in.readByte())).isEqualTo(ProtocolHeader.RESPONSE);
        in.readByte();
        assertThat(in.readLong()).isEqualTo(id);
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return new String(body, StandardCharsets.UTF_8);
    }

    /** Reads frames, skipping pongs, up to the response of {@code id}; returns its body. */
    private static String readNonHeartbeatBody(Socket socket, long id) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        for (int frames = 0; frames < 10_000; frames++) {
            assertThat(in.readShort()).isEqualTo(ProtocolHeader.MAGIC);
            byte code = ProtocolHeader.messageCode(in.readByte());
            in.readByte();
            long frameId = in.readLong();
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            if (code == ProtocolHeader.RESPONSE) {
                assertThat(frameId).isEqualTo(id);
                return new String(body, StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no response among 10,000 frames");
    }
}
