package io.jupiter.rpc.internal.provider;

/**
 * The clock reads of a call timed for its adaptive dispatch ({@link DispatchTimerStage}), made only while the
 * dispatch learns where the method runs: the other calls carry none.
 */
final class DispatchTiming {

    /** When the timed call started; the method timer starts there too. */
    final long startedNanos;
    /** Set by the responder: when the answer started to be written (0: not yet). */
    long answeringNanos;

    DispatchTiming(long startedNanos) {
        this.startedNanos = startedNanos;
    }
}
