package io.jupiter.rpc;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A service whose calls wait at a gate the test opens, so a test can hold provider threads deterministically. */
@ServiceProvider(group = "test", name = "gate")
public interface GateService {

    String pass(String id);

    final class Impl implements GateService {
        final CountDownLatch entered;
        final CountDownLatch gate = new CountDownLatch(1);

        Impl(int expectedEntries) {
            this.entered = new CountDownLatch(expectedEntries);
        }

        @Override
        public String pass(String id) {
            entered.countDown();
            try {
                if (!gate.await(20, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("gate never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            return "passed " + id;
        }
    }
}
