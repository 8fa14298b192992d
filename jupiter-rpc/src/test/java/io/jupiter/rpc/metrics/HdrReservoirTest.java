package io.jupiter.rpc.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.FastThreadLocalThread;
import org.junit.jupiter.api.Test;

/** Recording from many short-lived threads keeps the reservoir's memory bounded and loses no value. */
class HdrReservoirTest {

    @Test
    void threadsThatComeAndGoShareBoundedRecordersAndEveryValueCounts() throws Exception {
        HdrReservoir reservoir = new HdrReservoir();
        int threads = 2_000;
        for (int i = 0; i < threads; i++) {
            long value = 1_000 + i;
            Thread thread = new Thread(() -> reservoir.update(value));
            thread.start();
            thread.join();
        }
        Thread own = new FastThreadLocalThread(() -> {
            reservoir.update(5);
            reservoir.update(7);
        });
        own.start();
        own.join();

        assertThat(reservoir.ownRecorders()).isEqualTo(1);
        assertThat(reservoir.getSnapshot().size()).isEqualTo(threads + 2);
        assertThat(reservoir.getSnapshot().getMin()).isEqualTo(5);
        assertThat(reservoir.getSnapshot().getMax()).isBetween(2_999L, 3_030L);
    }
}
