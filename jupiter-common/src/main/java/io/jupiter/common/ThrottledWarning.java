package io.jupiter.common;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * A WARN line that a remote peer can trigger at will, logged at most once per interval for each peer; the lines
 * dropped in between are counted and the count is added to that peer's next line. So one peer can neither flood the
 * log nor hide another peer's warnings. Peers are told apart by a key (their IP address); at most
 * {@value #MAX_PEERS} are remembered at once (the table starts afresh when full).
 */
public final class ThrottledWarning {

    static final int MAX_PEERS = 4096;
    private static final Object NO_PEER = new Object();

    private final Logger logger;
    private final long intervalNanos;
    private final ConcurrentHashMap<Object, Window> windows = new ConcurrentHashMap<>();

    /** A warning for {@code logger}, logged at most once per {@code interval} and peer. */
    public ThrottledWarning(Logger logger, long interval, TimeUnit unit) {
        this.logger = logger;
        this.intervalNanos = unit.toNanos(interval);
    }

    /** Logs {@code message} (SLF4J format) unless a line was logged less than an interval ago, whoever caused it. */
    public void warn(String message, Object... args) {
        warnFor(NO_PEER, message, args);
    }

    /**
     * Logs {@code message} (SLF4J format) unless a line caused by {@code peer} was logged less than an interval ago.
     *
     * @param peer who caused it (an IP address, say); {@code null} counts as one unknown peer
     */
    public void warnFor(Object peer, String message, Object... args) {
        Object key = peer == null ? NO_PEER : peer;
        Window window = windows.get(key);
        if (window == null) {
            if (windows.size() >= MAX_PEERS) {
                windows.clear();
            }
            window = windows.computeIfAbsent(key, k -> new Window(System.nanoTime()));
        }
        long dropped = window.pass(System.nanoTime(), intervalNanos);
        if (dropped >= 0) {
            logger.warn(dropped == 0 ? message : message + " (and " + dropped + " more since the last such line)",
                    args);
        }
    }

    /** One peer's interval. */
    private static final class Window {
        private final AtomicLong nextNanos;
        private final AtomicLong suppressed = new AtomicLong();

        Window(long now) {
            this.nextNanos = new AtomicLong(now);
        }

        /** The lines dropped since the last one logged if this one may be logged now, else -1 (and counts it). */
        long pass(long now, long intervalNanos) {
            long next = nextNanos.get();
            if (now - next >= 0 && nextNanos.compareAndSet(next, now + intervalNanos)) {
                return suppressed.getAndSet(0);
            }
            suppressed.incrementAndGet();
            return -1;
        }
    }
}
