package io.jupiter.rpc.overload;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.netty.util.ResourceLeakDetector;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provider queue's rule is each server's own (issue #38's settings item): two servers in one JVM, each with one
 * provider thread and a method of 20 ms, offered about eight times what that thread serves for 2 s. The one built
 * with {@code queueTargetMillis(0)} (1.3.1's queue) sheds nothing; the one with {@code queueIntervalMillis(100)} sheds
 * what waited beyond 100 ms with SERVER_BUSY. Assertions are on counts.
 */
class PerServerQueueRuleTest {

    private static ResourceLeakDetector.Level level;

    /** At {@code paranoid} the consumer alone would be too slow to overload anything (as in BackPressureTest). */
    @BeforeAll
    static void sampleLeaks() {
        level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
    }

    @AfterAll
    static void restoreLeakLevel() {
        ResourceLeakDetector.setLevel(level);
    }

    @Test
    void twoServersInOneJvmKeepEachTheirOwnQueueRule() throws Exception {
        SlowService.Impl neverSheds = new SlowService.Impl();
        SlowService.Impl shedsAt100Ms = new SlowService.Impl();
        try (JupiterServer plain = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1)
                .queueTargetMillis(0).build();
             JupiterServer strict = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1)
                     .queueIntervalMillis(100).build();
             JupiterClient client = JupiterClient.builder().build()) {
            plain.register(neverSheds);
            strict.register(shedsAt100Ms);
            int plainPort = plain.start().getPort();
            int strictPort = strict.start().getPort();

            long plainBusy = busy(client, plainPort);
            long strictBusy = busy(client, strictPort);

            assertThat(plainBusy).as("SERVER_BUSY from the server whose queue never stands").isZero();
            assertThat(strictBusy).as("SERVER_BUSY from the server that sheds beyond 100 ms").isPositive();
            assertThat(neverSheds.executed.sum()).as("calls the plain server ran").isPositive();
        }
    }

    /** Offers 400 calls a second for 2 s (a thread serves 50), a 3 s timeout; returns how many were shed. */
    private static long busy(JupiterClient client, int port) throws Exception {
        SlowService async = client.proxy(SlowService.class).address("127.0.0.1", port)
                .invokeType(InvokeType.ASYNC).timeoutMillis(3000).build();
        List<OpenLoad.Second> seconds = OpenLoad.run(async, 3000, 20, List.of(new OpenLoad.Step(400, 2)), null,
                null);
        return seconds.stream().mapToLong(s -> s.busy).sum();
    }
}
