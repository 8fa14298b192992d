package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.internal.stream.ProviderStreams;
import io.jupiter.testkit.Await;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #36: consumers that grant each server stream the largest credit the protocol allows (2^31-1) and never read
 * their socket. What the provider holds for a connection's streams stays under the connection's budget
 * ({@code streamConnectionBufferBytes}) whatever the credit: the producers wait for room, the transport closes the
 * connection once it holds {@code maxPendingWriteBytes} for a peer that does not read, and a good caller on its own
 * connection sees no failed call during the attack or after it.
 */
@Timeout(180)
class StreamHugeCreditTest {

    private static final int CONNECTIONS = 4;
    private static final int STREAMS = 100;
    private static final int MESSAGE = 1024;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private final FloodServiceImpl impl = new FloodServiceImpl();
    private AttackedServer attacked;
    private JupiterServer server;
    private GoodCaller good;

    @BeforeEach
    void start() {
        attacked = AttackedServer.start(EchoService.class, echo -> echo.hello("good"), "hello, good", impl,
                new EchoServiceImpl());
        server = attacked.server;
        good = attacked.good;
    }

    @AfterEach
    void stop() throws InterruptedException {
        attacked.close();
    }

    @Test
    void nonReadingStreamsWithTheLargestCreditStayUnderTheConnectionBudget() throws Exception {
        Await.until("the good caller is served", WAIT, () -> good.succeeded() >= 5);
        ProviderStreams streams = server.streams();
        long budget = JupiterSettings.STREAM_CONNECTION_BUFFER_BYTES.get();
        long transportCap = JupiterSettings.MAX_PENDING_WRITE_BYTES.get();
        List<RawStreamPeer> peers = new ArrayList<>();
        AtomicLong mostHeld = new AtomicLong();
        try {
            int tag = 0;
            for (int c = 0; c < CONNECTIONS; c++) {
                RawStreamPeer peer = new RawStreamPeer(server.localAddress().getPort());
                peers.add(peer);
                for (int s = 1; s <= STREAMS; s++) {
                    peer.open(s, "test", "flood", "flood", tag++, "WAIT", MESSAGE, Integer.MAX_VALUE);
                    peer.credit(s, Integer.MAX_VALUE);
                }
                peer.flush();
            }
            Await.until("every stream started", WAIT, () -> {
                mostHeld.accumulateAndGet(streams.mostHeldByOneConnection(), Math::max);
                return impl.runs.size() == CONNECTIONS * STREAMS;
            });
            // The peers read nothing: each connection fills, and the transport closes it; every producer stops.
            Await.until("every hostile connection closed and its streams ended", WAIT, () -> {
                mostHeld.accumulateAndGet(streams.mostHeldByOneConnection(), Math::max);
                return streams.openStreams() == 0 && streams.budgetedConnections() == 0
                        && impl.runs.values().stream().allMatch(run -> run.stopped.getCount() == 0);
            });
        } finally {
            for (RawStreamPeer peer : peers) {
                peer.close();
            }
        }
        long sent = impl.runs.values().stream().mapToLong(run -> run.sent.get()).sum();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.printf("StreamHugeCreditTest: %d connections x %d streams, credit 2^31-1, %d-byte messages: %d"
                        + " sends returned, at most %d bytes held for one connection (budget 2 x %d), heap after GC %d"
                        + " MiB, good calls %d ok / %d failed%n", CONNECTIONS, STREAMS, MESSAGE, sent, mostHeld.get(),
                budget, heap >> 20, good.succeeded(), good.failed());

        // Buffered beyond credit and waiting to be written, each within the budget; the end frames may pass it (one
        // small frame a stream), nothing else.
        assertThat(mostHeld.get()).isLessThanOrEqualTo(2 * budget + STREAMS * 256L);
        // Each connection took what its budget and the transport's cap hold, and what the kernel's buffers took.
        long kernelSlack = 16L << 20;
        assertThat(sent).isLessThanOrEqualTo(CONNECTIONS * (2 * budget + transportCap + kernelSlack) / MESSAGE);
        assertThat(streams.bufferedBytes()).isZero();

        long before = good.succeeded();
        Await.until("the good caller is served after the attack", WAIT, () -> good.succeeded() >= before + 20);
        assertThat(good.failed()).as("good calls failed; the first: %s", good.firstFailure()).isZero();
    }
}
