package io.jupiter.transport.netty.internal;

import io.jupiter.transport.WriteBatching;
import java.util.concurrent.TimeUnit;

/**
 * Decides whether a drain of a connection's {@link OutboundQueue} runs at once or waits a little for more frames
 * (see {@link WriteBatching}): always with ENABLE, never with DISABLE, and with AUTO on a client connection once the
 * natural batches of recent drains held two frames or more on average, so a lone caller (one frame a drain) is never
 * delayed.
 *
 * <p>A natural batch is what the event loop finds queued when it gets to a drain request, before any hold: what an
 * unheld drain writes, or what is already there when a held drain starts waiting. What a hold gathers is not counted:
 * it would make held drains look busy and keep AUTO holding where the hold only adds its delay to every round trip
 * of a few latency-bound callers (issue #31: 8 synchronous callers on 2 connections, up to 40 % fewer calls/s).
 * AUTO never holds on an accepted connection: provider threads already write a batch's answers back to back, and a
 * hold armed from their thread would cost the IO thread a second wake-up.
 */
final class FlushHolding {

    /** The average natural batch (frames) from which AUTO holds. */
    static final int HOLD_FROM_FRAMES = 2;

    private final boolean mayHold;
    private final boolean always;
    private final long delayNanos;
    /** Natural batch, exponentially averaged, times 16; written by the event loop, read racily by producers. */
    private volatile int framesPerDrainX16 = 16;
    /** Drains that waited the delay (for tests); event loop only. */
    private long heldDrains;

    FlushHolding(WriteBatching batching, boolean accepted, long delayMicros) {
        this.always = batching == WriteBatching.ENABLE;
        this.mayHold = always || (batching == WriteBatching.AUTO && !accepted);
        this.delayNanos = TimeUnit.MICROSECONDS.toNanos(delayMicros);
    }

    /** Whether the next drain should wait {@link #delayNanos()}; a stale average only picks the other mode once. */
    boolean holdNext() {
        return mayHold && (always || framesPerDrainX16 >= HOLD_FROM_FRAMES * 16);
    }

    /** How long a held drain waits. */
    long delayNanos() {
        return delayNanos;
    }

    /** Event loop only: the loop found {@code frames} frames queued when it got to a drain request. */
    void naturalBatch(int frames) {
        framesPerDrainX16 += frames - (framesPerDrainX16 >> 4);
    }

    /** Event loop only: a drain starts waiting {@link #delayNanos()}. */
    void holding() {
        heldDrains++;
    }

    /** Drains that waited so far; read on the event loop (for tests). */
    long heldDrains() {
        return heldDrains;
    }

    /** Whether drains may be held at all on this connection (for tests). */
    boolean mayHold() {
        return mayHold;
    }
}
