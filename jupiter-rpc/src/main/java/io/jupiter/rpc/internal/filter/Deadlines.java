package io.jupiter.rpc.internal.filter;

import java.util.concurrent.TimeUnit;

/**
 * The deadline attachment: the milliseconds the consumer still waits, as a decimal string, measured when the
 * request was written. Relative rather than absolute, so clocks of the two hosts need not agree; the provider counts
 * from the moment it received the frame, which is never earlier than the consumer's own deadline. A 1.3.1 provider
 * ignores it like any unknown attachment.
 */
public final class Deadlines {

    /** The attachment key. */
    public static final String KEY = "jupiter.timeout";

    private Deadlines() {
    }

    /** The deadline ({@link System#nanoTime()} based) of a request received at {@code receivedNanos}, or 0. */
    public static long fromAttachment(String value, long receivedNanos) {
        if (value == null) {
            return 0;
        }
        long millis;
        try {
            millis = Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
        if (millis < 0) {
            return 0;
        }
        long deadline = receivedNanos + TimeUnit.MILLISECONDS.toNanos(millis);
        return deadline == 0 ? 1 : deadline;
    }

    /** Whether a deadline (0: none) has passed. */
    public static boolean passed(long deadlineNanos) {
        return deadlineNanos != 0 && System.nanoTime() - deadlineNanos >= 0;
    }

    /** Milliseconds left before a deadline (0: none, giving {@link Long#MAX_VALUE}); negative once passed. */
    public static long remainingMillis(long deadlineNanos) {
        if (deadlineNanos == 0) {
            return Long.MAX_VALUE;
        }
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }
}
