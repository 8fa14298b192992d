package io.jupiter.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition with a deadline and fails the test when the deadline passes: the one polling loop every
 * module's tests use instead of sleeping and hoping.
 */
public final class Await {

    private Await() {
    }

    /** Returns as soon as {@code condition} holds; fails after {@code timeout} naming {@code what}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what, e);
            }
        }
    }

    /** Whether {@code condition} holds during all of {@code period} (checked every few milliseconds). */
    public static boolean holdsFor(Duration period, BooleanSupplier condition) {
        long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - end < 0) {
            if (!condition.getAsBoolean()) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }
}
