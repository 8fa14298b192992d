package io.jupiter.rpc.internal.consumer;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fails the asynchronous calls whose timeout passed: every {@value #PERIOD_MILLIS} ms, on the client's timer thread,
 * one walk over the {@link InFlightCalls} table while anything is in flight. A call then costs nothing for its
 * timeout but the deadline it carries. (A timer entry per call, armed when it was sent and cancelled at its response,
 * took about a sixth of the client's CPU at 32 threads with 80 calls in flight each: two queue hand-offs per call to
 * the timer thread, and that thread's work.) A timeout is noticed up to one period, plus the timer's tick, after it
 * passed. Synchronous calls wait on their own thread and time out there.
 */
final class TimeoutSweep implements TimerTask {

    /** How often the table is walked. */
    static final long PERIOD_MILLIS = 10;

    private static final Logger log = LoggerFactory.getLogger(TimeoutSweep.class);

    private final InFlightCalls calls;
    private final Timer timer;

    TimeoutSweep(InFlightCalls calls, Timer timer) {
        this.calls = calls;
        this.timer = timer;
    }

    /** Starts sweeping until the timer stops. */
    void start() {
        schedule();
    }

    @Override
    public void run(Timeout timeout) {
        try {
            if (!calls.isEmpty()) {
                calls.expire(System.nanoTime());
            }
        } catch (RuntimeException e) {
            log.error("the sweep for timed-out calls failed; it goes on", e);
        } finally {
            schedule();
        }
    }

    private void schedule() {
        try {
            timer.newTimeout(this, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException stopped) {
            // The client closed: nothing is in flight any more.
        }
    }
}
