package io.jupiter.rpc.internal.balance;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Peak-EWMA power of two choices: two distinct weighted-random candidates; the one with the lower cost wins, the
 * cost being the provider's {@linkplain PeakEwma recent latency} times its calls in flight plus one, divided by its
 * weight now (warm-up included). A provider with no latency yet costs nothing while idle (it is tried at once) and
 * a large penalty while it has a call in flight (it gets one call at a time until it answers). Weight 0 keeps its
 * meaning: only when no provider with a weight is available.
 */
final class PeakEwmaBalancer implements LoadBalancer {

    /** The latency assumed for a provider that has a call in flight and has never answered. */
    private static final double UNKNOWN_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The weight a weight-0 provider is costed with, when there are only such providers. */
    private static final double ZERO_WEIGHT = 1e-3;

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
        return cost(b, now) < cost(a, now) ? b : a;
    }

    static double cost(Endpoint e, long now) {
        int active = e.active().get();
        double latency = e.latency.nanos(now);
        if (latency == 0 && active > 0) {
            latency = UNKNOWN_LATENCY_NANOS;
        }
        double weight = e.weightAt(now);
        return latency * (active + 1) / (weight > 0 ? weight : ZERO_WEIGHT);
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
