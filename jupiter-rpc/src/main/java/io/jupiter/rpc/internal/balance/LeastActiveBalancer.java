package io.jupiter.rpc.internal.balance;

/**
 * Power of two choices on calls in flight: two weighted-random candidates; the one with fewer of this proxy's calls
 * in flight wins (the first on a tie). Avoids a slow provider without scanning every endpoint.
 */
final class LeastActiveBalancer implements LoadBalancer {

    private final WeightedRandomBalancer random = new WeightedRandomBalancer();

    @Override
    public Endpoint select(Endpoint[] endpoints, Endpoint excluded) {
        Endpoint a = random.select(endpoints, excluded);
        if (a == null || endpoints.length == 1) {
            return a;
        }
        Endpoint b = random.select(endpoints, excluded);
        if (b == null || b == a) {
            return a;
        }
        return b.active().get() < a.active().get() ? b : a;
    }

    @Override
    public boolean needsActiveCounts() {
        return true;
    }
}
