package io.jupiter.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leak check really sees a dropped buffer (so a green build means no leak, not a deaf detector). */
class LeakDetectionExtensionTest {

    @Test
    void paranoidLevelIsOn() {
        assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.PARANOID);
    }

    @Test
    void aDroppedBufferIsReported() {
        leakOne();
        // Collection is up to the JVM: drain until the report shows, bounded.
        List<String> reports = new ArrayList<>();
        Await.until("the dropped buffer is reported", Duration.ofSeconds(20), () -> {
            reports.addAll(LeakDetectionExtension.drainReports());
            return !reports.isEmpty();
        });
        assertThat(reports.get(0)).startsWith("LEAK:");
    }

    private static void leakOne() {
        ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        leaked.writeLong(42);
    }
}
