package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Closing a server and a client returns every thread they started. */
class LifecycleTest {

    @Test
    void closeLeavesNoJupiterThreads() throws Exception {
        for (int round = 0; round < 3; round++) {
            JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
            server.register(new EchoServiceImpl());
            int port = server.start().getPort();
            JupiterClient client = JupiterClient.builder().build();
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).build();
            assertThat(echo.hello("round " + round)).isEqualTo("hello, round " + round);
            echo.helloLater("x").get(10, TimeUnit.SECONDS);
            client.close();
            server.close();
        }
        assertThat(awaitNoThreads("jupiter-", 10_000)).isEmpty();
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
