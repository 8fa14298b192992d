package io.jupiter.rpc.extension;

import io.jupiter.rpc.filter.Filter;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.jupiter.transport.Status;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A filter that records "name:before" / "name:after:STATUS" and optionally attaches "name=value" before. */
final class Recorder implements Filter {

    final String name;
    final List<String> events;
    private final int priority;
    private final Side side;
    final List<Invocation> finished = new CopyOnWriteArrayList<>();
    final List<Object> results = new CopyOnWriteArrayList<>();
    final List<Throwable> errors = new CopyOnWriteArrayList<>();

    Recorder(String name, List<String> events, int priority, Side side) {
        this.name = name;
        this.events = events;
        this.priority = priority;
        this.side = side;
    }

    Recorder(String name, List<String> events) {
        this(name, events, 0, Side.BOTH);
    }

    @Override
    public Side side() {
        return side;
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public void beforeInvoke(Invocation invocation) {
        events.add(name + ":before");
        if (invocation.side() == Side.CONSUMER) {
            invocation.attach("by-" + name, invocation.methodName());
        }
    }

    @Override
    public void afterInvoke(Invocation invocation, Object result, Throwable error) {
        Status status = invocation.status();
        events.add(name + ":after:" + status);
        finished.add(invocation);
        if (error == null) {
            results.add(result == null ? "null" : result);
        } else {
            errors.add(error);
        }
    }
}
