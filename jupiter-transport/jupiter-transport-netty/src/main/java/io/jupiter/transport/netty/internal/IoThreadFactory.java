package io.jupiter.transport.netty.internal;

import io.jupiter.common.Requires;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates IO threads named {@code prefix-role-N} (e.g. {@code jupiter-io-worker-3}). They are
 * {@link FastThreadLocalThread}s, which Netty's pooled allocator and recyclers serve fastest.
 */
final class IoThreadFactory implements ThreadFactory {

    private final String namePrefix;
    private final boolean daemon;
    private final AtomicInteger counter = new AtomicInteger();

    IoThreadFactory(String prefix, String role, boolean daemon) {
        this.namePrefix = Requires.notBlank(prefix, "prefix") + '-' + Requires.notBlank(role, "role") + '-';
        this.daemon = daemon;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new FastThreadLocalThread(task, namePrefix + counter.incrementAndGet());
        thread.setDaemon(daemon);
        return thread;
    }
}
