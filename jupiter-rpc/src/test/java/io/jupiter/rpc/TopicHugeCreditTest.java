package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.internal.stream.ProviderStreams;
import io.jupiter.testkit.Await;
import io.jupiter.transport.PeerIncident;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocatorMetric;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #36, topics: subscribers that grant the largest credit the protocol allows (2^31-1) and never read their
 * socket, while a topic is published at a steady rate. A topic's frames go through the same offer and connection
 * budget as any stream's ({@code streamConnectionBufferBytes}): what the provider holds for a connection stays under
 * that budget, the transport closes each connection once it holds {@code maxPendingWriteBytes} for a peer that does
 * not read (meanwhile a {@code WAIT} subscriber whose connection's budget is full holds the publisher), the
 * provider's pooled direct memory stays within those two caps per connection, and a good caller on its own
 * connection sees no failed call.
 */
@Timeout(120)
class TopicHugeCreditTest {

    private static final int CONNECTIONS = 4;
    private static final int SUBSCRIBERS = 100;
    private static final int MESSAGE = 1024;
    /** Enough to fill each connection's caps many times over (each publish is ~100 KiB a connection). */
    private static final int MAX_PUBLISHES = 20_000;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final QuoteFeedServiceImpl feed = new QuoteFeedServiceImpl();
    private AttackedServer attacked;
    private JupiterServer server;
    private GoodCaller good;

    @BeforeEach
    void start() {
        attacked = AttackedServer.start(EchoService.class, echo -> echo.hello("good"), "hello, good", feed,
                new EchoServiceImpl());
        server = attacked.server;
        good = attacked.good;
    }

    @AfterEach
    void stop() throws InterruptedException {
        attacked.close();
    }

    @Test
    void nonReadingTopicSubscribersWithTheLargestCreditStayUnderTheConnectionBudget() throws Exception {
        Await.until("the good caller is served", WAIT, () -> good.succeeded() >= 5);
        ProviderStreams streams = server.streams();
        long budget = JupiterSettings.STREAM_CONNECTION_BUFFER_BYTES.get();
        long transportCap = JupiterSettings.MAX_PENDING_WRITE_BYTES.get();
        assertThat(JupiterSettings.ALLOCATOR.get()).as("the provider's allocator is the one measured")
                .isEqualTo("pooled");
        PooledByteBufAllocatorMetric direct = PooledByteBufAllocator.DEFAULT.metric();
        long directBefore = direct.usedDirectMemory();
        AtomicLong mostHeld = new AtomicLong();
        AtomicLong mostDirect = new AtomicLong(directBefore);
        Runnable sample = () -> {
            mostHeld.accumulateAndGet(streams.mostHeldByOneConnection(), Math::max);
            mostDirect.accumulateAndGet(direct.usedDirectMemory(), Math::max);
        };
        List<RawStreamPeer> peers = new ArrayList<>();
        Publisher publisher = new Publisher(feed, "q".repeat(MESSAGE));
        try {
            for (int c = 0; c < CONNECTIONS; c++) {
                RawStreamPeer peer = new RawStreamPeer(server.localAddress().getPort());
                peers.add(peer);
                for (int s = 1; s <= SUBSCRIBERS; s++) {
                    peer.open(s, "test", "quotefeed", "quotes", "WAIT");
                    peer.credit(s, Integer.MAX_VALUE);
                }
                peer.flush();
            }
            Await.until("every subscriber joined the topic", WAIT,
                    () -> feed.quotes.subscriberCount() == CONNECTIONS * SUBSCRIBERS);
            publisher.start();
            // The peers read nothing: each connection fills, and the transport closes it; every subscriber leaves.
            Await.until("every hostile connection closed and its subscribers left the topic", WAIT, () -> {
                sample.run();
                return feed.quotes.subscriberCount() == 0 && streams.openStreams() == 0
                        && streams.budgetedConnections() == 0;
            });
        } finally {
            publisher.stop();
            for (RawStreamPeer peer : peers) {
                peer.close();
            }
        }
        sample.run();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long closedNotReading = server.peerIncidents().count(PeerIncident.NOT_READING);
        // Each connection's frames: up to the budget's two parts (their headers are direct, the shared body is heap),
        // then the transport's outbound buffer (direct copies) up to its cap; the pool rounds up to its chunks.
        long directBound = directBefore + CONNECTIONS * (2 * budget + transportCap)
                + (long) direct.numDirectArenas() * direct.chunkSize();
        System.out.printf("TopicHugeCreditTest: %d connections x %d topic subscribers, credit 2^31-1, %d-byte messages:"
                        + " %d publishes (%d frames taken) until every connection was closed (%d for not reading), at"
                        + " most %d bytes held for one connection (budget 2 x %d), pooled direct memory at most %d"
                        + " MiB (%d MiB before; bound %d MiB), heap after GC %d MiB, good calls %d ok / %d failed%n",
                CONNECTIONS, SUBSCRIBERS, MESSAGE, publisher.published.get(), publisher.taken.get(),
                closedNotReading, mostHeld.get(), budget, mostDirect.get() >> 20, directBefore >> 20,
                directBound >> 20, heap >> 20, good.succeeded(), good.failed());

        assertThat(publisher.failure).as("the publisher failed").isNull();
        // Waiting to be written, each within the budget; the end frames may pass it (one small frame a stream).
        assertThat(mostHeld.get()).isLessThanOrEqualTo(2 * budget + SUBSCRIBERS * 256L);
        assertThat(mostDirect.get()).isLessThanOrEqualTo(directBound);
        // The transport's not-reading guard closed every hostile connection.
        assertThat(closedNotReading).isEqualTo(CONNECTIONS);
        assertThat(streams.bufferedBytes()).isZero();

        long before = good.succeeded();
        Await.until("the good caller is served after the attack", WAIT, () -> good.succeeded() >= before + 20);
        assertThat(good.failed()).as("good calls failed; the first: %s", good.firstFailure()).isZero();
    }

    /** Publishes to the topic at a steady pace, up to {@link #MAX_PUBLISHES} messages, until stopped. */
    private static final class Publisher {

        final AtomicLong published = new AtomicLong();
        final AtomicLong taken = new AtomicLong();
        private final Thread thread;
        private volatile boolean stopped;
        volatile Throwable failure;

        Publisher(QuoteFeedServiceImpl feed, String message) {
            thread = new Thread(() -> {
                try {
                    while (!stopped && published.get() < MAX_PUBLISHES) {
                        taken.addAndGet(feed.quotes.publish(message));
                        published.incrementAndGet();
                        TimeUnit.MILLISECONDS.sleep(1); // a steady publisher, not a flood
                    }
                } catch (InterruptedException e) {
                    // stopped while a WAIT subscriber had no room
                } catch (Throwable e) {
                    failure = e;
                }
            }, "topic-publisher");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join(10_000);
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(10_000);
            }
        }
    }
}
