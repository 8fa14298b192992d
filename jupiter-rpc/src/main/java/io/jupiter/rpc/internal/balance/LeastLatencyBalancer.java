package io.jupiter.rpc.internal.balance;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Least latency, power of two choices: two distinct weighted-random candidates, each with a cost: its
 * {@linkplain LatencyEwma recent latency} plus 5 ms, times its calls in flight plus one. When one costs more than
 * twice the other, the cheaper wins; closer than that, a coin weighted by the two providers' weights now (warm-up
 * included) decides, so that providers alike in latency share the calls by their weights even when calls come one at
 * a time. A provider that has never answered is left to the coin while idle and loses to any other while it has a
 * call in flight (one call at a time until it answers). Weight 0 keeps its meaning: only when no provider with a
 * weight is available.
 */
final class LeastLatencyBalancer implements LoadBalancer {

    /** How many times the other's cost a candidate's must be for the cheaper one to win outright. */
    static final double CLEAR_MARGIN = 2.0;
    /**
     * Added to every latency before costs are compared: differences of a few milliseconds, which on a busy host are
     * noise (a collection, a scheduling delay), never decide, while a provider slower by tens of milliseconds loses.
     */
    static final double LATENCY_FLOOR_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    @Override
    public Endpoint select(Endpoint[] endpoints, Endpoint excluded) {
        if (endpoints.length == 1) {
            Endpoint only = endpoints[0];
            return only != excluded && only.isAvailable() ? only : null;
        }
        long now = System.nanoTime();
        Endpoint a = pick(endpoints, excluded, null, now);
        if (a == null) {
            return null;
        }
        Endpoint b = pick(endpoints, excluded, a, now);
        if (b == null) {
            return a;
        }
        double weightA = a.weightAt(now);
        double weightB = b.weightAt(now);
        if ((weightA > 0) != (weightB > 0)) {
            return weightA > 0 ? a : b;
        }
        double costA = cost(a, now);
        double costB = cost(b, now);
        if (costA > 0 && costB > 0) {
            if (costA > CLEAR_MARGIN * costB) {
                return b;
            }
            if (costB > CLEAR_MARGIN * costA) {
                return a;
            }
        } else if ((costA < 0) != (costB < 0)) {
            return costA < 0 ? b : a; // a provider that has never answered has a call in flight: the other
        }
        double total = weightA + weightB;
        if (total <= 0) {
            return ThreadLocalRandom.current().nextBoolean() ? a : b;
        }
        return ThreadLocalRandom.current().nextDouble() * total < weightA ? a : b;
    }

    /**
     * (Latency + 5 ms) times (calls in flight + 1); 0 for a provider that never answered and has nothing in flight
     * (unknown: the weights decide), -1 for one that never answered and has a call in flight.
     */
    static double cost(Endpoint e, long now) {
        int active = e.active().get();
        double latency = e.latency.nanos(now);
        if (latency == 0) {
            return active > 0 ? -1 : 0;
        }
        return (latency + LATENCY_FLOOR_NANOS) * (active + 1);
    }

    /** Weighted random among the available endpoints other than the two excluded; uniform if every weight is 0. */
    private static Endpoint pick(Endpoint[] endpoints, Endpoint excluded, Endpoint other, long now) {
        double total = 0;
        int count = 0;
        for (Endpoint e : endpoints) {
            if (e != excluded && e != other && e.isAvailable()) {
                total += e.weightAt(now);
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        boolean uniform = total <= 0;
        double point = uniform ? random.nextInt(count) : random.nextDouble() * total;
        Endpoint last = null;
        for (Endpoint e : endpoints) {
            if (e != excluded && e != other && e.isAvailable()) {
                last = e;
                point -= uniform ? 1 : e.weightAt(now);
                if (point < 0) {
                    return e;
                }
            }
        }
        return last;
    }

    @Override
    public boolean needsActiveCounts() {
        return true;
    }

    @Override
    public boolean needsLatencies() {
        return true;
    }
}
