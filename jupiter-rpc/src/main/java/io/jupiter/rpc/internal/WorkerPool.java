package io.jupiter.rpc.internal;

import io.jupiter.common.Requires;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.internal.PlatformDependent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fixed pool of threads behind a bounded lock-free queue that wakes a thread only when one is needed.
 *
 * <p>A {@link java.util.concurrent.ThreadPoolExecutor} wakes a parked thread for every task it queues while any
 * thread is parked, so a burst of short tasks (one network read delivers twenty requests) wakes every thread: a
 * system call on the submitting thread and a context switch each, and on a virtual machine a context switch costs
 * more than serving a small request. Here:
 * <ul>
 * <li>a submitter wakes a thread only if none is awake and looking for work, and fewer than {@code parallelism}
 *     threads are running tasks; a thread that takes a task and leaves more behind wakes another under the same two
 *     conditions;</li>
 * <li>a thread runs queued tasks back to back; when the queue is empty it first keeps looking for a moment
 *     ({@code spinNanos}, one thread at a time) and then parks, so a steady stream of requests finds a thread
 *     awake instead of paying a wake-up each;</li>
 * <li>since a running thread may be blocked rather than busy, a task that has waited {@code stallNanos} with no
 *     thread looking for it wakes one more thread, whatever the parallelism: the submitter of the next task checks
 *     the age of the oldest one, and a watchdog looks too (every {@code stallNanos}, less often while it finds
 *     nothing to do; it sleeps for good while the pool is idle, until a task is left queued with no thread looking
 *     for it). So blocking tasks soon get every thread of the pool, and a short task queued behind blocked ones
 *     waits about {@code stallNanos} more at most (up to 16 times that if the watchdog had long found nothing to
 *     do and no other task arrives to check).</li>
 * </ul>
 * Threads are started on demand, up to {@code threads}. A full queue or a shut-down pool refuses a task with
 * {@link RejectedExecutionException}, at once. With a {@link SojournLimit}, a task that waited longer than it allows
 * is not run but {@linkplain Task#shed shed} as it leaves the queue, so the queue cannot hold a backlog of tasks
 * nobody waits for; while the queue stands and its oldest task waited half the limit's interval, the pool also serves
 * the newest task first (adaptive LIFO): the threads move what is queued onto a stack, run its newest task and shed
 * its oldest ones, and take from its bottom again (first in, first out) once that no longer holds, until it is empty.
 * The stack costs a lock per task, so it is used only then; an ordinary queue takes the lock-free path.
 */
public final class WorkerPool {

    /** A task that knows when it was queued ({@link System#nanoTime()}), so the pool can tell how long it waited. */
    public interface Task extends Runnable {
        long queuedNanos();

        /**
         * The pool will not run this task: it waited {@code waitedNanos}, above the {@code limitNanos} its
         * {@link SojournLimit} allows now. Runs it anyway by default; a task that can be refused answers its caller.
         */
        default void shed(long waitedNanos, long limitNanos) {
            run();
        }
    }

    private static final Logger log = LoggerFactory.getLogger(WorkerPool.class);

    /** The watchdog's longest sleep while tasks run, in multiples of {@code stallNanos}. */
    private static final int MAX_WATCH_BACKOFF = 16;

    private static final int SEARCHING = 0;
    private static final int PARKED = 1;
    private static final int WOKEN = 2;

    private final String name;
    private final int maxThreads;
    private final int parallelism;
    private final long stallNanos;
    private final long spinNanos;
    /** 1 while a thread is spinning before it parks: one at a time, so idle threads do not fill the cores. */
    private final AtomicInteger spinning = new AtomicInteger();
    private final int queueCapacity;
    private final Queue<Task> queue;
    /**
     * Tasks moved off {@link #queue} while it stands, oldest first (guarded by itself); they are all older than
     * anything still in {@link #queue}.
     */
    private final ArrayDeque<Task> lifo = new ArrayDeque<>();
    /** {@code lifo.size()}, readable without its lock. */
    private volatile int lifoSize;
    /** When the oldest task on {@link #lifo} was queued, if {@link #lifoSize} is not 0. */
    private volatile long lifoOldestQueuedNanos;
    private final AtomicReferenceArray<Worker> workers;
    /** {@code null}: every task runs, however long it waited. */
    private final SojournLimit sojournLimit;
    /** Workers started so far (slots of {@link #workers} in use). */
    private final AtomicInteger started = new AtomicInteger();
    /**
     * Two counts in one word, so that a submitter reads both at the same instant: workers running tasks (high 32
     * bits) and workers awake and looking for a task, woken ones included (low 32 bits). A worker that is about to
     * stop or start looking counts itself first and undoes it if it lost the race, so that a submitter never sees
     * nobody looking while somebody is.
     */
    private final AtomicLong ctl = new AtomicLong();
    private static final long ONE_RUNNING = 1L << 32;
    /** Worker threads not yet ended (the watchdog is not one). */
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicLong wakeUps = new AtomicLong();
    private final AtomicLong stallWakeUps = new AtomicLong();
    private final Object termination = new Object();
    private final Thread watchdog;
    private volatile boolean watchdogParked;
    private volatile boolean shutdown;

    /** A pool that runs every task, however long it waited. */
    public WorkerPool(String name, int threads, int queueCapacity, int parallelism, long stallNanos,
                      long spinNanos) {
        this(name, threads, queueCapacity, parallelism, stallNanos, spinNanos, null);
    }

    /**
     * @param name            thread name prefix
     * @param threads         the most threads the pool starts
     * @param queueCapacity   tasks that may wait for a thread before new ones are refused (exact for one
     *                        submitting thread; several at once may pass it by one task each)
     * @param parallelism     threads that may run tasks before a new task wakes another (stalls aside)
     * @param stallNanos      how long a task may wait, with no thread looking for work, before it wakes one
     * @param spinNanos       how long one idle thread keeps looking for a task before it parks (0: parks at once)
     * @param sojournLimit    sheds the tasks that waited too long; {@code null}: every task runs
     */
    public WorkerPool(String name, int threads, int queueCapacity, int parallelism, long stallNanos,
                      long spinNanos, SojournLimit sojournLimit) {
        this.name = Requires.notBlank(name, "name");
        this.maxThreads = Requires.positive(threads, "threads");
        this.parallelism = Math.min(threads, Requires.positive(parallelism, "parallelism"));
        this.stallNanos = Requires.positive(stallNanos, "stallNanos");
        this.spinNanos = Requires.notNegative(spinNanos, "spinNanos");
        this.queueCapacity = Requires.positive(queueCapacity, "queueCapacity");
        // The array queue rounds its capacity up to a power of two (at least 2); execute() keeps to the one asked.
        this.queue = PlatformDependent.newFixedMpmcQueue(Math.max(2, queueCapacity));
        this.workers = new AtomicReferenceArray<>(threads);
        this.sojournLimit = sojournLimit;
        this.watchdog = newThread(name + "-watchdog", this::watch);
        watchdog.start();
    }

    /**
     * Queues {@code task}.
     *
     * @throws RejectedExecutionException if the queue is full or the pool is shut down
     */
    public void execute(Task task) {
        Requires.notNull(task, "task");
        if (shutdown) {
            throw new RejectedExecutionException(name + " is shut down");
        }
        if (queue.size() + lifoSize >= queueCapacity || !queue.offer(task)) {
            throw new RejectedExecutionException(name + ": all " + running(ctl.get()) + " running threads busy and the"
                    + " queue full");
        }
        long c = ctl.get();
        if (searching(c) == 0) {
            if (running(c) < parallelism) {
                wakeOne(false);
            } else if (waitedTooLong(task.queuedNanos())) {
                wakeOne(true);
            } else {
                watchForStalls();
            }
        }
        if (shutdown && live.get() == 0) {
            // Raced with shutdown and every worker has ended: run what is left here rather than lose it.
            for (Task left : drainAll()) {
                run(left);
            }
        }
    }

    /** Threads running a task now. */
    public int activeCount() {
        return running(ctl.get());
    }

    /** Tasks waiting for a thread. */
    public int queuedCount() {
        return queue.size() + lifoSize;
    }

    /** The most threads the pool starts. */
    public int maxThreads() {
        return maxThreads;
    }

    /** Threads started so far. */
    public int startedThreads() {
        return started.get();
    }

    /** Parked threads woken so far (a new thread counts as one), watchdog wake-ups included. */
    public long wakeUps() {
        return wakeUps.get();
    }

    /** Threads the watchdog woke because queued tasks waited while every awake thread was running one. */
    public long stallWakeUps() {
        return stallWakeUps.get();
    }

    public boolean isShutdown() {
        return shutdown;
    }

    /** Refuses new tasks; the queued ones still run, then every thread ends. */
    public void shutdown() {
        shutdown = true;
        int n = started.get();
        for (int i = 0; i < n; i++) {
            Worker worker = workers.get(i);
            if (worker != null) {
                worker.wake();
            }
        }
        LockSupport.unpark(watchdog);
    }

    /** {@link #shutdown()}, interrupts the running tasks, and returns the queued ones, which will not run. */
    public List<Task> shutdownNow() {
        List<Task> left = drainAll();
        shutdown();
        int n = started.get();
        for (int i = 0; i < n; i++) {
            Worker worker = workers.get(i);
            if (worker != null) {
                worker.thread.interrupt();
            }
        }
        return left;
    }

    /** Waits until every thread of a shut-down pool has ended; returns whether they did in time. */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (termination) {
            while (live.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(termination, left);
            }
        }
        // Every thread has left its loop; join them, so that none is still alive when this returns true.
        int n = started.get();
        for (int i = 0; i <= n; i++) {
            Thread thread = i == n ? watchdog : workers.get(i) == null ? null : workers.get(i).thread;
            long left = deadline - System.nanoTime();
            if (thread != null && left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(thread, left);
            }
            if (thread != null && thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Wakes a parked worker, or starts one if none is parked and the pool may grow; it is counted as searching
     * from here. The need is judged again on fresh counts first (the caller's may be stale by now): a task queued,
     * nobody looking for it, and fewer than {@code parallelism} running unless the task {@code stalled}. Returns
     * whether a worker was woken or started.
     */
    private boolean wakeOne(boolean stalled) {
        if (!needsWorker(stalled)) {
            return false;
        }
        int n = started.get();
        for (int i = 0; i < n; i++) {
            Worker worker = workers.get(i);
            if (worker != null && worker.wake()) {
                wakeUps.incrementAndGet();
                return true;
            }
        }
        // Nobody parked: start a thread, if one is still needed (a worker may have got to the task meanwhile).
        if (needsWorker(stalled) && startWorker()) {
            wakeUps.incrementAndGet();
            return true;
        }
        return false;
    }

    private boolean needsWorker(boolean stalled) {
        long c = ctl.get();
        return searching(c) == 0 && (stalled || running(c) < parallelism) && hasQueued();
    }

    /** Whether a task waits, on the queue or the stack. */
    private boolean hasQueued() {
        return !queue.isEmpty() || lifoSize != 0;
    }

    /** Takes every waiting task, oldest first. */
    private List<Task> drainAll() {
        List<Task> tasks = new ArrayList<>();
        synchronized (lifo) {
            tasks.addAll(lifo);
            lifo.clear();
            lifoSize = 0;
        }
        Task task;
        while ((task = queue.poll()) != null) {
            tasks.add(task);
        }
        return tasks;
    }

    private static int searching(long ctl) {
        return (int) ctl;
    }

    private static int running(long ctl) {
        return (int) (ctl >>> 32);
    }

    /**
     * A daemon {@link FastThreadLocalThread}: Netty's thread-locals are an array index on it, and its pooled
     * allocator gives it a buffer cache of its own, so the responses it serializes take no arena lock.
     */
    private static Thread newThread(String name, Runnable body) {
        Thread thread = new FastThreadLocalThread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private boolean startWorker() {
        for (;;) {
            int n = started.get();
            if (n >= maxThreads) {
                return false;
            }
            if (started.compareAndSet(n, n + 1)) {
                ctl.incrementAndGet();
                live.incrementAndGet();
                Worker worker = new Worker();
                try {
                    worker.thread = newThread(name + '-' + (n + 1), () -> work(worker));
                    workers.set(n, worker);
                    worker.thread.start();
                } catch (Throwable t) {
                    // No thread (the process is out of native threads, say): undo its counts, or a worker that
                    // does not exist would count as looking for work and nobody would be woken for the queue.
                    ctl.decrementAndGet();
                    workerEnded();
                    log.error("{} cannot start thread {} of {}; running with fewer", name, n + 1, maxThreads, t);
                    return false;
                }
                return true;
            }
        }
    }

    private void workerEnded() {
        if (live.decrementAndGet() == 0) {
            synchronized (termination) {
                termination.notifyAll();
            }
            LockSupport.unpark(watchdog);
        }
    }

    /** Whether the oldest queued task has waited {@code stallNanos} by {@code nowNanos}. */
    private boolean waitedTooLong(long nowNanos) {
        if (lifoSize != 0 && nowNanos - lifoOldestQueuedNanos >= stallNanos) {
            return true;
        }
        Task oldest = queue.peek();
        return oldest != null && nowNanos - oldest.queuedNanos() >= stallNanos;
    }

    private void work(Worker worker) {
        for (;;) {
            Task task = queue.poll();
            if (task == null && lifoSize == 0) {
                if (sojournLimit != null) {
                    sojournLimit.queueEmpty();
                }
                if (worker.idle()) {
                    continue;
                }
                workerEnded();
                // A task queued while we were leaving: stay for it (else its submitter, seeing no worker, runs it).
                if (!hasQueued()) {
                    return;
                }
                live.incrementAndGet();
                ctl.incrementAndGet();
                continue;
            }
            long c = ctl.addAndGet(ONE_RUNNING - 1);
            if (searching(c) == 0 && hasQueued()) {
                if (running(c) < parallelism) {
                    wakeOne(false);
                } else {
                    watchForStalls();
                }
            }
            do {
                if (task == null || (sojournLimit != null && (lifoSize != 0 || lifoDue(task)))) {
                    task = fromStack(task, worker.shed);
                    if (task == null) {
                        break; // another thread emptied the stack
                    }
                } else {
                    runOrShed(task);
                }
                task = queue.poll();
            } while (task != null || lifoSize != 0);
            ctl.addAndGet(1 - ONE_RUNNING);
        }
    }

    /**
     * Whether the newest task is to be served first: the queue stands, and its oldest task ({@code head}) waited
     * half the interval. A queue that stands by CoDel's measure but is worked off well within the interval is a deep
     * closed loop of patient callers (a benchmark's async calls): taking the newest first there would leave its
     * oldest calls waiting until they are shed, so it stays first in, first out.
     */
    private boolean lifoDue(Task head) {
        // standing() first: an ordinary queue pays no clock read here (runOrShed reads it once).
        return sojournLimit.standing() && sojournLimit.newestFirst(System.nanoTime() - head.queuedNanos());
    }

    /**
     * Adaptive LIFO: moves {@code polled} (taken off the queue; may be {@code null}) and everything still queued onto
     * the stack, and runs one task of it. While {@linkplain #lifoDue LIFO is due} that is the newest, whose caller is
     * the likeliest to be still waiting, run whatever it waited (so the pool keeps serving at its capacity even when
     * every task waited beyond the limit), and the oldest ones that waited beyond the limit are shed; else it is the
     * oldest, as the limit says. Returns {@code null} when the stack was empty, else a task that ran or was shed.
     */
    private Task fromStack(Task polled, List<Task> toShed) {
        Task pick;
        boolean newestFirst;
        long now;
        synchronized (lifo) {
            if (polled != null) {
                lifo.addLast(polled);
            }
            Task next;
            while ((next = queue.poll()) != null) {
                lifo.addLast(next);
            }
            now = System.nanoTime();
            Task bottom = lifo.peekFirst();
            newestFirst = bottom != null && sojournLimit.newestFirst(now - bottom.queuedNanos());
            if (newestFirst) {
                // The queue is judged by the wait of its oldest task, whichever task runs.
                sojournLimit.oldestWaited(now - bottom.queuedNanos(), now);
                Task oldest;
                while (lifo.size() > 1 && (oldest = lifo.peekFirst()) != null
                        && (sojournLimit.exceeds(now - oldest.queuedNanos()) || lifo.size() > queueCapacity)) {
                    toShed.add(lifo.pollFirst());
                }
                pick = lifo.pollLast();
            } else {
                pick = lifo.pollFirst();
            }
            Task oldest = lifo.peekFirst();
            if (oldest != null) {
                lifoOldestQueuedNanos = oldest.queuedNanos();
            }
            lifoSize = lifo.size();
        }
        for (int i = 0; i < toShed.size(); i++) {
            Task task = toShed.get(i);
            shed(task, now - task.queuedNanos(), sojournLimit.intervalNanos());
        }
        toShed.clear();
        if (pick != null) {
            if (newestFirst) {
                run(pick); // whatever it waited: the pool never sheds all it holds and idles meanwhile
            } else {
                runOrShed(pick);
            }
        }
        return pick;
    }

    private static void shed(Task task, long waited, long limit) {
        Thread.interrupted();
        try {
            task.shed(waited, limit);
        } catch (Throwable t) {
            log.warn("shedding a task of {} threw", Thread.currentThread().getName(), t);
        }
    }

    /** Runs a task taken from the queue, or sheds it if it waited longer than the sojourn limit allows. */
    private void runOrShed(Task task) {
        SojournLimit limit = sojournLimit;
        if (limit != null) {
            long now = System.nanoTime();
            long waited = now - task.queuedNanos();
            long broken = limit.limitBroken(waited, now);
            if (broken != 0) {
                shed(task, waited, broken);
                return;
            }
        }
        run(task);
    }

    private static void run(Task task) {
        // A task may leave its thread interrupted (shutdownNow, or its own doing): the next task starts clean.
        Thread.interrupted();
        try {
            task.run();
        } catch (Throwable t) {
            log.warn("a task of {} threw", Thread.currentThread().getName(), t);
        }
    }

    /** A task was left queued with no worker looking for it: the watchdog must be awake to see it wait too long. */
    private void watchForStalls() {
        if (watchdogParked) {
            LockSupport.unpark(watchdog);
        }
    }

    /**
     * Wakes one more worker whenever a task waited too long with no worker looking for it. Looks every
     * {@code stallNanos} after it found something to do, less and less often while it finds nothing; sleeps for good
     * once the pool stayed idle for a look, until a task is left queued with no worker looking for it.
     */
    private void watch() {
        long sleep = stallNanos;
        boolean idleAtLastLook = false;
        while (!shutdown || live.get() > 0) {
            if (idleAtLastLook && !shutdown) {
                watchdogParked = true;
                // Re-read after publishing the flag: a task left waiting since either sees the flag or is seen here.
                if (running(ctl.get()) == 0 && !hasQueued() && !shutdown) {
                    LockSupport.park(this);
                }
                watchdogParked = false;
                sleep = stallNanos;
            }
            LockSupport.parkNanos(this, sleep);
            if (searching(ctl.get()) == 0 && waitedTooLong(System.nanoTime()) && wakeOne(true)) {
                stallWakeUps.incrementAndGet();
                sleep = stallNanos;
            } else {
                // Every wake-up of this thread is a context switch: look less often while there is nothing to do.
                sleep = Math.min(sleep * 2, stallNanos * MAX_WATCH_BACKOFF);
            }
            idleAtLastLook = running(ctl.get()) == 0 && !hasQueued();
        }
    }

    /**
     * Keeps looking at the queue for up to {@code nanos}, still counted as searching (so submitters wake nobody);
     * returns whether a task (or shutdown) came meanwhile. Only one thread spins at a time; the others park.
     */
    private boolean spinFor(long nanos) {
        if (!spinning.compareAndSet(0, 1)) {
            return false;
        }
        try {
            long deadline = System.nanoTime() + nanos;
            do {
                if (hasQueued() || shutdown) {
                    return true;
                }
                Thread.onSpinWait();
            } while (System.nanoTime() - deadline < 0);
            return false;
        } finally {
            spinning.set(0);
        }
    }

    /** One pool thread's parking state. */
    private final class Worker {

        private static final AtomicIntegerFieldUpdater<Worker> STATE =
                AtomicIntegerFieldUpdater.newUpdater(Worker.class, "state");

        Thread thread;
        volatile int state = SEARCHING;
        /** The tasks {@link #fromStack} sheds, gathered under the stack's lock and shed after it. */
        final List<Task> shed = sojournLimit == null ? null : new ArrayList<>();

        /** Wakes this worker if it is parked, counting it as searching; returns whether it did. */
        boolean wake() {
            if (state != PARKED) {
                return false;
            }
            ctl.incrementAndGet();
            if (STATE.compareAndSet(this, PARKED, WOKEN)) {
                LockSupport.unpark(thread);
                return true;
            }
            ctl.decrementAndGet();
            return false;
        }

        /**
         * Called by the worker's own thread when the queue looked empty: parks until woken. Returns {@code false}
         * when the worker should end (the pool is shut down and nothing is queued).
         */
        boolean idle() {
            if (shutdown && !hasQueued()) {
                ctl.decrementAndGet();
                return false;
            }
            if (spinNanos > 0 && spinFor(spinNanos)) {
                return true;
            }
            state = PARKED;
            ctl.decrementAndGet();
            // A task queued after our last poll may have seen us searching and woken nobody: look once more.
            if (hasQueued() || shutdown) {
                ctl.incrementAndGet();
                if (STATE.compareAndSet(this, PARKED, SEARCHING)) {
                    return true;
                }
                // A submitter woke us first and counted us itself.
                ctl.decrementAndGet();
            }
            while (state == PARKED) {
                LockSupport.park(WorkerPool.this);
                // A task that left its thread interrupted would make every park return at once: a spinning thread.
                Thread.interrupted();
            }
            state = SEARCHING;
            return true;
        }
    }
}
