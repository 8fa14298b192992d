package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #38 (settings per client): the least-latency balancer's decay is each client's own
 * ({@code JupiterClient.Builder.latencyDecayMillis}), not a JVM-wide constant. Two clients in one JVM call the same
 * two providers, one of them slow: the client whose decay is a millisecond forgets the slow provider's latency between
 * its calls and keeps trying it, the one whose decay is an hour keeps away from it once both answered.
 */
@Timeout(120)
class PerClientLatencyDecayTest {

    private static final long SLOW_MILLIS = 100;
    private static final int WARM_UP_CALLS = 10;
    private static final int CALLS = 40;

    @Test
    void twoClientsInOneJvmForgetASlowProviderEachAtItsOwnPace() throws Exception {
        Counting fastCalls = new Counting(0);
        Counting slowCalls = new Counting(SLOW_MILLIS);
        try (JupiterServer fast = server(fastCalls); JupiterServer slow = server(slowCalls);
             JupiterClient forgetful = JupiterClient.builder().latencyDecayMillis(1).build();
             JupiterClient steady = JupiterClient.builder().latencyDecayMillis(TimeUnit.HOURS.toMillis(1)).build()) {
            int forgetfulSlow = slowCallsOf(proxy(forgetful, fast, slow), slowCalls);
            int steadySlow = slowCallsOf(proxy(steady, fast, slow), slowCalls);
            System.out.printf("PerClientLatencyDecayTest: of %d calls, %d went to the slow provider with a 1 ms decay,"
                    + " %d with a 1 h decay%n", CALLS, forgetfulSlow, steadySlow);
            assertThat(forgetfulSlow).as("a 1 ms decay forgets the slow provider's latency: it is tried again")
                    .isGreaterThanOrEqualTo(4);
            assertThat(steadySlow).as("a 1 h decay keeps the slow provider's latency: it is avoided")
                    .isLessThanOrEqualTo(1);
        }
    }

    /** Calls of {@code echo} that reached the slow provider, after warm-up calls that let both providers answer. */
    private static int slowCallsOf(EchoService echo, Counting slowCalls) {
        for (int i = 0; i < WARM_UP_CALLS; i++) {
            assertThat(echo.hello("warm")).isEqualTo("hello, warm");
        }
        int before = slowCalls.calls.get();
        for (int i = 0; i < CALLS; i++) {
            assertThat(echo.hello("x")).isEqualTo("hello, x");
        }
        return slowCalls.calls.get() - before;
    }

    private static EchoService proxy(JupiterClient client, JupiterServer fast, JupiterServer slow) {
        return client.proxy(EchoService.class).address("127.0.0.1", fast.localAddress().getPort())
                .address("127.0.0.1", slow.localAddress().getPort()).loadBalancer(LoadBalancerType.LEAST_LATENCY)
                .connections(1).timeoutMillis(30_000).build();
    }

    private static JupiterServer server(Interceptor interceptor) {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).interceptor(interceptor).build();
        server.register(new EchoServiceImpl());
        server.start();
        return server;
    }

    /** Counts the calls a server runs; a slow one takes {@code millis} more over each (its method is slow). */
    private static final class Counting implements Interceptor {
        final AtomicInteger calls = new AtomicInteger();
        private final long millis;

        Counting(long millis) {
            this.millis = millis;
        }

        @Override
        public void beforeInvoke(Invocation invocation) {
            calls.incrementAndGet();
            if (millis > 0) {
                try {
                    Thread.sleep(millis); // the provider's own slowness, not a wait for anything
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
