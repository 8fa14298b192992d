package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.internal.balance.Endpoint;

/** The providers a proxy may call now: an immutable snapshot, replaced whenever they change. */
class Directory {

    private static final Endpoint[] NONE = new Endpoint[0];

    private volatile Endpoint[] endpoints = NONE;
    private final String description;

    Directory(String description) {
        this.description = description;
    }

    Endpoint[] endpoints() {
        return endpoints;
    }

    void update(Endpoint[] next) {
        endpoints = next;
        synchronized (this) {
            notifyAll();
        }
    }

    /** Waits until the snapshot is not empty or the deadline passes. */
    void awaitEndpoints(long deadlineNanos) throws InterruptedException {
        synchronized (this) {
            while (endpoints.length == 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                wait(Math.max(1, left / 1_000_000));
            }
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
