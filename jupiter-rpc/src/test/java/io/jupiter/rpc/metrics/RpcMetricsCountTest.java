package io.jupiter.rpc.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Timer;
import io.jupiter.rpc.ServiceKey;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The histograms and timers count each recording once, from whichever thread: their counts come from the reservoir
 * (no counter of their own), and a timer's meter reads the same count.
 */
class RpcMetricsCountTest {

    private static final int PER_THREAD = 10_000;

    @Test
    void everyRecordingFromEveryThreadIsCountedOnceByHistogramsTimersAndTheirMeters() throws Exception {
        RpcMetrics metrics = RpcMetrics.create(RpcMetrics.Side.PROVIDER, true);
        ServiceKey key = new ServiceKey("test", "counted", "1.0.0");
        Object token = new Object();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Runnable load = () -> {
                for (int i = 0; i < PER_THREAD; i++) {
                    long start = metrics.startNanos();
                    metrics.request(100 + i % 50);
                    metrics.response((byte) 0x20, 10, start);
                    metrics.methodDone(token, key, "work", start);
                }
            };
            // Jupiter's own threads have a recorder each; any other thread writes a shared one.
            threads.add(t % 2 == 0 ? new FastThreadLocalThread(load) : new Thread(load));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(60_000);
            assertThat(thread.isAlive()).isFalse();
        }

        long expected = 4L * PER_THREAD;
        Histogram requests = metrics.registry().histogram(MetricNames.REQUEST_SIZE);
        assertThat(requests.getCount()).isEqualTo(expected);
        assertThat(requests.getSnapshot().getMin()).isEqualTo(100);
        assertThat(requests.getSnapshot().getMax()).isEqualTo(149);
        assertThat(metrics.registry().histogram(MetricNames.RESPONSE_SIZE).getCount()).isEqualTo(expected);
        Timer processing = metrics.registry().timer(MetricNames.PROCESSING);
        assertThat(processing.getCount()).isEqualTo(expected);
        Timer method = metrics.registry().timer(MetricNames.method(key, "work"));
        assertThat(method.getCount()).isEqualTo(expected);
        assertThat(method.getSnapshot().size()).isEqualTo(expected);
        assertThat(method.getMeanRate()).isPositive();

        metrics.methodDone(token, key, "work", metrics.startNanos());
        assertThat(method.getCount()).as("counted after a read too").isEqualTo(expected + 1);
    }
}
