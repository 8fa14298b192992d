package io.jupiter.monitor.internal;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Failed password attempts per IP address, counted across console sessions and HTTP requests alike, so that
 * reconnecting or switching to HTTP buys an attacker nothing. The first {@value #FREE_FAILURES} failures cost
 * nothing; from then on every attempt from that address waits a delay that doubles with each further failure, up to
 * a cap. A success forgets the address, and so does a quiet period.
 */
public final class AuthThrottle {

    /** Failures an address may make before its attempts are slowed (one console session's worth). */
    public static final int FREE_FAILURES = 3;

    private static final int MAX_TRACKED = 10_000;

    private final long baseDelayMillis;
    private final long maxDelayMillis;
    private final long forgetNanos;
    private final ConcurrentHashMap<InetAddress, Failures> failures = new ConcurrentHashMap<>();

    public AuthThrottle(long baseDelayMillis, long maxDelayMillis, long forgetMillis) {
        this.baseDelayMillis = baseDelayMillis;
        this.maxDelayMillis = maxDelayMillis;
        this.forgetNanos = TimeUnit.MILLISECONDS.toNanos(forgetMillis);
    }

    /** Records a failed attempt from {@code address}. */
    public void failed(InetAddress address) {
        long now = System.nanoTime();
        if (failures.size() >= MAX_TRACKED) {
            failures.values().removeIf(f -> now - f.lastNanos > forgetNanos);
        }
        failures.compute(address, (a, old) -> old == null || now - old.lastNanos > forgetNanos
                ? new Failures(1, now) : new Failures(old.count + 1, now));
    }

    /** Forgets {@code address}'s failures: it knows the password. */
    public void succeeded(InetAddress address) {
        failures.remove(address);
    }

    /** How long an attempt from {@code address} waits before it is judged; 0 while it has few recent failures. */
    public long delayMillis(InetAddress address) {
        Failures f = failures.get(address);
        if (f == null || f.count < FREE_FAILURES || System.nanoTime() - f.lastNanos > forgetNanos) {
            return 0;
        }
        int shift = Math.min(f.count - FREE_FAILURES, 20);
        return Math.min(maxDelayMillis, baseDelayMillis << shift);
    }

    /**
     * For callers that refuse rather than wait (HTTP): how much longer an attempt from {@code address} is refused,
     * counted from its last failure; 0 if it may be judged now.
     */
    public long refusedForMillis(InetAddress address) {
        long delay = delayMillis(address);
        Failures f = failures.get(address);
        if (delay == 0 || f == null) {
            return 0;
        }
        long since = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - f.lastNanos);
        return Math.max(0, delay - since);
    }

    private record Failures(int count, long lastNanos) {
    }
}
