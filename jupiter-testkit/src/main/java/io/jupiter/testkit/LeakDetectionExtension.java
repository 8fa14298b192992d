package io.jupiter.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty's leak detector reports a leaked buffer during it.
 *
 * <p>Registered for every test through JUnit's extension auto-detection (the parent POM enables it). It installs a
 * {@link ResourceLeakDetectorFactory} whose detectors record reports instead of only logging them (a logger without
 * a binding would swallow them), and after each class it collects garbage and drives the detector until the
 * reference queue is drained. The tests run with {@code -Dio.netty.leakDetection.level=paranoid}.
 */
public final class LeakDetectionExtension implements AfterAllCallback {

    private static final List<String> REPORTS = new ArrayList<>();

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        List<String> found = drainReports();
        if (!found.isEmpty()) {
            throw new AssertionError("Netty reported " + found.size() + " leaked buffer(s) in "
                    + context.getDisplayName() + ":\n" + String.join("\n----\n", found));
        }
    }

    /**
     * Makes sure the recording detectors are installed (loading this class does it) before the buffers to check are
     * allocated: for extensions that call {@link #drainReports()} without this one being registered.
     */
    public static void install() {
        // The static initializer did the work.
    }

    /** Collects garbage and polls the detector so that leaks of dropped buffers are reported now. */
    public static List<String> drainReports() {
        for (int round = 0; round < 3; round++) {
            System.gc();
            for (int i = 0; i < 64; i++) {
                // Each tracked allocation makes the detector poll its reference queue (unpooled heap buffers
                // are not tracked, pooled ones are).
                ByteBuf probe = PooledByteBufAllocator.DEFAULT.directBuffer(1);
                probe.release();
            }
        }
        synchronized (REPORTS) {
            List<String> copy = new ArrayList<>(REPORTS);
            REPORTS.clear();
            return copy;
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                   long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            record("LEAK: " + resourceType + records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            record("LEAK: " + resourceType + " (no records)");
        }

        private static void record(String report) {
            synchronized (REPORTS) {
                REPORTS.add(report);
            }
            System.err.println(report);
        }
    }
}
