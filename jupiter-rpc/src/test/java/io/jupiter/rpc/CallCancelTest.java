package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.provider.ServerRuntime;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import io.jupiter.transport.ProtocolHeader;
import io.netty.util.ResourceLeakDetector;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #35's cancellation of unary calls, against a real provider on 127.0.0.1: a call whose caller timed out or
 * cancelled it while it waited for the provider's one thread never runs; cancels for ids nobody sent cost the
 * provider a bounded memory and nothing else.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CallCancelTest {

    private static final String QUEUE_TARGET = JupiterSettings.QUEUE_TARGET_MILLIS.property();

    private static ResourceLeakDetector.Level level;

    /** The queued calls here wait far beyond the queue's target: only cancels may drop them, never the queue. */
    @BeforeAll
    static void noQueueShedding() {
        System.setProperty(QUEUE_TARGET, "0");
        // At paranoid, a million frames take the provider a minute; simple samples them.
        level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
    }

    @AfterAll
    static void restore() {
        System.clearProperty(QUEUE_TARGET);
        ResourceLeakDetector.setLevel(level);
    }

    /** A method that holds the provider's thread, one that counts its runs, one for the first calls. */
    @ServiceProvider(group = "test", name = "cancels")
    public interface Cancels {
        String hold();

        String count();

        String ping();
    }

    /** Async proxy of {@link Cancels}. */
    @ServiceProvider(group = "test", name = "cancels")
    public interface AsyncCancels {
        CompletableFuture<String> hold();

        CompletableFuture<String> count();
    }

    static final class Impl implements Cancels {
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger counted = new AtomicInteger();

        @Override
        public String hold() {
            held.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "held";
        }

        @Override
        public String count() {
            counted.incrementAndGet();
            return "counted";
        }

        @Override
        public String ping() {
            return "pong";
        }
    }

    private static int start(JupiterServer server, Impl impl) {
        server.register(impl, Cancels.class, ServiceKey.of(Cancels.class, ServiceKey.DEFAULT_VERSION));
        return server.start().getPort();
    }

    /** One connection; {@code count()} times out after 300 ms. */
    private static Cancels syncProxy(JupiterClient client, int port) {
        return client.proxy(Cancels.class).address("127.0.0.1", port).connections(1).timeoutMillis(10_000)
                .methodTimeoutMillis("count", 300).build();
    }

    /**
     * Two calls first (the first response makes the client ask about cancels; the provider's answer precedes the
     * second response on the one connection, so from then on the client knows whether it takes cancels), then
     * {@code hold()} on the provider's one thread; returns its future once it runs.
     */
    private static CompletableFuture<String> holdTheOneThread(Cancels sync, AsyncCancels async, Impl impl)
            throws InterruptedException {
        assertThat(sync.ping()).isEqualTo("pong");
        assertThat(sync.ping()).isEqualTo("pong");
        CompletableFuture<String> held = async.hold();
        assertThat(impl.held.await(10, TimeUnit.SECONDS)).as("hold() runs on the one provider thread").isTrue();
        return held;
    }

    @Test
    void aQueuedCallWhoseCallerGaveUpNeverRuns() throws Exception {
        Impl impl = new Impl();
        // No deadline travels, so that only the cancel can drop the queued calls (a deadline would too).
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1).build();
             JupiterClient client = JupiterClient.builder().propagateDeadline(false).build()) {
            int port = start(server, impl);
            Cancels sync = syncProxy(client, port);
            AsyncCancels async = client.proxy(AsyncCancels.class).address("127.0.0.1", port).connections(1)
                    .timeoutMillis(10_000).build();
            CompletableFuture<String> held = holdTheOneThread(sync, async, impl);
            // Queued behind hold(): a synchronous call that times out, and an asynchronous one cancelled.
            assertThatThrownBy(sync::count).isInstanceOf(TimeoutException.class);
            CompletableFuture<String> cancelled = async.count();
            assertThat(cancelled.cancel(true)).isTrue();
            assertThatThrownBy(cancelled::join).isInstanceOf(CancellationException.class);
            Await.until("both cancels reached the provider", Duration.ofSeconds(10),
                    () -> server.rememberedCallCancels() == 2);

            impl.release.countDown();
            assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("held");
            Await.until("the provider dropped both queued calls", Duration.ofSeconds(10),
                    () -> server.metrics().registry().meter(MetricNames.CALL_CANCELLED).getCount() == 2);
            assertThat(impl.counted).as("runs of the cancelled calls").hasValue(0);
            assertThat(server.rememberedCallCancels()).as("cancels forgotten once used").isZero();
            // A call made now runs, on the same connection.
            assertThat(async.count().get(10, TimeUnit.SECONDS)).isEqualTo("counted");
            assertThat(impl.counted).hasValue(1);
        }
    }

    @Test
    void aClientWithCancelsOffSendsNoneAndTheQueuedCallRuns() throws Exception {
        Impl impl = new Impl();
        String property = JupiterSettings.CANCEL_CALLS.property();
        System.setProperty(property, "false");
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1).build();
             JupiterClient client = JupiterClient.builder().propagateDeadline(false).build()) {
            System.clearProperty(property);
            theAbandonedCallRuns(server, client, impl);
        } finally {
            System.clearProperty(property);
        }
    }

    /** The builder's {@code cancelCalls(false)} wins over the JVM-wide default (on): each client has its own. */
    @Test
    void aClientBuiltWithCancelsOffSendsNoneWhateverTheJvmDefault() throws Exception {
        Impl impl = new Impl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1).build();
             JupiterClient client = JupiterClient.builder().propagateDeadline(false).cancelCalls(false).build()) {
            theAbandonedCallRuns(server, client, impl);
        }
    }

    /**
     * With cancels off on {@code client}: a call queued behind the one provider thread times out, and the provider
     * runs it anyway (1.3.1's behaviour: nobody told it), with no cancel remembered or counted.
     */
    private static void theAbandonedCallRuns(JupiterServer server, JupiterClient client, Impl impl)
            throws Exception {
        int port = start(server, impl);
        Cancels sync = syncProxy(client, port);
        AsyncCancels async = client.proxy(AsyncCancels.class).address("127.0.0.1", port).connections(1)
                .timeoutMillis(10_000).build();
        CompletableFuture<String> held = holdTheOneThread(sync, async, impl);
        assertThatThrownBy(sync::count).isInstanceOf(TimeoutException.class);
        impl.release.countDown();
        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("held");
        Await.until("the abandoned call ran", Duration.ofSeconds(10), () -> impl.counted.get() == 1);
        assertThat(server.rememberedCallCancels()).isZero();
        assertThat(server.metrics().registry().meter(MetricNames.CALL_CANCELLED).getCount()).isZero();
    }

    @Test
    void cancelsForUnknownIdsCostBoundedMemoryAndNothingElse() throws Exception {
        Impl impl = new Impl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build();
             Socket socket = new Socket()) {
            int port = start(server, impl);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            // A million cancels for ids never sent (16 MB), then the question about cancels.
            int cancels = 1_000_000;
            ByteBuffer frame = ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE);
            for (int i = 0; i < cancels; i++) {
                frame.clear();
                frame.putShort(ProtocolHeader.MAGIC).put(ProtocolHeader.toSign(0, ProtocolHeader.STREAM_CANCEL))
                        .put(ProtocolHeader.CALL_CANCEL).putLong(0x5eed_0000_0000L + i).putInt(0);
                out.write(frame.array());
            }
            frame.clear();
            frame.putShort(ProtocolHeader.MAGIC).put(ProtocolHeader.HEARTBEAT)
                    .put(ProtocolHeader.CALL_CANCELS_ANNOUNCED).putLong(0L).putInt(0);
            out.write(frame.array());
            out.flush();

            // Frames of a connection are handled in order: the answer comes after every cancel was taken.
            byte[] answer = new byte[ProtocolHeader.HEADER_SIZE];
            new DataInputStream(socket.getInputStream()).readFully(answer);
            ByteBuffer read = ByteBuffer.wrap(answer);
            assertThat(read.getShort()).isEqualTo(ProtocolHeader.MAGIC);
            assertThat(read.get()).as("sign").isEqualTo(ProtocolHeader.HEARTBEAT);
            assertThat(read.get()).as("status").isEqualTo(ProtocolHeader.CALL_CANCELS_ANNOUNCED);
            assertThat(read.getLong()).as("id").isZero();
            assertThat(read.getInt()).as("body size").isZero();

            assertThat(server.rememberedCallCancels()).as("cancels remembered after " + cancels)
                    .isEqualTo(ServerRuntime.MAX_CALL_CANCELS_PER_CONNECTION);
            assertThat(server.connectionCount()).as("the flooding connection stays open").isEqualTo(1);
            assertThat(server.metrics().registry().meter(MetricNames.CALL_CANCELLED).getCount()).isZero();
            // Other callers are served as before.
            Cancels good = client.proxy(Cancels.class).address("127.0.0.1", port).timeoutMillis(10_000).build();
            assertThat(good.count()).isEqualTo("counted");
            assertThat(impl.counted).hasValue(1);
        }
        // The connection's memory went with it (the server is closed; nothing is left to count).
    }
}
