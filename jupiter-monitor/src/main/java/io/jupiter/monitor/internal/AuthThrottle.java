package io.jupiter.monitor.internal;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Failed password attempts per IP address, counted across console sessions and HTTP requests alike, so that
 * reconnecting or switching to HTTP buys an attacker nothing. The first {@value #FREE_FAILURES} failures cost
 * nothing; from then on every attempt from that address waits a delay that doubles with each further failure, up to
 * a cap. A success forgets the address, and so does a quiet period.
 *
 * <p>One attempt per address is judged at a time, across sessions and HTTP: console attempts wait in turn
 * ({@link #submit}), and each one's delay is computed when its turn comes, from the failures of every attempt
 * judged before it; an HTTP request that finds an attempt of its address under way is refused ({@link #tryBegin}).
 * Otherwise attempts sent at once from many sessions would all be judged with the delay of the first.
 */
public final class AuthThrottle {

    /** Failures an address may make before its attempts are slowed (one console session's worth). */
    public static final int FREE_FAILURES = 3;

    private static final int MAX_TRACKED = 10_000;

    private final long baseDelayMillis;
    private final long maxDelayMillis;
    private final long forgetNanos;
    private final ConcurrentHashMap<InetAddress, Failures> failures = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<InetAddress, Lane> lanes = new ConcurrentHashMap<>();

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

    /**
     * Judges {@code attempt} once every earlier attempt from {@code address} is judged, after the delay its
     * address has earned by then; its result is counted before the next one's delay is computed.
     */
    public void submit(InetAddress address, Attempt attempt) {
        while (true) {
            Lane lane = lanes.computeIfAbsent(address, a -> new Lane());
            synchronized (lane) {
                if (lane.retired) {
                    continue; // emptied and removed meanwhile: take a fresh one
                }
                lane.waiting.add(attempt);
                if (lane.busy) {
                    return;
                }
                lane.busy = true;
            }
            next(address, lane);
            return;
        }
    }

    /**
     * For callers that refuse rather than wait (HTTP): starts judging an attempt from {@code address} now, or
     * returns {@code false} if one is under way or waiting. Each {@code true} must be followed by {@link #end}.
     */
    public boolean tryBegin(InetAddress address) {
        while (true) {
            Lane lane = lanes.computeIfAbsent(address, a -> new Lane());
            synchronized (lane) {
                if (lane.retired) {
                    continue;
                }
                if (lane.busy) {
                    return false;
                }
                lane.busy = true;
                return true;
            }
        }
    }

    /** Ends an attempt {@link #tryBegin} started: {@code ok} counts it ({@code null}: not judged). */
    public void end(InetAddress address, Boolean ok) {
        count(address, ok);
        Lane lane = lanes.get(address);
        if (lane != null) {
            next(address, lane);
        }
    }

    private void count(InetAddress address, Boolean ok) {
        if (ok == null) {
            return;
        }
        if (ok) {
            succeeded(address);
        } else {
            failed(address);
        }
    }

    /** Starts the next waiting attempt of {@code lane}, or frees the lane if none waits. */
    private void next(InetAddress address, Lane lane) {
        Attempt attempt;
        synchronized (lane) {
            attempt = lane.waiting.poll();
            if (attempt == null) {
                lane.busy = false;
                lane.retired = true;
                lanes.remove(address, lane);
                return;
            }
        }
        long delay = delayMillis(address); // now, with every earlier attempt counted
        try {
            attempt.executor().schedule(() -> {
                Boolean ok = null;
                try {
                    ok = attempt.judge();
                } finally {
                    count(address, ok);
                    next(address, lane);
                }
            }, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shutDown) {
            next(address, lane); // its session's thread is gone: dropped, and the lane moves on
        }
    }

    /** A console's password attempt, judged in its address's turn. */
    public interface Attempt {

        /** Where the attempt waits its delay and is judged (the session's IO thread). */
        ScheduledExecutorService executor();

        /** Judges and answers the attempt: whether the password was right, {@code null} if it was dropped. */
        Boolean judge();
    }

    /** The attempts of one address: at most one judged at a time, the others waiting in order. */
    private static final class Lane {
        final ArrayDeque<Attempt> waiting = new ArrayDeque<>();
        boolean busy;
        /** Removed from the map: a new attempt takes a new lane. */
        boolean retired;
    }

    private record Failures(int count, long lastNanos) {
    }
}
