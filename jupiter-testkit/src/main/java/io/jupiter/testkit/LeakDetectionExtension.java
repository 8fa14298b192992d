package io.jupiter.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
            collectGarbageAndAwaitReferenceProcessing();
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

    /**
     * The JVM hands cleared weak references to its reference-handler thread, which enqueues them some time after the
     * collection: polling the detector right after {@code System.gc()} can miss a leak found by that very collection.
     * A sentinel cleared by the same collection tells when the handler has got that far (bounded, never forever).
     */
    private static void collectGarbageAndAwaitReferenceProcessing() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        try {
            while (System.nanoTime() - deadline < 0) {
                System.gc();
                if (queue.remove(50) != null) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Reference.reachabilityFence(sentinel);
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
