package io.jupiter.protocol.http;

import java.util.concurrent.atomic.AtomicLong;

/** Waits on counters a producer moves. */
final class Counts {

    private Counts() {
    }

    /**
     * The count once it has not moved over five looks 200 ms apart (30 s at most). A producer held back reads as
     * stable at its bound; one that is not runs to its end, far above it. A pause of the machine can only make
     * the count read lower, never higher.
     */
    static long awaitStable(AtomicLong counter) throws InterruptedException {
        long last = -1;
        int same = 0;
        for (int i = 0; i < 150 && same < 5; i++) {
            long now = counter.get();
            same = now == last ? same + 1 : 0;
            last = now;
            Thread.sleep(200);
        }
        return last;
    }
}
