package io.jupiter.rpc.overload;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.metrics.MetricNames;
import io.netty.util.ResourceLeakDetector;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #35's overload, small: a provider with the server's defaults (4 threads), a method that waits 20 ms, a
 * consumer with a 500 ms timeout, calls offered open-loop at about 4 x what the provider can serve for 3 s, then at a
 * fifth of it. The provider sheds what it cannot serve in time with SERVER_BUSY, runs almost nothing for callers who
 * already gave up, and serves the calls made after the overload. Assertions are on counts, with wide margins.
 *
 * <p>With a queue interval of 100 ms, so that a standing queue sheds well within the callers' 500 ms (the default,
 * 1 s, suits callers with the usual timeouts of a second and more; docs/reliability.md says why).
 */
class OverloadSheddingTest {

    private static final String QUEUE_INTERVAL = JupiterSettings.QUEUE_INTERVAL_MILLIS.property();

    private static ResourceLeakDetector.Level level;

    /** At {@code paranoid} the consumer alone would be too slow to overload anything (as in BackPressureTest). */
    @BeforeAll
    static void sampleLeaks() {
        level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
        System.setProperty(QUEUE_INTERVAL, "100");
    }

    @AfterAll
    static void restoreLeakLevel() {
        ResourceLeakDetector.setLevel(level);
        System.clearProperty(QUEUE_INTERVAL);
    }

    @Test
    void overloadIsShedWithServerBusyAndTheCallsAfterItSucceed() throws Exception {
        SlowService.Impl impl = new SlowService.Impl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(impl);
            int port = server.start().getPort();
            SlowService async = client.proxy(SlowService.class).address("127.0.0.1", port)
                    .invokeType(InvokeType.ASYNC).timeoutMillis(500).build();
            // 4 threads x 20 ms: at most 200 calls a second.
            List<OpenLoad.Second> seconds = OpenLoad.run(async, 500, 20,
                    List.of(new OpenLoad.Step(800, 3), new OpenLoad.Step(40, 3)), null, null);

            long busy = seconds.stream().mapToLong(s -> s.busy).sum();
            long other = seconds.stream().mapToLong(s -> s.other).sum();
            long offered = seconds.stream().mapToLong(s -> s.offered).sum();
            Throwable firstOther = seconds.stream().map(s -> s.firstOther).filter(e -> e != null).findFirst()
                    .orElse(null);
            assertThat(busy).as("calls shed with ServerBusyException").isPositive();
            // A loaded machine may fail the odd call otherwise (e.g. not sent in time); not more than 1 %.
            assertThat(other).as("calls that failed other than by ServerBusy or a timeout, first: " + firstOther)
                    .isLessThanOrEqualTo(offered / 100);
            // From 1 s after the overload ended: the provider holds no backlog, the calls succeed.
            List<OpenLoad.Second> late = seconds.subList(4, 6);
            long lateOffered = late.stream().mapToLong(s -> s.offered).sum();
            long lateOk = late.stream().mapToLong(s -> s.ok).sum();
            assertThat(lateOk).as("calls made from 1 s after the overload that succeeded, of " + lateOffered)
                    .isGreaterThanOrEqualTo(lateOffered * 9 / 10);
            long executed = impl.executed.sum();
            assertThat(impl.executedForNobody.sum()).as("calls run for callers who had given up, of " + executed)
                    .isLessThanOrEqualTo(executed / 10);
            long shed = server.metrics().registry().meter(MetricNames.QUEUE_SHED).getCount();
            assertThat(shed).as("queue.shed").isPositive();
        }
    }
}
