package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.internal.stream.ProviderStreams;
import io.jupiter.rpc.stream.IntakeService;
import io.jupiter.rpc.stream.IntakeServiceImpl;
import io.jupiter.testkit.Await;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #36: threads are the provider's, not a connection's. Peers open 4 x 1,000 streams of a client-streaming
 * method that reads the consumer's messages with a blocking iterator, and send nothing: each open holds a thread as
 * long as its stream lasts. At most {@code streamThreads} (512) do, across every connection; the opens beyond are
 * refused {@code SERVER_BUSY}, the live threads stay far below a thousand, and a good caller on its own connection
 * sees no failed call during the attack or after it. On JDK 21 and later the streams run on virtual threads, which
 * {@link Thread#getAllStackTraces()} does not list: there the JVM's platform threads are what stays bounded.
 */
@Timeout(180)
class StreamThreadBoundTest {

    private static final int CONNECTIONS = 4;
    private static final int OPENS = 1_000;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private final IntakeServiceImpl intake = new IntakeServiceImpl();
    private AttackedServer attacked;
    private JupiterServer server;
    private GoodCaller good;

    @BeforeEach
    void start() {
        attacked = AttackedServer.start(IntakeService.class, intake -> intake.hello("good"), "hello, good",
                intake);
        server = attacked.server;
        good = attacked.good;
    }

    @AfterEach
    void stop() throws InterruptedException {
        attacked.close();
    }

    @Test
    void blockingOpensBeyondTheProvidersBoundAreRefusedBusyAndTheThreadsStayBounded() throws Exception {
        Await.until("the good caller is served", WAIT, () -> good.succeeded() >= 5);
        ProviderStreams streams = server.streams();
        int bound = JupiterSettings.STREAM_THREADS.get();
        AtomicInteger mostStreamThreads = new AtomicInteger();
        AtomicInteger mostLive = new AtomicInteger();
        List<RawStreamPeer> peers = new ArrayList<>();
        try {
            for (int c = 0; c < CONNECTIONS; c++) {
                RawStreamPeer peer = new RawStreamPeer(server.localAddress().getPort());
                peers.add(peer);
                for (int s = 1; s <= OPENS; s++) {
                    peer.open(s, "test", "intake", "sum");
                }
                peer.flush();
            }
            // Every open was taken or refused: the bound's worth of methods wait in their iterators.
            Await.until("the bound's worth of streams hold a thread, the rest refused", WAIT, () -> {
                sample(mostStreamThreads, mostLive);
                return streams.streamsHoldingAThread() == bound && streams.openStreams() == bound
                        && intake.summing() == bound // every one of them started and waits in its iterator
                        && Await.holdsFor(Duration.ofMillis(500), () -> {
                            sample(mostStreamThreads, mostLive);
                            return streams.openStreams() == bound;
                        });
            });
        } finally {
            for (RawStreamPeer peer : peers) {
                peer.close();
            }
        }
        // The peers went away: every method's iterator hears it, every thread is given back.
        Await.until("every stream ended and gave its thread back", WAIT, () -> streams.openStreams() == 0
                && streams.streamsHoldingAThread() == 0);
        System.out.printf("StreamThreadBoundTest: %d x %d blocking opens, bound %d: at most %d jupiter-stream threads,"
                        + " %d live threads in the JVM; good calls %d ok / %d failed%n", CONNECTIONS, OPENS, bound,
                mostStreamThreads.get(), mostLive.get(), good.succeeded(), good.failed());
        assertThat(mostStreamThreads.get()).isLessThanOrEqualTo(bound + 64);
        assertThat(mostLive.get()).isLessThanOrEqualTo(1_000);

        long before = good.succeeded();
        Await.until("the good caller is served after the attack", WAIT, () -> good.succeeded() >= before + 20);
        assertThat(good.failed()).as("good calls failed; the first: %s", good.firstFailure()).isZero();
    }

    private static void sample(AtomicInteger mostStreamThreads, AtomicInteger mostLive) {
        int named = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            String name = thread.getName();
            if (name.startsWith("jupiter-stream-") && !name.startsWith("jupiter-stream-deadline")) {
                named++;
            }
        }
        mostStreamThreads.accumulateAndGet(named, Math::max);
        mostLive.accumulateAndGet(ManagementFactory.getThreadMXBean().getThreadCount(), Math::max);
    }
}
