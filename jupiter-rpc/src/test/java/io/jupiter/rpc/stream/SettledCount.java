package io.jupiter.rpc.stream;

import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.function.LongSupplier;

/** A count the stream tests read once a sender stopped moving: what a stalled reader let it send. */
final class SettledCount {

    private SettledCount() {
    }

    /**
     * {@code count} once it reached {@code least} (awaited: a slow machine may not have sent the first yet) and held
     * still for half a second (bounded: the loop ends).
     */
    static long of(LongSupplier count, long least) {
        Await.until("the count reaches " + least, Duration.ofSeconds(30), () -> count.getAsLong() >= least);
        for (int i = 0; i < 40; i++) {
            long now = count.getAsLong();
            if (Await.holdsFor(Duration.ofMillis(500), () -> count.getAsLong() == now)) {
                return now;
            }
        }
        return count.getAsLong();
    }
}
