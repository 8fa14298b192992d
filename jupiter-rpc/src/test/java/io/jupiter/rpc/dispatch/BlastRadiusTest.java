package io.jupiter.rpc.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.EchoService;
import io.jupiter.rpc.EchoServiceImpl;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceProvider;
import io.jupiter.testkit.OwnThreads;
import io.jupiter.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue #26's blast radius: a user's method, fast for thousands of calls, then waits 1 s once (a cache miss that goes
 * to a database). Another client calling an unrelated service on the same server must not wait for it. The server
 * has one IO thread, so both connections surely share it: a method that ran on that thread would stall the other
 * client for the whole second. Real server and clients on 127.0.0.1.
 */
class BlastRadiusTest {

    private static final String IO = "blast-io-worker-";
    private static final String POOL = "jupiter-provider-";
    /** Fast calls before the slow one: more than adaptive dispatch's first window (1,000). */
    private static final int FAST_CALLS = 2_000;
    private static final long BLOCK_MILLIS = 1_000;
    /**
     * The bound asserted for the unrelated caller while the method blocks: generous against a loaded machine's
     * scheduling (the calls take about a millisecond here), far below the second a stalled IO thread costs.
     */
    private static final long UNRELATED_BOUND_MILLIS = 250;

    @Test
    void withTheDefaultsAMethodThatBlocksOnceDoesNotHoldUpAnUnrelatedCaller() throws Exception {
        try (JupiterServer server = server(JupiterServer.builder());
             JupiterClient lookupClient = JupiterClient.builder().build();
             JupiterClient otherClient = JupiterClient.builder().build()) {
            InetSocketAddress address = server.start();
            Lookup lookup = lookupClient.proxy(Lookup.class).address("127.0.0.1", address.getPort())
                    .timeoutMillis(5_000).build();
            EchoService other = otherClient.proxy(EchoService.class).address("127.0.0.1", address.getPort())
                    .timeoutMillis(5_000).build();
            for (int i = 0; i < FAST_CALLS; i++) {
                assertThat(lookup.find("hit")).as("call %d", i).startsWith(POOL);
            }
            long worstMillis = worstUnrelatedCallWhileTheMethodBlocks(server, lookup, other);
            System.out.printf("BlastRadiusTest: with the defaults, the unrelated caller's slowest call while the "
                    + "method blocked %d ms: %d ms%n", BLOCK_MILLIS, worstMillis);
            assertThat(worstMillis).as("the unrelated caller's slowest call while the method blocked, ms")
                    .isLessThan(UNRELATED_BOUND_MILLIS);
        }
    }

    /** The same scenario with adaptive dispatch switched on: what the default now rules out. */
    @Test
    void withAdaptiveDispatchOnTheLearnedMethodStallsTheUnrelatedCaller() throws Exception {
        try (JupiterServer server = server(JupiterServer.builder().adaptiveDispatch(true));
             JupiterClient lookupClient = JupiterClient.builder().build();
             JupiterClient otherClient = JupiterClient.builder().build()) {
            InetSocketAddress address = server.start();
            Lookup lookup = lookupClient.proxy(Lookup.class).address("127.0.0.1", address.getPort())
                    .timeoutMillis(5_000).build();
            EchoService other = otherClient.proxy(EchoService.class).address("127.0.0.1", address.getPort())
                    .timeoutMillis(5_000).build();
            // Bounded: a window failed by a stray slow call makes the next one 10,000 calls.
            boolean learned = false;
            for (int i = 0; i < 12_000 && !learned; i++) {
                learned = lookup.find("hit").startsWith(IO);
            }
            assertThat(learned).as("the method moved to the IO thread").isTrue();
            long worstMillis = worstUnrelatedCallWhileTheMethodBlocks(server, lookup, other);
            assertThat(worstMillis).as("the unrelated caller waited for the blocked IO thread, ms")
                    .isGreaterThanOrEqualTo(BLOCK_MILLIS / 2);
        }
    }

    private static JupiterServer server(JupiterServer.Builder builder) {
        JupiterServer server = builder.host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().ioThreads(1).threadNamePrefix("blast-io").build()).build();
        server.register(new LookupImpl());
        server.register(new EchoServiceImpl());
        return server;
    }

    /** Starts the blocking call, then calls the unrelated service until it ended; returns the slowest call. */
    private static long worstUnrelatedCallWhileTheMethodBlocks(JupiterServer server, Lookup lookup, EchoService other)
            throws Exception {
        assertThat(other.hello("warm")).isEqualTo("hello, warm");
        LookupImpl.blocking = new CountDownLatch(1);
        CompletableFuture<String> miss = CompletableFuture.supplyAsync(() -> lookup.find("miss"),
                OwnThreads.EXECUTOR);
        // The request may be stuck behind the IO thread itself: waiting for the method to start is bounded.
        LookupImpl.blocking.await(5, TimeUnit.SECONDS);
        long worst = 0;
        // Bounded: at most 100,000 calls, and only while the slow call runs.
        for (int i = 0; i < 100_000 && !miss.isDone(); i++) {
            long start = System.nanoTime();
            assertThat(other.hello("x")).isEqualTo("hello, x");
            worst = Math.max(worst, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
        assertThat(miss.get(10, TimeUnit.SECONDS)).isNotNull();
        return worst;
    }

    /** A lookup that is fast, except for the key "miss", which waits a second as a database would. */
    @ServiceProvider(group = "test", name = "lookup")
    public interface Lookup {
        /** The name of the thread that ran it. */
        String find(String key);
    }

    public static final class LookupImpl implements Lookup {
        static volatile CountDownLatch blocking = new CountDownLatch(1);

        @Override
        public String find(String key) {
            if (key.equals("miss")) {
                blocking.countDown();
                try {
                    Thread.sleep(BLOCK_MILLIS); // the method's own blocking, what the test is about
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Thread.currentThread().getName();
        }
    }
}
