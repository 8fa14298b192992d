package io.jupiter.rpc.pipeline;

import io.jupiter.rpc.filter.Filter;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.jupiter.transport.Status;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A consumer interceptor that counts its hooks, keeps what {@code afterInvoke} saw and attaches "by" = its name. */
class Counting implements Filter {

    final String name;
    final AtomicInteger before = new AtomicInteger();
    final AtomicInteger after = new AtomicInteger();
    final List<Status> statuses = new CopyOnWriteArrayList<>();
    final List<Object> results = new CopyOnWriteArrayList<>();
    final List<SocketAddress> peers = new CopyOnWriteArrayList<>();

    Counting(String name) {
        this.name = name;
    }

    void clear() {
        before.set(0);
        after.set(0);
        statuses.clear();
        results.clear();
        peers.clear();
    }

    @Override
    public Side side() {
        return Side.CONSUMER;
    }

    @Override
    public void beforeInvoke(Invocation invocation) {
        before.incrementAndGet();
        invocation.attach("by", name);
    }

    @Override
    public void afterInvoke(Invocation invocation, Object result, Throwable error) {
        statuses.add(invocation.status());
        results.add(error != null ? error : result == null ? "null" : result);
        if (invocation.remoteAddress() != null) {
            peers.add(invocation.remoteAddress());
        }
        after.incrementAndGet();
    }
}
