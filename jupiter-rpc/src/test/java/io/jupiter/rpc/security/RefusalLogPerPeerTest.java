package io.jupiter.rpc.security;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.jupiter.rpc.CapturedLog;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.RawStreamPeer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.rpc.stream.TickService;
import io.jupiter.rpc.stream.TickServiceImpl;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import java.io.DataInputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue #38: the refusals one peer causes are logged at most once per {@code refusalLogIntervalMillis} (a minute by
 * default) for each cause, whatever the peer sends, and every one is counted. Sent as a peer would, over real sockets:
 * 2,000 calls and 2,000 stream opens of methods the caller may not call.
 */
@Timeout(120)
class RefusalLogPerPeerTest {

    private static final int REFUSALS = 2_000;
    private static final ServiceKey TICKS = ServiceKey.of(TickService.class, ServiceKey.DEFAULT_VERSION);

    @RegisterExtension
    final CapturedLog logged = new CapturedLog();

    @Test
    void twoThousandRefusedCallsAndOpensLogOneLinePerCauseAndAreAllCounted() throws Exception {
        try (JupiterServer server = mayCallOnlyFailing(JupiterServer.builder())) {
            int port = server.localAddress().getPort();
            int refusedCalls = 0;
            try (Socket socket = RawCalls.connect(port)) {
                skipAnnouncement(socket);
                for (int i = 0; i < REFUSALS; i++) {
                    RawCalls.Answer answer = RawCalls.call(socket, SerializerType.PROTOSTUFF,
                            RawCalls.request(SerializerType.PROTOSTUFF, "ticks", "hello", "m"));
                    if (answer.status() == Status.BAD_REQUEST.value()
                            && answer.message().contains("is not authorized")) {
                        refusedCalls++;
                    }
                }
            }
            int[] ends;
            try (RawStreamPeer peer = new RawStreamPeer(port)) {
                for (int s = 1; s <= REFUSALS; s++) {
                    peer.open(s, "test", "ticks", "count", 5);
                }
                peer.flush();
                ends = peer.readEnds(REFUSALS);
            }
            long callLines = lines("request");
            long openLines = lines("stream refused");
            long counted = server.metrics().registry().meter(MetricNames.REJECTION).getCount();
            int refusedOpens = ends[Status.BAD_REQUEST.value() & 0xff];
            int busyOpens = ends[Status.SERVER_BUSY.value() & 0xff];
            System.out.printf("RefusalLogPerPeerTest: %d calls refused, %d opens refused BAD_REQUEST and %d"
                    + " SERVER_BUSY, %d counted as rejections; log lines: %d for the calls, %d for the opens%n",
                    refusedCalls, refusedOpens, busyOpens, counted, callLines, openLines);
            assertThat(refusedCalls).isEqualTo(REFUSALS);
            assertThat(refusedOpens).isPositive();
            assertThat(refusedOpens + busyOpens).isEqualTo(REFUSALS);
            assertThat(counted).as("every refusal counted, logged or not").isEqualTo(2L * REFUSALS);
            assertThat(callLines).as("one line for the calls in the minute").isEqualTo(1);
            assertThat(openLines).as("one line for the opens in the minute").isEqualTo(1);
        }
    }

    @Test
    void eachServerLogsByItsOwnInterval() throws Exception {
        // One server keeps the minute; the other logs a line every millisecond at most.
        try (JupiterServer minute = mayCallOnlyFailing(JupiterServer.builder());
             JupiterServer milli = mayCallOnlyFailing(JupiterServer.builder().refusalLogIntervalMillis(1))) {
            assertThat(refusedCallsLogged(minute)).isEqualTo(1);
            assertThat(refusedCallsLogged(milli)).isEqualTo(3);
        }
    }

    /** Three refused calls a few milliseconds apart, from one peer: the lines they got. */
    private long refusedCallsLogged(JupiterServer server) throws Exception {
        logged.events().clear();
        try (Socket socket = RawCalls.connect(server.localAddress().getPort())) {
            skipAnnouncement(socket);
            for (int i = 0; i < 3; i++) {
                long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
                RawCalls.Answer answer = RawCalls.call(socket, SerializerType.PROTOSTUFF,
                        RawCalls.request(SerializerType.PROTOSTUFF, "ticks", "hello", "m"));
                assertThat(answer.status()).isEqualTo(Status.BAD_REQUEST.value());
                while (System.nanoTime() - next < 0) {
                    Thread.onSpinWait(); // more than the short interval passes before the next call
                }
            }
        }
        return lines("request");
    }

    /** Reads the streams' announcement a provider serving stream methods sends each connection first. */
    private static void skipAnnouncement(Socket socket) throws Exception {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[ProtocolHeader.HEADER_SIZE];
        in.readFully(header);
        assertThat(header[2] & 0x0f).as("message code").isEqualTo(ProtocolHeader.HEARTBEAT & 0x0f);
        in.readFully(new byte[ByteBuffer.wrap(header).getInt(12)]);
    }

    /** A started server where caller "mallory" may call only {@code ticks.failing}. */
    private static JupiterServer mayCallOnlyFailing(JupiterServer.Builder builder) {
        JupiterServer server = builder.host("127.0.0.1").port(0)
                .callerIdentifier(connection -> CallerIdentity.of("mallory"))
                .authorizer(AuthorizationRules.builder().allow(TICKS, "failing", "mallory").build()).build();
        server.register(new TickServiceImpl());
        server.start();
        return server;
    }

    /** The refusal lines of callers who may not call what they called, for {@code what}. */
    private long lines(String what) {
        return logged.events().stream().map(ILoggingEvent::getFormattedMessage)
                .filter(line -> line.contains("may not call") && line.contains(what)).count();
    }
}
