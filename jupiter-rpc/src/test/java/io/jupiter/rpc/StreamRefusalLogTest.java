package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.rpc.security.AuthorizationRules;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.rpc.stream.TickService;
import io.jupiter.rpc.stream.TickServiceImpl;
import io.jupiter.transport.Status;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue #36: a peer opens 2,000 streams of a method it may not call, at once. Each is refused with its reason, as a
 * request is ({@code SERVER_BUSY} for those of the burst beyond the opens that may run at once), and counted with the
 * refused requests; the log gets at most one line a second for that peer, as for refused requests, not one a
 * refusal.
 */
@Timeout(60)
class StreamRefusalLogTest {

    private static final int OPENS = 2_000;

    @RegisterExtension
    final CapturedLog logged = new CapturedLog();

    @Test
    void twoThousandRefusedOpensLogAFewLinesAndAreCounted() throws Exception {
        ServiceKey ticks = ServiceKey.of(TickService.class, ServiceKey.DEFAULT_VERSION);
        int[] ends;
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .callerIdentifier(connection -> CallerIdentity.of("mallory"))
                .authorizer(AuthorizationRules.builder().allow(ticks, "hello", "mallory").build()).build()) {
            server.register(new TickServiceImpl());
            server.start();
            try (RawStreamPeer peer = new RawStreamPeer(server.localAddress().getPort())) {
                for (int s = 1; s <= OPENS; s++) {
                    peer.open(s, "test", "ticks", "count", 5);
                }
                peer.flush();
                ends = peer.readEnds(OPENS);
            }
            long counted = server.metrics().registry().meter(MetricNames.REJECTION).getCount();
            long lines = logged.events().stream()
                    .filter(event -> event.getFormattedMessage().contains("stream refused")).count();
            int refused = ends[Status.BAD_REQUEST.value() & 0xff];
            int busy = ends[Status.SERVER_BUSY.value() & 0xff];
            System.out.printf("StreamRefusalLogTest: %d opens refused BAD_REQUEST, %d SERVER_BUSY (a burst beyond the"
                    + " threads that may run opens at once), %d counted as rejections, %d log lines%n", refused, busy,
                    counted, lines);
            assertThat(refused).isPositive();
            assertThat(refused + busy).isEqualTo(OPENS);
            assertThat(counted).isEqualTo(OPENS);
            assertThat(lines).isBetween(1L, 10L);
        }
    }

    /**
     * Issue #38: the open's body cannot be read. The line is the one an unreadable request gets ({@code ReadStage}),
     * under the same throttle (one a second per peer): a burst of 2,000 logs at most one line for each second it
     * lasted, and one more.
     */
    @Test
    void twoThousandUnreadableOpensLogAtMostALineASecond() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build()) {
            server.register(new TickServiceImpl());
            server.start();
            long started = System.nanoTime();
            int[] ends;
            try (RawStreamPeer peer = new RawStreamPeer(server.localAddress().getPort())) {
                for (int s = 1; s <= OPENS; s++) {
                    peer.openUnreadable(s);
                }
                peer.flush();
                ends = peer.readEnds(OPENS);
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            long lines = logged.events().stream()
                    .filter(event -> event.getFormattedMessage().contains("cannot read stream")).count();
            int refused = ends[Status.BAD_REQUEST.value() & 0xff];
            int busy = ends[Status.SERVER_BUSY.value() & 0xff];
            System.out.printf("StreamRefusalLogTest: %d unreadable opens refused BAD_REQUEST, %d SERVER_BUSY, %d log"
                    + " lines in %d s%n", refused, busy, lines, seconds);
            assertThat(refused).isPositive();
            assertThat(refused + busy).isEqualTo(OPENS);
            assertThat(lines).isBetween(1L, seconds + 1);
            assertThat(logged.events()).as("the connection stays open: no line says it closes")
                    .noneMatch(event -> event.getFormattedMessage().startsWith("closing"));
        }
    }
}
