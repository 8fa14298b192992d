package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.internal.balance.Endpoint;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** The providers a proxy may call now: an immutable snapshot, replaced whenever they change. */
class Directory {

    private static final Endpoint[] NONE = new Endpoint[0];

    private volatile Endpoint[] endpoints = NONE;
    private final String description;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    Directory(String description) {
        this.description = description;
    }

    Endpoint[] endpoints() {
        return endpoints;
    }

    void update(Endpoint[] next) {
        endpoints = next;
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the snapshot is not empty or the deadline passes. A lock rather than a monitor: a caller on a
     * virtual thread then does not hold its carrier while it waits (JDK 21 to 23 pin a thread waiting in a monitor).
     */
    void awaitEndpoints(long deadlineNanos) throws InterruptedException {
        lock.lock();
        try {
            while (endpoints.length == 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops following changes and releases the connections (registry directories). */
    void close() {
    }

    @Override
    public String toString() {
        return description;
    }
}
