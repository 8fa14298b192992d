package io.jupiter.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.testkit.Await;
import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.WriteBatching;
import io.jupiter.transport.netty.NettyAcceptor;
import io.jupiter.transport.netty.NettyConnector;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When AUTO holds a client connection's flush: by the natural batch, what the event loop finds queued when it gets
 * to a drain, never by what a hold gathered.
 */
class FlushHoldingTest {

    private static final long DELAY_MICROS = 50;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void framesAHoldGathersDoNotKeepAutoHolding() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.freezeTime();
        try {
            FlushHolding holding = new FlushHolding(WriteBatching.AUTO, false, DELAY_MICROS);
            OutboundQueue queue = new OutboundQueue(channel, holding, Long.MAX_VALUE);
            int written = 0;

            // Busy: four frames are queued each time before the loop gets to them, so AUTO starts holding.
            for (int round = 0; round < 20 && !holding.holdNext(); round++) {
                for (int i = 0; i < 4; i++) {
                    queue.add(frame());
                }
                written += 4;
                runDrains(channel);
            }
            assertThat(holding.holdNext()).as("holds once natural batches carry 4 frames").isTrue();
            assertThat(holding.heldDrains()).isZero();

            // Two callers in turn: the loop finds one frame, the other one comes while the drain is held, so held
            // drains write two frames each. Counting what the holds gathered would keep AUTO holding for ever.
            for (int round = 0; round < 100; round++) {
                queue.add(frame());
                channel.runPendingTasks();
                queue.add(frame());
                written += 2;
                runDrains(channel);
            }
            long held = holding.heldDrains();
            assertThat(held).as("held drains, then it stopped holding").isPositive().isLessThan(10);
            assertThat(holding.holdNext()).isFalse();
            for (int round = 0; round < 50; round++) {
                queue.add(frame());
                written++;
                runDrains(channel);
            }
            assertThat(holding.heldDrains()).as("a lone writer is not held").isEqualTo(held);
            assertThat(channel.outboundMessages()).as("every frame written").hasSize(written);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void enableHoldsEveryDrainAndDisableNone() {
        for (WriteBatching batching : List.of(WriteBatching.ENABLE, WriteBatching.DISABLE)) {
            EmbeddedChannel channel = new EmbeddedChannel();
            channel.freezeTime();
            try {
                FlushHolding holding = new FlushHolding(batching, false, DELAY_MICROS);
                OutboundQueue queue = new OutboundQueue(channel, holding, Long.MAX_VALUE);
                for (int round = 0; round < 10; round++) {
                    queue.add(frame());
                    runDrains(channel);
                }
                assertThat(holding.heldDrains()).as(batching.name()).isEqualTo(batching == WriteBatching.ENABLE
                        ? 10 : 0);
                assertThat(channel.outboundMessages()).hasSize(10);
            } finally {
                channel.finishAndReleaseAll();
            }
        }
    }

    @Test
    void aLoneCallerNeverWaitsAHold() throws Exception {
        try (Pair pair = new Pair("lone")) {
            Connection connection = pair.group.next();
            for (long id = 1; id <= 300; id++) {
                CountDownLatch answered = pair.client.expect(1);
                connection.write(EchoPeer.request(connection.alloc(), id, "ping " + id));
                assertThat(answered.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("answer %d", id).isTrue();
            }
            assertThat(pair.client.responses).hasSize(300);
            assertThat(heldDrains(connection)).isZero();
        }
    }

    @Test
    void manyConcurrentWritersAreBatched() throws Exception {
        try (Pair pair = new Pair("many")) {
            Connection connection = pair.group.next();
            int threads = 8;
            int perThread = 1_000;
            CountDownLatch answered = pair.client.expect(threads * perThread);
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long base = (long) t * perThread;
                Thread writer = new Thread(() -> {
                    for (int i = 1; i <= perThread; i++) {
                        connection.write(EchoPeer.request(connection.alloc(), base + i, "request " + (base + i)));
                    }
                }, "flush-holding-writer-" + t);
                writers.add(writer);
                writer.start();
            }
            for (Thread writer : writers) {
                writer.join(TIMEOUT.toMillis());
            }
            assertThat(answered.await(30, TimeUnit.SECONDS)).as("all answered").isTrue();
            assertThat(pair.client.responses).hasSize(threads * perThread);
            assertThat(heldDrains(connection)).as("drains held while writers queued frames together").isPositive();

            // Once the writers are gone, a lone caller's natural batches bring the average down: it stops holding.
            for (long id = 1; id <= 300; id++) {
                CountDownLatch back = pair.client.expect(1);
                connection.write(EchoPeer.request(connection.alloc(), -id, "ping"));
                assertThat(back.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            }
            long held = heldDrains(connection);
            for (long id = 301; id <= 400; id++) {
                CountDownLatch back = pair.client.expect(1);
                connection.write(EchoPeer.request(connection.alloc(), -id, "ping"));
                assertThat(back.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            }
            assertThat(heldDrains(connection)).as("no hold for the lone caller that followed").isEqualTo(held);
        }
    }

    private static long heldDrains(Connection connection) throws Exception {
        NettyConnection netty = (NettyConnection) connection;
        return CompletableFuture.supplyAsync(netty::heldDrains, connection.ioExecutor())
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Runs the drain the queue asked for: an unheld one at once, a held one after its delay. */
    private static void runDrains(EmbeddedChannel channel) {
        channel.runPendingTasks();
        channel.advanceTimeBy(DELAY_MICROS, TimeUnit.MICROSECONDS);
        channel.runScheduledPendingTasks();
        channel.runPendingTasks();
    }

    private static ByteBuf frame() {
        return Unpooled.buffer(16).writeZero(16);
    }

    /** A server echoing on 127.0.0.1 and one client connection to it, write batching AUTO on both. */
    private static final class Pair implements AutoCloseable {

        final EchoPeer client = new EchoPeer();
        final NettyAcceptor acceptor;
        final NettyConnector connector;
        final ConnectionGroup group;

        Pair(String name) {
            TransportConfig config = TransportConfig.builder().ioThreads(1).threadNamePrefix("flush-holding-" + name)
                    .writeBatching(WriteBatching.AUTO).build();
            acceptor = new NettyAcceptor(config, new InetSocketAddress("127.0.0.1", 0), new EchoPeer());
            acceptor.start();
            connector = new NettyConnector(config, client);
            group = connector.connect(acceptor.localAddress(), 1);
            Await.until("the connection is up", TIMEOUT, () -> group.activeConnections().size() == 1);
        }

        @Override
        public void close() {
            connector.close();
            acceptor.close();
        }
    }
}
