package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Starting and stopping a server and a client many times in one JVM returns threads, event loops, ports and file
 * descriptors to where they were.
 */
class LifecycleTest {

    private static final int ROUNDS = 50;

    @Test
    void fiftyStartStopCyclesLeaveNothingBehind() throws Exception {
        // One warm-up round loads classes and the native transport, which stay by design.
        cycle(0);
        assertThat(awaitNoThreads("jupiter-", 30_000)).isEmpty();
        long baselineFds = openFileDescriptors();
        Set<Thread> baselineThreads = liveThreadsOfThisGroup();

        int lastPort = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            lastPort = cycle(round);
        }

        assertThat(awaitNoThreads("jupiter-", 30_000)).as("threads left by Jupiter").isEmpty();
        assertThat(awaitFileDescriptorsAtMost(baselineFds, 30_000)).as("open file descriptors (baseline %d)",
                baselineFds).isLessThanOrEqualTo(baselineFds);
        // The threads started since the baseline (this test's, whatever their name) must all end: a thread left per
        // cycle would leave 50. Awaited rather than counted at once, since the last cycle's helper threads (the
        // service's helloLater runs on a thread of its own) complete their futures before they end, and on a loaded
        // machine may not have ended yet; and compared by identity, not by a count of the group, which other tests'
        // threads ending or starting in the same JVM would move.
        assertThat(awaitNoThreadsBeyond(baselineThreads, 30_000)).as("threads started since the baseline and still "
                + "alive").isEmpty();
        try (ServerSocket again = new ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(new InetSocketAddress("127.0.0.1", lastPort));
            assertThat(again.isBound()).as("the last server's port is free again").isTrue();
        }
    }

    private static int cycle(int round) throws Exception {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(new EchoServiceImpl());
        int port = server.start().getPort();
        JupiterClient client = JupiterClient.builder().build();
        try {
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).connections(2).build();
            assertThat(echo.hello("round " + round)).isEqualTo("hello, round " + round);
            assertThat(echo.helloLater("x").get(10, TimeUnit.SECONDS)).isEqualTo("later, x");
        } finally {
            client.close();
            server.close();
        }
        return port;
    }

    private static long openFileDescriptors() {
        return ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getOpenFileDescriptorCount();
    }

    private static long awaitFileDescriptorsAtMost(long limit, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        long open;
        while ((open = openFileDescriptors()) > limit && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return open;
    }

    /** The live threads of this thread's group and its subgroups (what {@code Thread.activeCount} estimates). */
    private static Set<Thread> liveThreadsOfThisGroup() {
        Thread[] threads = new Thread[Thread.activeCount() + 64];
        int n = Thread.currentThread().getThreadGroup().enumerate(threads, true);
        Set<Thread> live = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < n; i++) {
            if (threads[i].isAlive()) {
                live.add(threads[i]);
            }
        }
        return live;
    }

    /** Waits until every live thread of this group was in {@code baseline}; returns the others at the deadline. */
    private static List<String> awaitNoThreadsBeyond(Set<Thread> baseline, long timeoutMillis)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        List<String> extra;
        do {
            extra = liveThreadsOfThisGroup().stream().filter(t -> !baseline.contains(t)).map(Thread::getName)
                    .sorted().toList();
            if (extra.isEmpty()) {
                return extra;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        } while (System.nanoTime() < deadline);
        return extra;
    }

    /** Waits until no live thread's name starts with {@code prefix}; returns the names still alive at the deadline. */
    static List<String> awaitNoThreads(String prefix, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        List<String> alive;
        do {
            alive = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                    .map(Thread::getName).filter(n -> n.startsWith(prefix)).sorted().toList();
            if (alive.isEmpty()) {
                return alive;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        } while (System.nanoTime() < deadline);
        return alive;
    }
}
