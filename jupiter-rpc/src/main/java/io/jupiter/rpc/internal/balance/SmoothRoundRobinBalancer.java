package io.jupiter.rpc.internal.balance;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Smooth weighted round robin (nginx): each pick adds every candidate's weight to its running weight, takes the
 * largest and subtracts the total from it, so weights 5:1:1 give a a b a c a a rather than a a a a a b c. While all
 * candidates weigh the same (the usual case, and always for direct addresses) it is a lock-free rotation. Unlike
 * 1.3.1 it never divides: weight 0 and warm-up are safe.
 */
final class SmoothRoundRobinBalancer implements LoadBalancer {

    private final AtomicInteger cursor = new AtomicInteger();

    @Override
    public Endpoint select(Endpoint[] endpoints, Endpoint excluded) {
        if (endpoints.length == 1) {
            Endpoint only = endpoints[0];
            return only != excluded && only.isAvailable() ? only : null;
        }
        long now = System.nanoTime();
        int count = 0;
        boolean equal = true;
        double first = -1;
        for (Endpoint e : endpoints) {
            if (e != excluded && e.isAvailable()) {
                double w = e.weightAt(now);
                if (first < 0) {
                    first = w;
                } else if (w != first) {
                    equal = false;
                }
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        if (equal) {
            int pick = (cursor.getAndIncrement() & Integer.MAX_VALUE) % count;
            Endpoint last = null;
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
        return weighted(endpoints, excluded, now);
    }

    private synchronized Endpoint weighted(Endpoint[] endpoints, Endpoint excluded, long now) {
        double total = 0;
        Endpoint best = null;
        for (Endpoint e : endpoints) {
            if (e != excluded && e.isAvailable()) {
                double w = e.weightAt(now);
                e.current += w;
                total += w;
                if (best == null || e.current > best.current) {
                    best = e;
                }
            }
        }
        if (best != null) {
            best.current -= total;
        }
        return best;
    }
}
