package io.jupiter.rpc.internal.balance;

import java.util.concurrent.ThreadLocalRandom;

/** Weighted random: each available endpoint with probability weight / total; uniform if every weight is 0. */
final class WeightedRandomBalancer implements LoadBalancer {

    @Override
    public Endpoint select(Endpoint[] endpoints, Endpoint excluded) {
        if (endpoints.length == 1) {
            Endpoint only = endpoints[0];
            return only != excluded && only.isAvailable() ? only : null;
        }
        long now = System.nanoTime();
        double total = 0;
        int count = 0;
        for (Endpoint e : endpoints) {
            if (e != excluded && e.isAvailable()) {
                total += e.weightAt(now);
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Endpoint last = null;
        if (total <= 0) {
            int pick = random.nextInt(count);
            for (Endpoint e : endpoints) {
                if (e != excluded && e.isAvailable()) {
                    last = e;
                    if (pick-- == 0) {
                        return e;
                    }
                }
            }
            return last;
        }
        double point = random.nextDouble() * total;
        for (Endpoint e : endpoints) {
            if (e != excluded && e.isAvailable()) {
                last = e;
                point -= e.weightAt(now);
                if (point < 0) {
                    return e;
                }
            }
        }
        return last; // availability changed between the passes, or rounding: take the last candidate seen
    }
}
