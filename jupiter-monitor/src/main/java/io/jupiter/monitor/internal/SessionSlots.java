package io.jupiter.monitor.internal;

import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;

/**
 * The console's two session caps. Sessions that have not authenticated yet are capped on their own (and must
 * authenticate within a deadline, see {@link ConsoleSession}), so connections that never authenticate cannot take
 * the slots of operators who do; authenticated sessions have a cap of the same size.
 */
public final class SessionSlots {

    private final int max;
    private final ChannelGroup unauthenticated =
            new DefaultChannelGroup("jupiter-monitor-unauthenticated", GlobalEventExecutor.INSTANCE);
    private final ChannelGroup authenticated =
            new DefaultChannelGroup("jupiter-monitor-sessions", GlobalEventExecutor.INSTANCE);

    public SessionSlots(int max) {
        this.max = max;
    }

    /** The cap of each kind of session. */
    public int max() {
        return max;
    }

    /** Takes an unauthenticated slot for a new connection; {@code false} if they are all taken. */
    public synchronized boolean admit(Channel channel) {
        if (unauthenticated.size() >= max) {
            return false;
        }
        unauthenticated.add(channel);
        return true;
    }

    /** Moves an authenticated session to an authenticated slot; {@code false} if they are all taken. */
    public synchronized boolean promote(Channel channel) {
        if (authenticated.size() >= max) {
            return false;
        }
        unauthenticated.remove(channel);
        authenticated.add(channel);
        return true;
    }

    /** Closes every session. */
    public void closeAll() {
        unauthenticated.close().syncUninterruptibly();
        authenticated.close().syncUninterruptibly();
    }
}
