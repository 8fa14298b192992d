package io.jupiter.common;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * A WARN line that is logged at most once per interval; the lines dropped in between are counted and the count is
 * added to the next line logged. For warnings a remote peer can trigger at will, so it cannot flood the log.
 */
public final class ThrottledWarning {

    private final Logger logger;
    private final long intervalNanos;
    private final AtomicLong nextNanos;
    private final AtomicLong suppressed = new AtomicLong();

    /** A warning for {@code logger}, logged at most once per {@code interval}. */
    public ThrottledWarning(Logger logger, long interval, TimeUnit unit) {
        this.logger = logger;
        this.intervalNanos = unit.toNanos(interval);
        this.nextNanos = new AtomicLong(System.nanoTime());
    }

    /** Logs {@code message} (SLF4J format) unless a line was logged less than an interval ago. */
    public void warn(String message, Object... args) {
        long now = System.nanoTime();
        long next = nextNanos.get();
        if (now - next >= 0 && nextNanos.compareAndSet(next, now + intervalNanos)) {
            long dropped = suppressed.getAndSet(0);
            logger.warn(dropped == 0 ? message : message + " (and " + dropped + " more since the last such line)",
                    args);
        } else {
            suppressed.incrementAndGet();
        }
    }
}
