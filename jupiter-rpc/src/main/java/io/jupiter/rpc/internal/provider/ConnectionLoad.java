package io.jupiter.rpc.internal.provider;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one connection has admitted and not finished: requests being queued, read or run, and the bytes of the
 * bodies not read yet. Admission refuses a request beyond either limit, so one connection cannot take the whole
 * provider queue, nor hold more than its share of memory in unread bodies.
 */
final class ConnectionLoad {

    private final int maxInFlight;
    private final long maxQueuedBytes;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong queuedBytes = new AtomicLong();

    ConnectionLoad(int maxInFlight, long maxQueuedBytes) {
        this.maxInFlight = maxInFlight;
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /** Counts a request of {@code bodyBytes} in; returns why it is refused instead (then nothing is counted). */
    String admit(int bodyBytes) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            return "this connection already has " + maxInFlight + " requests in flight";
        }
        if (queuedBytes.addAndGet(bodyBytes) > maxQueuedBytes && bodyBytes > 0) {
            queuedBytes.addAndGet(-bodyBytes);
            inFlight.decrementAndGet();
            return "this connection already has " + maxQueuedBytes + " bytes of requests waiting to be read";
        }
        return null;
    }

    /** An admitted request's body was read (or dropped). */
    void bodyRead(int bodyBytes) {
        queuedBytes.addAndGet(-bodyBytes);
    }

    /** An admitted request ended. */
    void ended() {
        inFlight.decrementAndGet();
    }

    int inFlight() {
        return inFlight.get();
    }
}
