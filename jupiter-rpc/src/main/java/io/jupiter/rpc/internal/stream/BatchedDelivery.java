package io.jupiter.rpc.internal.stream;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The delivery of one connection's receiving streams on the consumer: the streams that become deliverable on the
 * connection's IO thread join the connection's queue of ready streams, and once the reads of that turn of its event
 * loop are done, enough delivery tasks are running to drain it: {@code max(2, ceil(ready / }{@value #STREAMS_PER_TASK}
 * {@code ))} (one for a single stream when none runs), counting those already running. A task takes ready streams one
 * after another, delivering all each has queued, until none is left. A fan-out of one topic to thousands of
 * subscribers so costs a wake-up of a delivery thread per {@value #STREAMS_PER_TASK} streams, not per stream, and a
 * connection has at most that many tasks at once. A delivery asked for on any other thread (a subscriber asking for a
 * message already queued, a cancel) goes to the delivery executor at once, as before.
 *
 * <p>A subscriber that blocks in {@code onNext} holds its task: the connection's other tasks (at least one more
 * whenever a stream is ready while a task runs) deliver the other streams. When subscribers block in every task of
 * the connection at once, the queue stops moving: while streams are ready, the IO thread looks every
 * {@value #STALL_MILLIS} ms and starts one more task each time no stream was taken since it last looked, so each
 * stream is still delivered as if it had a thread of its own, a few milliseconds later (one task per blocked
 * subscriber at most, as before the batching). A stream is in the queue at most once (its
 * {@link InboundStream} asks for a delivery only when none is under way), so its messages keep their order and reach
 * its subscriber one at a time.
 *
 * <p>If the delivery executor refuses a task (the client is closing), the task runs on the IO thread, which delivers
 * (and releases) what is queued, as a refused single delivery did.
 */
final class BatchedDelivery implements Executor {

    /** Ready streams of a connection per delivery task, beyond the two tasks two ready streams or more get. */
    static final int STREAMS_PER_TASK = 64;
    /** How long ready streams may wait with none taken before one more task starts. */
    static final long STALL_MILLIS = 5;

    private final EventExecutor ioThread;
    private final Executor threads;
    /** Deliveries asked for on the IO thread and not yet taken by a task. */
    private final ConcurrentLinkedQueue<Runnable> ready = new ConcurrentLinkedQueue<>();
    /** The size of {@link #ready}, near enough to size the tasks by. */
    private final AtomicInteger readyCount = new AtomicInteger();
    /** Tasks started and not yet done. */
    private final AtomicInteger running = new AtomicInteger();
    /** Streams taken from {@link #ready} by the tasks so far: the queue's progress. */
    private final AtomicLong taken = new AtomicLong();
    private final Runnable task = this::deliverReady;
    private final Runnable lookForStall = this::lookForStall;
    /** Whether a hand-out is due at the end of the IO thread's turn; touched on the IO thread only. */
    private boolean handOutScheduled;
    /** Whether a look for a stalled queue is scheduled; IO thread only. */
    private boolean watching;
    /** {@link #taken} when the IO thread last looked; IO thread only. */
    private long takenWhenLooked;

    /**
     * @param ioThread the connection's event loop, where its frames arrive
     * @param threads  the delivery threads
     */
    BatchedDelivery(EventExecutor ioThread, Executor threads) {
        this.ioThread = ioThread;
        this.threads = threads;
    }

    /**
     * The executor a stream of a connection whose IO thread is {@code io} delivers on: a batching one when that is a
     * Netty event loop, else {@code threads} itself.
     */
    static Executor of(Executor io, Executor threads) {
        return io instanceof EventExecutor loop ? new BatchedDelivery(loop, threads) : threads;
    }

    @Override
    public void execute(Runnable delivery) {
        if (!ioThread.inEventLoop()) {
            threads.execute(delivery);
            return;
        }
        ready.add(delivery);
        readyCount.incrementAndGet();
        if (!handOutScheduled) {
            handOutScheduled = true;
            try {
                ioThread.execute(this::handOut); // runs once the reads of this turn are done
            } catch (RejectedExecutionException e) {
                handOut(); // the event loop is shutting down: hand out now
            }
        }
    }

    /** On the IO thread, after its turn: starts the tasks the ready streams need beyond those running. */
    private void handOut() {
        handOutScheduled = false;
        int count = readyCount.get();
        int now = running.get();
        // One task for a lone ready stream; else two at least, so a task held by a blocking subscriber is not the
        // only one.
        int wanted = count <= 0 ? 0 : count == 1 && now == 0 ? 1
                : Math.max(2, (count + STREAMS_PER_TASK - 1) / STREAMS_PER_TASK);
        // Counted once: tasks that finish meanwhile found the queue empty, and are not replaced.
        for (int more = wanted - now; more > 0; more--) {
            running.incrementAndGet();
            start();
        }
        if (count > 0 && !watching) {
            watching = true;
            takenWhenLooked = taken.get();
            scheduleLook();
        }
    }

    /** On the IO thread, every {@link #STALL_MILLIS} while streams are ready: one more task if none was taken. */
    private void lookForStall() {
        if (readyCount.get() <= 0) {
            watching = false;
            return;
        }
        long now = taken.get();
        if (now == takenWhenLooked) {
            running.incrementAndGet();
            start();
        }
        takenWhenLooked = now;
        scheduleLook();
    }

    private void scheduleLook() {
        try {
            ioThread.schedule(lookForStall, STALL_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            watching = false; // the event loop is shutting down; the client's close ends the streams
        }
    }

    private void start() {
        try {
            threads.execute(task);
        } catch (RejectedExecutionException e) {
            task.run(); // the delivery threads are stopping: deliver (and release) on this thread
        }
    }

    /** One task: delivers ready streams until none is left. */
    private void deliverReady() {
        while (true) {
            Runnable next;
            while ((next = ready.poll()) != null) {
                readyCount.decrementAndGet();
                taken.incrementAndGet();
                try {
                    next.run();
                } catch (RuntimeException e) {
                    // A subscriber threw: reported as a task of its own would have been; the others go on.
                    Thread current = Thread.currentThread();
                    current.getUncaughtExceptionHandler().uncaughtException(current, e);
                }
            }
            running.decrementAndGet();
            // A stream queued after the last poll, whose hand-out counted this task as running, is taken here.
            if (ready.isEmpty()) {
                return;
            }
            running.incrementAndGet();
        }
    }
}
