package io.jupiter.transport.netty.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalIoHandler;

/**
 * The event loops of every in-process channel of this JVM ({@code jupiter-inprocess-N}, one per processor), shared
 * by the acceptors and connectors that use them and shut down when the last of those closes.
 *
 * <p>Shared because the two ends of an in-process connection tell each other about a close on each other's event
 * loop: with a group per acceptor and per connector, whichever side shut its threads down first would leave the
 * other side's close with nowhere to run (Netty then logs a warning and releases the queues itself).
 */
public final class InProcessLoops {

    private static EventLoopGroup group;
    private static int users;

    private InProcessLoops() {
    }

    /** The shared group, started if no one uses it; pair with one {@link #release()}. */
    public static synchronized EventLoopGroup acquire() {
        if (group == null) {
            int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
            group = new MultiThreadIoEventLoopGroup(threads, new IoThreadFactory("jupiter", "inprocess", true),
                    LocalIoHandler.newFactory());
        }
        users++;
        return group;
    }

    /** Gives back one {@link #acquire()}; the last one shuts the group down and waits, bounded, for its threads. */
    public static void release() {
        EventLoopGroup unused = null;
        synchronized (InProcessLoops.class) {
            if (users > 0 && --users == 0) {
                unused = group;
                group = null;
            }
        }
        if (unused != null) {
            Transports.shutdown(unused);
        }
    }
}
