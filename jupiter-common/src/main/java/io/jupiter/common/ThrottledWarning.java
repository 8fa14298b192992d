package io.jupiter.common;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * A log line that a remote peer can trigger at will, logged at most once per interval for each peer and cause; the
 * lines dropped in between are counted and the count is added to the next line of that peer and cause ("… and 1,234
 * more like it in the minute after the previous one"). So one peer can neither flood the log nor hide another peer's
 * lines, and one cause does not hide another. Peers are told apart by a key (their IP address: a peer cycling its
 * source ports stays one peer), causes by any key with {@code equals} (an enum constant: a fixed set).
 *
 * <p>Memory stays bounded whatever the peers do: at most {@value #MAX_PEERS} peer and cause pairs are remembered.
 * When the table is full, pairs whose interval is over and that dropped nothing are forgotten (at most once an
 * interval); a new peer that still finds it full shares one line per cause with every other such peer, marked as
 * shared, rather than growing the table.
 *
 * <p>The lines logged and dropped are counted ({@link #logged()}, {@link #suppressed()}) for metrics. Lines are
 * WARN unless another level is given.
 */
public final class ThrottledWarning {

    static final int MAX_PEERS = 4096;
    private static final Object NO_PEER = new Object();
    /** The peer of the lines of peers that found the table full. */
    private static final Object OTHER_PEERS = new Object();

    private final Logger logger;
    private final long intervalNanos;
    private final String intervalText;
    private final Level level;
    private final int maxPeers;
    private final ConcurrentHashMap<Object, Window> windows = new ConcurrentHashMap<>();
    private final AtomicLong nextSweepNanos = new AtomicLong(System.nanoTime());
    private final LongAdder logged = new LongAdder();
    private final LongAdder suppressed = new LongAdder();

    /** A warning for {@code logger}, logged at most once per {@code interval} and peer. */
    public ThrottledWarning(Logger logger, long interval, TimeUnit unit) {
        this(logger, interval, unit, Level.WARN);
    }

    /** Lines at {@code level} for {@code logger}, logged at most once per {@code interval}, peer and cause. */
    public ThrottledWarning(Logger logger, long interval, TimeUnit unit, Level level) {
        this(logger, interval, unit, level, MAX_PEERS);
    }

    /** As above, remembering at most {@code maxPeers} peer and cause pairs (tests use a small table). */
    ThrottledWarning(Logger logger, long interval, TimeUnit unit, Level level, int maxPeers) {
        this.logger = Requires.notNull(logger, "logger");
        this.intervalNanos = Requires.positive(unit.toNanos(interval), "interval");
        this.intervalText = describe(unit.toMillis(interval));
        this.level = Requires.notNull(level, "level");
        this.maxPeers = maxPeers;
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
        long now = System.nanoTime();
        Object key = key(peer == null ? NO_PEER : peer, cause);
        Window window = windows.get(key);
        boolean shared = false;
        if (window == null) {
            if (windows.size() >= maxPeers) {
                sweep(now);
            }
            if (windows.size() >= maxPeers) {
                shared = true;
                window = windows.computeIfAbsent(key(OTHER_PEERS, cause), k -> new Window(now, true));
            } else {
                window = windows.computeIfAbsent(key, k -> new Window(now, false));
            }
        } else {
            shared = window.shared;
        }
        long dropped = window.pass(now, intervalNanos);
        if (dropped < 0) {
            suppressed.increment();
            return false;
        }
        logged.increment();
        String line = message;
        if (dropped > 0) {
            line += String.format(Locale.ROOT, " … and %,d more like it in the %s after the previous one", dropped,
                    intervalText);
        }
        if (shared) {
            line += String.format(Locale.ROOT, " (one line for every peer beyond the first %,d)", maxPeers);
        }
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

    /** Peer and cause pairs remembered now (never much above the cap: the shared pairs are one per cause). */
    int remembered() {
        return windows.size();
    }

    private static Object key(Object peer, Object cause) {
        return cause == null ? peer : new PeerCause(peer, cause);
    }

    /** Forgets the pairs whose interval is over and that dropped nothing since; at most once an interval. */
    private void sweep(long now) {
        long next = nextSweepNanos.get();
        if (now - next < 0 || !nextSweepNanos.compareAndSet(next, now + intervalNanos)) {
            return;
        }
        windows.values().removeIf(window -> !window.shared && window.idleAt(now));
    }

    /** The interval as a line says it: "minute", "10 s", "250 ms". */
    private static String describe(long millis) {
        if (millis == 60_000) {
            return "minute";
        }
        if (millis == 1_000) {
            return "second";
        }
        return millis % 1_000 == 0 ? millis / 1_000 + " s" : millis + " ms";
    }

    /** The key of a peer's lines for one cause. */
    private record PeerCause(Object peer, Object cause) {
    }

    /** One peer's interval. */
    private static final class Window {
        private final AtomicLong nextNanos;
        private final AtomicLong suppressed = new AtomicLong();
        /** Whether this is the line of the peers that found the table full. */
        private final boolean shared;

        Window(long now, boolean shared) {
            this.nextNanos = new AtomicLong(now);
            this.shared = shared;
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

        /** Whether its interval is over and nothing waits to be told. */
        boolean idleAt(long now) {
            return now - nextNanos.get() >= 0 && suppressed.get() == 0;
        }
    }
}
