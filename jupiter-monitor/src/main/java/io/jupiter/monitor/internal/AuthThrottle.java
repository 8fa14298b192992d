package io.jupiter.monitor.internal;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Slows addresses that failed to authenticate: each session closed for too many failed {@code auth} is a strike
 * against its IP address; every later {@code auth} from that address is answered only after a delay that doubles
 * with each strike (up to a cap). Strikes are forgotten after a quiet period.
 */
public final class AuthThrottle {

    private static final int MAX_TRACKED = 10_000;

    private final long baseDelayMillis;
    private final long maxDelayMillis;
    private final long forgetNanos;
    private final ConcurrentHashMap<InetAddress, Strikes> strikes = new ConcurrentHashMap<>();

    public AuthThrottle(long baseDelayMillis, long maxDelayMillis, long forgetMillis) {
        this.baseDelayMillis = baseDelayMillis;
        this.maxDelayMillis = maxDelayMillis;
        this.forgetNanos = TimeUnit.MILLISECONDS.toNanos(forgetMillis);
    }

    /** Records a strike against {@code address}. */
    public void strike(InetAddress address) {
        if (strikes.size() >= MAX_TRACKED) {
            long now = System.nanoTime();
            strikes.values().removeIf(s -> now - s.lastNanos > forgetNanos);
        }
        strikes.compute(address, (a, old) -> old == null || System.nanoTime() - old.lastNanos > forgetNanos
                ? new Strikes(1, System.nanoTime()) : new Strikes(old.count + 1, System.nanoTime()));
    }

    /** How long to wait before answering an {@code auth} from {@code address}; 0 if it has no recent strike. */
    public long delayMillis(InetAddress address) {
        Strikes s = strikes.get(address);
        if (s == null || System.nanoTime() - s.lastNanos > forgetNanos) {
            return 0;
        }
        int shift = Math.min(s.count - 1, 20);
        return Math.min(maxDelayMillis, baseDelayMillis << shift);
    }

    private record Strikes(int count, long lastNanos) {
    }
}
