package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.SyncWaits;
import io.jupiter.rpc.internal.WorkerPool;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One call waiting for its response. A synchronous call parks its own thread and reads the response there, so the
 * IO thread only hands the frame over; an asynchronous call reads it on a consumer thread and completes its
 * future. The call is its own consumer task, so a call allocates nothing else; an asynchronous call's timeout is
 * found by the {@link TimeoutSweep}, a synchronous call's by its own thread.
 */
final class PendingCall implements WorkerPool.Task {

    final long id;
    final MethodInfo method;
    final Connection connection;
    private final InFlightCalls calls;
    /** Tells the provider when this call's caller stops waiting. */
    private final CallCancels cancels;
    private final Thread waiter;
    private final InvokeFuture<Object> future;
    /** For an asynchronous call: its proxy's dispatch (executor, metrics); {@code null} for a synchronous one. */
    private final Dispatch dispatch;
    /** For an asynchronous call: when it started, for the method timer (0: not timed). */
    private final long startNanos;
    /** For an asynchronous call: when its timeout passes ({@link System#nanoTime()}). */
    private final long deadlineNanos;
    /** When an async call's completion was queued for a consumer thread. */
    private long queuedNanos;
    private volatile Object outcome;

    private PendingCall(long id, MethodInfo method, Connection connection, InFlightCalls calls, CallCancels cancels,
                        Thread waiter, InvokeFuture<Object> future, Dispatch dispatch, long startNanos,
                        long deadlineNanos) {
        this.id = id;
        this.method = method;
        this.connection = connection;
        this.calls = calls;
        this.cancels = cancels;
        this.waiter = waiter;
        this.future = future;
        this.dispatch = dispatch;
        this.startNanos = startNanos;
        this.deadlineNanos = deadlineNanos;
    }

    static PendingCall sync(long id, MethodInfo method, Connection connection, InFlightCalls calls,
                            CallCancels cancels) {
        return new PendingCall(id, method, connection, calls, cancels, Thread.currentThread(), null, null, 0L, 0L);
    }

    /** An asynchronous call of {@code dispatch}'s proxy, timed from now in its method timer (when metrics are on). */
    static PendingCall async(long id, MethodInfo method, Connection connection, Dispatch dispatch,
                             InvokeFuture<Object> future) {
        long now = System.nanoTime();
        return new PendingCall(id, method, connection, dispatch.calls, dispatch.cancels, null, future, dispatch,
                dispatch.metrics.enabled() ? now : 0L, now + TimeUnit.MILLISECONDS.toNanos(method.timeoutMillis));
    }

    /** Whether this call completes a future (its timeout is then the {@link TimeoutSweep}'s to find). */
    boolean isAsync() {
        return waiter == null;
    }

    /** For an asynchronous call: when its timeout passes ({@link System#nanoTime()}). */
    long deadlineNanos() {
        return deadlineNanos;
    }

    /** For an asynchronous call: whether its timeout passed by {@code nowNanos}. */
    boolean expiredBy(long nowNanos) {
        return nowNanos - deadlineNanos >= 0;
    }

    /** The sweep found the timeout passed; this call was already removed from the in-flight table by it. */
    void timedOut() {
        cancels.cancel(this);
        failed(timeoutException());
    }

    /** The response arrived; this call was already removed from the in-flight table by the caller. */
    void responded(Frame frame) {
        finish(frame, frame.body().readableBytes() <= AdaptiveDispatch.MAX_BODY_READ_ON_IO_THREAD);
    }

    /** The call failed locally; this call was already removed from the in-flight table by the caller. */
    void failed(RpcException cause) {
        finish(cause, false);
    }

    /**
     * @param onIoThread whether this runs on the IO thread that read a response small enough to be read there: an
     *                   async call whose completions were learned fast is then completed right here
     */
    private void finish(Object result, boolean onIoThread) {
        outcome = result;
        if (waiter != null) {
            LockSupport.unpark(waiter);
            return;
        }
        Executor callbacks = dispatch.callbackExecutor;
        if (callbacks != null) {
            try {
                callbacks.execute(this);
            } catch (RuntimeException e) {
                run(); // refused: completed here, as when the consumer pool is full
            }
            return;
        }
        WorkerPool pool = dispatch.consumerPool;
        if (pool == null) {
            complete();
            return;
        }
        AdaptiveDispatch completions = method.completions;
        if (onIoThread && completions.runsOnIoThread()) {
            completeTimed(completions, true);
            return;
        }
        queuedNanos = System.nanoTime();
        try {
            pool.execute(this);
        } catch (RejectedExecutionException e) {
            run();
        }
    }

    @Override
    public long queuedNanos() {
        return queuedNanos;
    }

    /** Completes the future on a consumer thread (or, refused by a full pool, on the thread that finished it). */
    @Override
    public void run() {
        AdaptiveDispatch completions = method.completions;
        if (completions.timed()) {
            completeTimed(completions, false);
        } else {
            complete();
        }
    }

    /**
     * {@link #complete}, with the callbacks timed for {@code completions}, which learns from them where completions
     * of this method run (reading the response is ours, and not timed).
     */
    private void completeTimed(AdaptiveDispatch completions, boolean onIoThread) {
        Object read = readOutcome();
        long waitsBefore = SyncWaits.count();
        long started = System.nanoTime();
        // The attempt ends with its response read: the same clock read serves both.
        dispatch.asyncAttemptDone(method, startNanos, started);
        try {
            deliver(read);
        } finally {
            completions.ran(System.nanoTime() - started, waitsBefore, onIoThread);
        }
    }

    /** Reads the response and completes the future, which runs the callbacks registered on it. */
    private void complete() {
        Object read = readOutcome();
        // Timed here rather than by a callback on the future: that would cost a dependent future per call.
        dispatch.asyncAttemptDone(method, startNanos);
        deliver(read);
    }

    /** The call's value, or a {@link Failed} holding what it failed with. */
    private Object readOutcome() {
        Object result = outcome;
        if (result instanceof Frame) {
            try {
                return ResponseReader.read((Frame) result, method, connection);
            } catch (Throwable error) {
                return new Failed(error);
            }
        }
        return new Failed((Throwable) result);
    }

    private void deliver(Object value) {
        if (value instanceof Failed failed) {
            future.completeExceptionally(failed.error);
        } else {
            future.complete(value);
        }
    }

    /** A failed outcome, told apart from any value a method may return. */
    private record Failed(Throwable error) {
    }

    /**
     * Called after the request was handed to the connection: if the connection is no longer active, the call may
     * have been added after the connection's calls were failed, so it fails here rather than at its timeout.
     */
    void failIfConnectionClosed() {
        if (!connection.isActive() && calls.remove(this)) {
            failed(new RequestNotSentException("cannot send " + method + " to " + connection.remoteAddress()
                    + ": the connection is closed", null));
        }
    }

    /**
     * Waits for the outcome of a synchronous call and returns the value, or throws what the call ended with.
     */
    Object await() throws Throwable {
        SyncWaits.record();
        if (connection.ioExecutor() instanceof EventExecutor io && io.inEventLoop()) {
            // The response would have to be read by this very thread: waiting could only end in a timeout.
            if (calls.remove(this)) {
                throw new RpcException(StatusTable.CLIENT_ERROR.status(),
                        method + " called synchronously on the IO thread that"
                        + " would read its response (from a callback that ran there?): it cannot be answered; call it"
                        + " asynchronously, or from another thread");
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(method.timeoutMillis);
        Object result;
        while ((result = outcome) == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                if (calls.remove(this)) {
                    cancels.cancel(this);
                    throw timeoutException();
                }
                // The response is being handed over right now: wait for it.
                Thread.onSpinWait();
                continue;
            }
            LockSupport.parkNanos(this, left);
            if (Thread.interrupted() && calls.remove(this)) {
                cancels.cancel(this);
                Thread.currentThread().interrupt();
                throw new RpcException(StatusTable.CLIENT_ERROR.status(), method + " interrupted while waiting for "
                        + connection.remoteAddress());
            }
        }
        if (result instanceof Frame) {
            return ResponseReader.read((Frame) result, method, connection);
        }
        RpcException error = (RpcException) result;
        // Raised on an IO or timer thread; the caller's stack is the useful one.
        error.fillInStackTrace();
        throw error;
    }

    private TimeoutException timeoutException() {
        return new TimeoutException(StatusTable.SERVER_TIMEOUT.status(), method + " got no response from "
                + connection.remoteAddress() + " within " + method.timeoutMillis + " ms (invoke id " + id + ")");
    }
}
