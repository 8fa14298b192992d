package io.jupiter.rpc.internal.consumer;

import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.netty.util.Timer;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The client's connection groups, one per provider address, shared by every proxy that calls it. A group no proxy
 * uses any more is closed after a grace period, so calls still in flight on it can finish.
 */
final class SharedGroups {

    private final Connector connector;
    private final Timer timer;
    private final long graceMillis;
    private final Map<SocketAddress, Ref> refs = new HashMap<>();
    private boolean closed;

    SharedGroups(Connector connector, Timer timer, long graceMillis) {
        this.connector = connector;
        this.timer = timer;
        this.graceMillis = graceMillis;
    }

    /** The group of an address, opened with {@code connections} connections if it is new. */
    synchronized ConnectionGroup acquire(SocketAddress address, int connections) {
        if (closed) {
            throw new IllegalStateException("client is closed");
        }
        Ref ref = refs.computeIfAbsent(address, a -> new Ref(connector.connect(a, connections)));
        ref.users++;
        return ref.group;
    }

    /** One user fewer; the last one schedules the close. */
    synchronized void release(SocketAddress address) {
        Ref ref = refs.get(address);
        if (ref == null || --ref.users > 0 || closed) {
            return;
        }
        timer.newTimeout(t -> closeIfUnused(address, ref), graceMillis, TimeUnit.MILLISECONDS);
    }

    private void closeIfUnused(SocketAddress address, Ref ref) {
        synchronized (this) {
            if (ref.users > 0 || !refs.remove(address, ref)) {
                return;
            }
        }
        ref.group.close();
    }

    void closeAll() {
        List<Ref> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(refs.values());
            refs.clear();
        }
        for (Ref ref : all) {
            ref.group.close();
        }
    }

    private static final class Ref {
        final ConnectionGroup group;
        int users;

        Ref(ConnectionGroup group) {
            this.group = group;
        }
    }
}
