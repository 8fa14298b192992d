package io.jupiter.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.transport.TransportConfig;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real Jupiter 1.3.1 consumer sits idle on its connection to our provider, whose acceptor closes connections that
 * read nothing for {@link #READER_IDLE_MILLIS}. With 1.3.1's writer idle at 1 s its heartbeats keep the connection
 * open; with its default (30 s) our provider closes it, which shows the idle time is long enough to matter.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LegacyHeartbeatTest {

    private static final long READER_IDLE_MILLIS = 2_500;
    /** About 2.4 reader-idle periods. */
    private static final long IDLE_MILLIS = 6_000;

    /** The remote address of each call to {@code str}, by its argument ("before" / "after" the idle time). */
    private final Map<String, SocketAddress> callers = new ConcurrentHashMap<>();
    private JupiterServer server;
    private LegacyJvm consumer;

    @AfterEach
    void stop() throws Exception {
        if (consumer != null) {
            consumer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void heartbeatsOf131KeepItsIdleConnectionOpen() throws Exception {
        startServer();
        consumer = LegacyJvm.start(List.of("-Djupiter.io.writer.idle.time.seconds=1"), "LegacyConsumer");
        ConnectionSampler sampler = new ConnectionSampler(server);
        Map<String, String> outcomes = idleScenario();
        List<Integer> counts = sampler.stop();

        assertThat(outcomes).containsEntry("beforeIdle", "VALUE before").containsEntry("afterIdle", "VALUE after");
        // the same connection (same 1.3.1 port) carried both calls: nothing reconnected
        assertThat(callers.get("after")).isNotNull().isEqualTo(callers.get("before"));
        // one connection came and went (closed by 1.3.1's shutdown at the end): never dropped in between
        assertThat(counts).containsExactly(0, 1, 0);
    }

    @Test
    void withoutHeartbeatsOurProviderClosesThe131Connection() throws Exception {
        startServer();
        consumer = LegacyJvm.start("LegacyConsumer"); // 1.3.1's default writer idle: 30 s
        ConnectionSampler sampler = new ConnectionSampler(server);
        Map<String, String> outcomes = idleScenario();
        List<Integer> counts = sampler.stop();

        assertThat(outcomes).containsEntry("beforeIdle", "VALUE before");
        // closed by our reader-idle check while 1.3.1 was silent (1.3.1 may reconnect afterwards)
        assertThat(counts.subList(0, 3)).containsExactly(0, 1, 0);
        if (callers.containsKey("after")) {
            assertThat(callers.get("after")).isNotEqualTo(callers.get("before"));
        }
    }

    private void startServer() throws Exception {
        Interceptor recordCaller = new Interceptor() {
            @Override
            public void beforeInvoke(Invocation invocation) {
                if (invocation.methodName().equals("str")) {
                    callers.put(String.valueOf(invocation.args()[0]), invocation.remoteAddress());
                }
            }
        };
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().threadNamePrefix("compat-acceptor").writerIdleMillis(0)
                        .readerIdleMillis(READER_IDLE_MILLIS).build())
                .interceptor(recordCaller).build();
        server.register(new CompatServiceImpl());
        server.start();
    }

    /** One call, {@link #IDLE_MILLIS} of silence on the same 1.3.1 client, one more call; then 1.3.1 shuts down. */
    private Map<String, String> idleScenario() throws Exception {
        String command = "idle PROTO_STUFF " + server.localAddress().getPort() + " 1 " + IDLE_MILLIS;
        Map<String, String> outcomes = new HashMap<>();
        for (String line : consumer.command(command, 60)) {
            if (line.startsWith("case ")) {
                String[] parts = line.split(" ", 3);
                outcomes.put(parts[1], parts.length > 2 ? parts[2] : "");
            }
        }
        return outcomes;
    }

    /** Polls {@link JupiterServer#connectionCount()} every 5 ms and keeps each change. */
    private static final class ConnectionSampler {
        private final List<Integer> changes = new ArrayList<>();
        private final Thread thread;
        private volatile boolean running = true;

        ConnectionSampler(JupiterServer server) {
            changes.add(server.connectionCount());
            thread = new Thread(() -> {
                while (running) {
                    int count = server.connectionCount();
                    synchronized (changes) {
                        if (changes.get(changes.size() - 1) != count) {
                            changes.add(count);
                        }
                    }
                    try {
                        Thread.sleep(5); // the polling interval
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "compat-connection-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        /** Stops once the 1.3.1 side has closed its connections (or after 10 s) and returns the changes seen. */
        List<Integer> stop() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline) {
                synchronized (changes) {
                    if (changes.get(changes.size() - 1) == 0 && changes.size() > 1) {
                        break;
                    }
                }
                Thread.sleep(20);
            }
            running = false;
            thread.join(5_000);
            synchronized (changes) {
                return new ArrayList<>(changes);
            }
        }
    }
}
