package io.jupiter.example.benchmark;

import io.netty.buffer.PooledByteBufAllocator;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/** A one-line snapshot of this JVM for soak reports: heap, direct memory, and GC since the previous snapshot. */
final class JvmStats {

    private long lastGcCount;
    private long lastGcMillis;

    JvmStats() {
        line();
    }

    /** {@code heap=..MB direct(nio/netty)=../..MB gc=+N (M ms)}; the GC figures count since the previous call. */
    String line() {
        long gcCount = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        long nioDirect = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                nioDirect = pool.getMemoryUsed();
            }
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long nettyDirect = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
        String line = String.format("heap=%dMB direct(nio/netty)=%d/%dMB gc=+%d (%d ms)", mb(heap), mb(nioDirect),
                mb(nettyDirect), gcCount - lastGcCount, gcMillis - lastGcMillis);
        lastGcCount = gcCount;
        lastGcMillis = gcMillis;
        return line;
    }

    private static long mb(long bytes) {
        return bytes / (1024 * 1024);
    }
}
