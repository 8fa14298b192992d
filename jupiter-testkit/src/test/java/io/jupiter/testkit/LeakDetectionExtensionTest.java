package io.jupiter.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
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
        List<String> reports = LeakDetectionExtension.drainReports();
        assertThat(reports).isNotEmpty();
        assertThat(reports.get(0)).startsWith("LEAK:");
    }

    private static void leakOne() {
        ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        leaked.writeLong(42);
    }
}
