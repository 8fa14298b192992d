package io.jupiter.common;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Creates threads named {@code prefix-N}, so thread dumps and leak checks can tell whose thread it is. */
public final class NamedThreadFactory implements ThreadFactory {

    private final String prefix;
    private final boolean daemon;
    private final AtomicInteger counter = new AtomicInteger();

    /**
     * @param prefix the thread name prefix, e.g. {@code jupiter-provider}
     * @param daemon whether the threads are daemons
     */
    public NamedThreadFactory(String prefix, boolean daemon) {
        this.prefix = Requires.notBlank(prefix, "prefix");
        this.daemon = daemon;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, prefix + '-' + counter.incrementAndGet());
        thread.setDaemon(daemon);
        return thread;
    }
}
