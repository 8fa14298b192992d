package io.jupiter.transport.netty.internal;

import io.jupiter.transport.WriteBatching;
import java.util.concurrent.TimeUnit;

/**
 * Decides whether a drain of a connection's {@link OutboundQueue} runs at once or waits a little for more frames
 * (see {@link WriteBatching}): always with ENABLE, never with DISABLE, and with AUTO on a client connection once
 * recent drains carried two frames or more on average, so a lone caller (one frame a drain) is never delayed.
 * AUTO never holds on an accepted connection: provider threads already write a batch's answers back to back, and a
 * hold armed from their thread would cost the IO thread a second wake-up.
 */
final class FlushHolding {

    private final boolean mayHold;
    private final boolean always;
    private final long delayNanos;
    /** Frames per drain, exponentially averaged, times 16; written by the event loop, read racily by producers. */
    private volatile int framesPerDrainX16 = 16;

    FlushHolding(WriteBatching batching, boolean accepted, long delayMicros) {
        this.always = batching == WriteBatching.ENABLE;
        this.mayHold = always || (batching == WriteBatching.AUTO && !accepted);
        this.delayNanos = TimeUnit.MICROSECONDS.toNanos(delayMicros);
    }

    /** Whether the next drain should wait {@link #delayNanos()}; a stale average only picks the other mode once. */
    boolean holdNext() {
        return mayHold && (always || framesPerDrainX16 >= 2 * 16);
    }

    /** How long a held drain waits. */
    long delayNanos() {
        return delayNanos;
    }

    /** Event loop only: a drain carried {@code frames} frames. */
    void drained(int frames) {
        framesPerDrainX16 += frames - (framesPerDrainX16 >> 4);
    }

    /** Whether drains may be held at all on this connection (for tests). */
    boolean mayHold() {
        return mayHold;
    }
}
