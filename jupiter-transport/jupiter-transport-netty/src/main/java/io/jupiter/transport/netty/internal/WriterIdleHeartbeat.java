package io.jupiter.transport.netty.internal;

import io.jupiter.transport.Frames;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@link Frames#heartbeat} on a client connection that wrote nothing for the writer idle time.
 *
 * <p>Netty's {@code IdleStateHandler} times writes by their completion, so it turns every write's void promise into a
 * real one and adds a listener to it: two objects and a notification per call. This handler only notes that a write
 * was handed to the socket (a field store, not even a clock read) and looks every half idle period: a look that finds
 * no write since the one before sends a heartbeat, so one goes out between half the idle time and the idle time
 * after the last write, never later. A heartbeat counts as a write, so an idle connection sends one per idle time.
 */
final class WriterIdleHeartbeat extends PeriodicChannelCheck {

    private static final Logger logger = LoggerFactory.getLogger(WriterIdleHeartbeat.class);

    WriterIdleHeartbeat(long writerIdleMillis) {
        super(TimeUnit.MILLISECONDS.toNanos(writerIdleMillis) / 2);
    }

    @Override
    void starting() {
        wrote = true;
    }

    @Override
    boolean look() {
        if (wrote) {
            wrote = false;
        } else {
            if (logger.isTraceEnabled()) {
                logger.trace("heartbeat to {}", ctx.channel());
            }
            ctx.writeAndFlush(Frames.heartbeat(ctx.alloc()), ctx.voidPromise());
            wrote = true; // written past this handler, so noted here
        }
        return true;
    }
}
