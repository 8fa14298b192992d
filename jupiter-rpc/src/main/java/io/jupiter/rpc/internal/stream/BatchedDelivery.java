package io.jupiter.rpc.internal.stream;

import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The delivery of one connection's receiving streams on the consumer: the streams that become deliverable on the
 * connection's IO thread during one turn of its event loop (one read batch, typically) are handed to the delivery
 * threads together once the turn's reads are done, by a few tasks rather than one task each. A fan-out of one topic to
 * thousands of subscribers so costs a wake-up of a delivery thread per {@value #STREAMS_PER_TASK} streams, not per
 * stream. A delivery asked for on any other thread (a subscriber asking for a message already queued, a cancel) goes
 * to the delivery executor at once, as before.
 *
 * <p>A batch of {@code n} streams gets {@code max(2, ceil(n / }{@value #STREAMS_PER_TASK}{@code ))} tasks (one for a
 * single stream) that take its streams one after another from a shared cursor, each delivering all that stream has
 * queued before taking the next. So a subscriber that blocks in {@code onNext} holds up only its own stream: the
 * batch's other tasks deliver the rest. Only when a subscriber blocks in every task of a batch at once (at least two,
 * and one in {@value #STREAMS_PER_TASK} of its streams) do the batch's remaining streams wait for one to return.
 * Streams of later batches are not held up either way. A stream is in at most one batch at a time (its
 * {@link InboundStream} asks for a delivery only when none is under way), so its messages keep their order and reach
 * its subscriber one at a time.
 *
 * <p>If the delivery executor refuses a task (the client is closing), the task runs on the IO thread, which delivers
 * (and releases) what is queued, as a refused single delivery did.
 */
final class BatchedDelivery implements Executor {

    /** Streams of one batch per delivery task, beyond the two tasks every batch of two or more streams gets. */
    static final int STREAMS_PER_TASK = 64;

    private final EventExecutor ioThread;
    private final Executor threads;
    /** The deliveries asked for on the IO thread in its current turn; touched on the IO thread only. */
    private List<Runnable> pending = new ArrayList<>();

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
        pending.add(delivery);
        if (pending.size() == 1) {
            try {
                ioThread.execute(this::handOut); // runs once the reads of this turn are done
            } catch (RejectedExecutionException e) {
                handOut(); // the event loop is shutting down: deliver now
            }
        }
    }

    /** On the IO thread, after its turn: hands the turn's deliveries to the delivery threads. */
    private void handOut() {
        List<Runnable> batch = pending;
        pending = new ArrayList<>();
        int size = batch.size();
        if (size == 0) {
            return;
        }
        if (size == 1) {
            start(batch.get(0));
            return;
        }
        Batch shared = new Batch(batch);
        int tasks = Math.max(2, (size + STREAMS_PER_TASK - 1) / STREAMS_PER_TASK);
        for (int i = 0; i < tasks; i++) {
            start(shared);
        }
    }

    private void start(Runnable task) {
        try {
            threads.execute(task);
        } catch (RejectedExecutionException e) {
            task.run(); // the delivery threads are stopping: deliver (and release) on this thread
        }
    }

    /** The deliveries of one turn, taken one at a time by each of its tasks. */
    private static final class Batch implements Runnable {
        private final List<Runnable> deliveries;
        private final AtomicInteger next = new AtomicInteger();

        Batch(List<Runnable> deliveries) {
            this.deliveries = deliveries;
        }

        @Override
        public void run() {
            int size = deliveries.size();
            int i;
            while ((i = next.getAndIncrement()) < size) {
                try {
                    deliveries.get(i).run();
                } catch (RuntimeException e) {
                    // A subscriber threw: as a task of its own would have, it is reported; the batch goes on.
                    Thread current = Thread.currentThread();
                    current.getUncaughtExceptionHandler().uncaughtException(current, e);
                }
            }
        }
    }
}
