package io.jupiter.protocol.http;

import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Waits on counters a producer moves. */
final class Counts {

    private Counts() {
    }

    /**
     * The count once it has held still for a second (30 tries at most). A producer held back reads as stable at its
     * bound; one that is not runs to its end, far above it. A pause of the machine can only make the count read
     * lower, never higher.
     */
    static long awaitStable(AtomicLong counter) {
        for (int i = 0; i < 30; i++) {
            long now = counter.get();
            if (Await.holdsFor(Duration.ofSeconds(1), () -> counter.get() == now)) {
                return now;
            }
        }
        return counter.get();
    }
}
