package io.jupiter.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkerPoolTest {

    private static final long NO_STALL = TimeUnit.SECONDS.toNanos(30);

    private final List<WorkerPool> pools = new ArrayList<>();

    @AfterEach
    void shutDownPools() throws InterruptedException {
        for (WorkerPool pool : pools) {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("pool threads ended").isTrue();
        }
        assertThat(poolThreadsAlive()).as("threads of test pools after shutdown").isZero();
    }

    private WorkerPool pool(int threads, int queueCapacity, int parallelism, long stallNanos) {
        return pool(threads, queueCapacity, parallelism, stallNanos, 0);
    }

    private WorkerPool pool(int threads, int queueCapacity, int parallelism, long stallNanos, long spinNanos) {
        WorkerPool pool = new WorkerPool("test-pool", threads, queueCapacity, parallelism, stallNanos, spinNanos);
        pools.add(pool);
        return pool;
    }

    private static WorkerPool.Task task(Runnable body) {
        long queued = System.nanoTime();
        return new WorkerPool.Task() {
            @Override
            public long queuedNanos() {
                return queued;
            }

            @Override
            public void run() {
                body.run();
            }
        };
    }

    private static long poolThreadsAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("test-pool") && t.isAlive()).count();
    }

    @Test
    void aTaskThatFindsAThreadSpinningIsRunWithoutAWakeUp() throws InterruptedException {
        // A spin far longer than the test: the thread that ran the first task is still looking when the second comes.
        WorkerPool pool = pool(4, 1024, 1, NO_STALL, TimeUnit.SECONDS.toNanos(30));
        CountDownLatch first = new CountDownLatch(1);
        pool.execute(task(first::countDown));
        assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
        Await.until("the thread finished the first task", Duration.ofSeconds(10), () -> pool.activeCount() == 0);
        assertThat(pool.wakeUps()).isEqualTo(1);

        CountDownLatch second = new CountDownLatch(1);
        pool.execute(task(second::countDown));
        assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.wakeUps()).as("the spinning thread took it; nobody was woken").isEqualTo(1);
        assertThat(pool.startedThreads()).isEqualTo(1);
    }

    @Test
    void runsEveryTaskOnceUnderConcurrentSubmitters() throws InterruptedException {
        WorkerPool pool = pool(4, 1 << 16, 2, TimeUnit.MILLISECONDS.toNanos(1));
        int submitters = 4;
        int perSubmitter = 10_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * perSubmitter);
        CountDownLatch done = new CountDownLatch(submitters * perSubmitter);
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < submitters; s++) {
            int base = s * perSubmitter;
            Thread submitter = new Thread(() -> {
                for (int i = 0; i < perSubmitter; i++) {
                    int index = base + i;
                    pool.execute(task(() -> {
                        runs.incrementAndGet(index);
                        done.countDown();
                    }));
                }
            });
            threads.add(submitter);
            submitter.start();
        }
        for (Thread submitter : threads) {
            submitter.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all tasks ran").isTrue();
        for (int i = 0; i < runs.length(); i++) {
            assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(1);
        }
        assertThat(pool.startedThreads()).isBetween(1, 4);
    }

    @Test
    void aBurstOfShortTasksIsServedByOneThreadWhenParallelismIsOne() throws InterruptedException {
        WorkerPool pool = pool(8, 4096, 1, NO_STALL);
        int tasks = 1_000;
        CountDownLatch done = new CountDownLatch(tasks);
        for (int i = 0; i < tasks; i++) {
            pool.execute(task(done::countDown));
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        // A thread pool that wakes a thread per queued task would have started all eight.
        assertThat(pool.startedThreads()).isEqualTo(1);
        assertThat(pool.stallWakeUps()).isZero();
    }

    @Test
    void aTaskQueuedBehindABlockedThreadWakesAnotherAfterTheStallTime() throws InterruptedException {
        WorkerPool pool = pool(4, 1024, 1, TimeUnit.MILLISECONDS.toNanos(5));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch quickDone = new CountDownLatch(1);
        block(pool, release);
        // The one running thread is blocked and nothing else arrives: only the watchdog can help this task.
        pool.execute(task(quickDone::countDown));
        try {
            assertThat(quickDone.await(10, TimeUnit.SECONDS)).as("task behind the blocked one ran").isTrue();
            assertThat(pool.stallWakeUps()).isGreaterThanOrEqualTo(1);
            assertThat(pool.startedThreads()).isEqualTo(2);
        } finally {
            release.countDown();
        }
    }

    @Test
    void blockingTasksGetEveryThread() throws InterruptedException {
        WorkerPool pool = pool(4, 1024, 1, TimeUnit.MILLISECONDS.toNanos(2));
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger blocked = new AtomicInteger();
        for (int i = 0; i < 8; i++) {
            pool.execute(task(() -> {
                blocked.incrementAndGet();
                awaitQuietly(release);
            }));
        }
        try {
            Await.until("all four threads blocked in a task", Duration.ofSeconds(10), () -> blocked.get() == 4);
            assertThat(pool.activeCount()).isEqualTo(4);
            assertThat(pool.queuedCount()).isEqualTo(4);
        } finally {
            release.countDown();
        }
        Await.until("all eight tasks ran", Duration.ofSeconds(10), () -> blocked.get() == 8);
    }

    /**
     * Ten times more offered than one thread serves, for 1.5 s: once the queue stands, the thread runs the newest
     * task, however deep the queue (here thousands, far more than a thread could look through), and the oldest are
     * shed; every task either runs or is shed.
     */
    @Test
    void whileTheQueueStandsTheNewestRunsHoweverDeepTheQueueAndTheOldestAreShed() {
        SojournLimit limit = new SojournLimit(TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(200));
        WorkerPool pool = new WorkerPool("test-pool", 1, 20_000, 1, NO_STALL, 0, limit);
        pools.add(pool);
        List<Long> waitsWhileStanding = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger shed = new AtomicInteger();
        int submitted = 0;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
        while (System.nanoTime() - end < 0 && submitted < 20_000) {
            for (int i = 0; i < 10; i++) {
                long queued = System.nanoTime();
                pool.execute(new WorkerPool.Task() {
                    @Override
                    public long queuedNanos() {
                        return queued;
                    }

                    @Override
                    public void run() {
                        if (limit.standing()) {
                            waitsWhileStanding.add(System.nanoTime() - queued);
                        }
                        ran.incrementAndGet();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }

                    @Override
                    public void shed(long waitedNanos, long limitNanos) {
                        assertThat(waitedNanos).isGreaterThan(limitNanos);
                        shed.incrementAndGet();
                    }
                });
                submitted++;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        int offered = submitted;
        Await.until("every task ran or was shed", Duration.ofSeconds(30), () -> ran.get() + shed.get() == offered);
        assertThat(shed.get()).as("tasks shed").isPositive();
        assertThat(waitsWhileStanding).as("tasks run while the queue stood").hasSizeGreaterThan(20);
        List<Long> waits = new ArrayList<>(waitsWhileStanding);
        Collections.sort(waits);
        // The newest of thousands waited a moment; a pool that looked only at the oldest few hundred would have run
        // tasks that waited most of the 200 ms limit.
        assertThat(TimeUnit.NANOSECONDS.toMillis(waits.get(waits.size() / 2))).as("median wait of those run, ms")
                .isLessThan(50);
    }

    @Test
    void aFullQueueRefusesAtOnce() throws InterruptedException {
        WorkerPool pool = pool(1, 4, 1, NO_STALL);
        CountDownLatch release = new CountDownLatch(1);
        block(pool, release);
        AtomicInteger ran = new AtomicInteger();
        int accepted = 0;
        try {
            while (accepted < 100) {
                pool.execute(task(ran::incrementAndGet));
                accepted++;
            }
        } catch (RejectedExecutionException e) {
            assertThat(e).hasMessageContaining("test-pool").hasMessageContaining("queue full");
        }
        assertThat(accepted).isEqualTo(4);
        release.countDown();
        Await.until("the queued tasks ran", Duration.ofSeconds(10), () -> ran.get() == 4);
    }

    @Test
    void aTaskThatThrowsDoesNotCostTheThread() throws InterruptedException {
        WorkerPool pool = pool(1, 16, 1, NO_STALL);
        CountDownLatch after = new CountDownLatch(1);
        pool.execute(task(() -> {
            throw new IllegalStateException("thrown on purpose by a test task");
        }));
        pool.execute(task(after::countDown));
        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.startedThreads()).isEqualTo(1);
    }

    @Test
    void aTaskThatLeavesItsThreadInterruptedDoesNotMakeItSpin() throws InterruptedException {
        WorkerPool pool = pool(1, 16, 1, NO_STALL);
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(task(() -> {
            Thread.currentThread().interrupt();
            done.countDown();
        }));
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        Thread worker = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("test-pool-1")).findFirst().orElseThrow();
        // Parked (WAITING), not spinning through park calls that return at once (RUNNABLE).
        Await.until("the worker parked", Duration.ofSeconds(10), () -> worker.getState() == Thread.State.WAITING);
        assertThat(Await.holdsFor(Duration.ofMillis(100), () -> worker.getState() == Thread.State.WAITING)).isTrue();
        CountDownLatch next = new CountDownLatch(1);
        pool.execute(task(next::countDown));
        assertThat(next.await(10, TimeUnit.SECONDS)).as("the worker still serves").isTrue();
    }

    @Test
    void shutdownRunsWhatIsQueuedThenEndsEveryThread() throws InterruptedException {
        WorkerPool pool = pool(2, 1024, 2, TimeUnit.MILLISECONDS.toNanos(1));
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 500; i++) {
            pool.execute(task(ran::incrementAndGet));
        }
        pool.shutdown();
        assertThatThrownBy(() -> pool.execute(task(ran::incrementAndGet)))
                .isInstanceOf(RejectedExecutionException.class).hasMessageContaining("shut down");
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ran.get()).isEqualTo(500);
        assertThat(poolThreadsAlive()).isZero();
    }

    @Test
    void shutdownNowInterruptsRunningTasksAndHandsBackQueuedOnes() throws InterruptedException {
        WorkerPool pool = pool(1, 64, 1, NO_STALL);
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        pool.execute(task(() -> {
            running.countDown();
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        }));
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            pool.execute(task(ran::incrementAndGet));
        }
        List<WorkerPool.Task> left = pool.shutdownNow();
        assertThat(left).hasSize(3);
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted).isTrue();
        assertThat(ran.get()).isZero();
    }

    @Test
    void anIdlePoolSleeps() throws InterruptedException {
        WorkerPool pool = pool(4, 64, 2, TimeUnit.MILLISECONDS.toNanos(1));
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(task(done::countDown));
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        Await.until("the worker parked", Duration.ofSeconds(10), () -> pool.activeCount() == 0);
        long wakeUps = pool.wakeUps();
        // Nothing to do: no thread is woken, however long we look.
        assertThat(Await.holdsFor(Duration.ofMillis(200), () -> pool.wakeUps() == wakeUps)).isTrue();
    }

    /** Queues a task that holds its thread until {@code release}; returns once it runs. */
    private static void block(WorkerPool pool, CountDownLatch release) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        pool.execute(task(() -> {
            running.countDown();
            awaitQuietly(release);
        }));
        assertThat(running.await(10, TimeUnit.SECONDS)).as("the blocking task runs").isTrue();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
