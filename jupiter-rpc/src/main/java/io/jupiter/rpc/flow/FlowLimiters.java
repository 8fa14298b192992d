package io.jupiter.rpc.flow;

import io.jupiter.common.Requires;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The built-in {@link FlowLimiter}s. Both are lock-free: one compare-and-set per admitted call. */
public final class FlowLimiters {

    private FlowLimiters() {
    }

    /** At most {@code max} calls in progress at once. */
    public static FlowLimiter maxConcurrent(int max) {
        return new MaxConcurrent(Requires.positive(max, "max"));
    }

    /** At most {@code permitsPerSecond} calls per second, with bursts of up to one second's worth. */
    public static FlowLimiter perSecond(double permitsPerSecond) {
        return tokenBucket(permitsPerSecond, Math.max(1, (int) Math.ceil(permitsPerSecond)));
    }

    /**
     * A token bucket: refills at {@code permitsPerSecond}, holds at most {@code burst} tokens (and starts full); each
     * call takes one token or is refused.
     */
    public static FlowLimiter tokenBucket(double permitsPerSecond, int burst) {
        Requires.argument(permitsPerSecond > 0 && permitsPerSecond <= 1e9,
                "permitsPerSecond: " + permitsPerSecond + " (expected: > 0 and <= 1e9)");
        return new TokenBucket(permitsPerSecond, Requires.positive(burst, "burst"));
    }

    private static final class MaxConcurrent implements FlowLimiter {
        private final int max;
        private final AtomicInteger inProgress = new AtomicInteger();

        MaxConcurrent(int max) {
            this.max = max;
        }

        @Override
        public boolean tryAcquire() {
            for (;;) {
                int now = inProgress.get();
                if (now >= max) {
                    return false;
                }
                if (inProgress.compareAndSet(now, now + 1)) {
                    return true;
                }
            }
        }

        @Override
        public void release() {
            inProgress.decrementAndGet();
        }

        @Override
        public String toString() {
            return "maxConcurrent(" + max + ", in progress " + inProgress.get() + ")";
        }
    }

    /**
     * A token bucket kept as one number, the "theoretical arrival time" of the generic cell rate algorithm: the
     * bucket is empty up to that instant. A call is admitted if that instant is at most {@code burst - 1} intervals
     * ahead of now, and pushes it one interval further.
     */
    private static final class TokenBucket implements FlowLimiter {
        private final double permitsPerSecond;
        private final int burst;
        private final long intervalNanos;
        private final long toleranceNanos;
        private final AtomicLong emptyUntil;

        TokenBucket(double permitsPerSecond, int burst) {
            this.permitsPerSecond = permitsPerSecond;
            this.burst = burst;
            this.intervalNanos = Math.max(1, (long) (TimeUnit.SECONDS.toNanos(1) / permitsPerSecond));
            this.toleranceNanos = intervalNanos * (burst - 1);
            this.emptyUntil = new AtomicLong(System.nanoTime() - toleranceNanos - intervalNanos);
        }

        @Override
        public boolean tryAcquire() {
            for (;;) {
                long now = System.nanoTime();
                long current = emptyUntil.get();
                long from = current - now > 0 ? current : now;
                if (from - now > toleranceNanos) {
                    return false;
                }
                if (emptyUntil.compareAndSet(current, from + intervalNanos)) {
                    return true;
                }
            }
        }

        @Override
        public String toString() {
            return "tokenBucket(" + permitsPerSecond + "/s, burst " + burst + ")";
        }
    }
}
