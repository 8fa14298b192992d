package io.jupiter.common;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * A log line that a remote peer can trigger at will, logged at most once per interval for each peer and cause; the
 * lines dropped in between are counted and the count is added to the next line of that peer and cause. So one peer
 * can neither flood the log nor hide another peer's lines, and one cause does not hide another. Peers are told apart
 * by a key (their IP address), causes by any key with {@code equals} (an enum constant); at most {@value #MAX_PEERS}
 * peer and cause pairs are remembered at once (the table starts afresh when full).
 *
 * <p>The lines logged and dropped are counted ({@link #logged()}, {@link #suppressed()}) for metrics. Lines are
 * WARN unless another level is given.
 */
public final class ThrottledWarning {

    static final int MAX_PEERS = 4096;
    private static final Object NO_PEER = new Object();

    private final Logger logger;
    private final long intervalNanos;
    private final Level level;
    private final ConcurrentHashMap<Object, Window> windows = new ConcurrentHashMap<>();
    private final LongAdder logged = new LongAdder();
    private final LongAdder suppressed = new LongAdder();

    /** A warning for {@code logger}, logged at most once per {@code interval} and peer. */
    public ThrottledWarning(Logger logger, long interval, TimeUnit unit) {
        this(logger, interval, unit, Level.WARN);
    }

    /** Lines at {@code level} for {@code logger}, logged at most once per {@code interval}, peer and cause. */
    public ThrottledWarning(Logger logger, long interval, TimeUnit unit, Level level) {
        this.logger = Requires.notNull(logger, "logger");
        this.intervalNanos = unit.toNanos(interval);
        this.level = Requires.notNull(level, "level");
    }

    /** Logs {@code message} (SLF4J format) unless a line was logged less than an interval ago, whoever caused it. */
    public void warn(String message, Object... args) {
        logFor(NO_PEER, null, message, args);
    }

    /**
     * Logs {@code message} (SLF4J format) unless a line caused by {@code peer} was logged less than an interval ago.
     *
     * @param peer who caused it (an IP address, say); {@code null} counts as one unknown peer
     */
    public void warnFor(Object peer, String message, Object... args) {
        logFor(peer, null, message, args);
    }

    /**
     * Logs {@code message} (SLF4J format) unless a line caused by {@code peer} for {@code cause} was logged less than
     * an interval ago.
     *
     * @param peer who caused it (an IP address, say); {@code null} counts as one unknown peer
     * @param cause why (an enum constant, say); {@code null} is one cause of its own
     * @return whether the line was logged
     */
    public boolean logFor(Object peer, Object cause, String message, Object... args) {
        Object key = peer == null ? NO_PEER : peer;
        if (cause != null) {
            key = new PeerCause(key, cause);
        }
        Window window = windows.get(key);
        if (window == null) {
            if (windows.size() >= MAX_PEERS) {
                windows.clear();
            }
            window = windows.computeIfAbsent(key, k -> new Window(System.nanoTime()));
        }
        long dropped = window.pass(System.nanoTime(), intervalNanos);
        if (dropped < 0) {
            suppressed.increment();
            return false;
        }
        logged.increment();
        String line = dropped == 0 ? message : message + " (and " + dropped + " more since the last such line)";
        switch (level) {
            case ERROR -> logger.error(line, args);
            case WARN -> logger.warn(line, args);
            case INFO -> logger.info(line, args);
            case DEBUG -> logger.debug(line, args);
            default -> logger.trace(line, args);
        }
        return true;
    }

    /** Lines logged so far. */
    public long logged() {
        return logged.sum();
    }

    /** Lines dropped so far (not logged because a line of the same peer and cause was logged within the interval). */
    public long suppressed() {
        return suppressed.sum();
    }

    /** The key of a peer's lines for one cause. */
    private record PeerCause(Object peer, Object cause) {
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
