package io.jupiter.rpc.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.EchoServiceImpl;
import io.jupiter.rpc.JupiterServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #38 (settings per server): the quiet period of a graceful shutdown is each server's own
 * ({@code JupiterServer.Builder.shutdownQuietMillis}), not the JVM-wide property read at every shutdown. Two
 * published servers in one JVM that no consumer calls shut down: the one with 3 s of quiet waits those 3 s before
 * it closes, the one with none closes sooner.
 */
@Timeout(120)
class PerServerShutdownQuietTest {

    private static final long QUIET_MILLIS = 3_000;

    @Test
    void twoServersInOneJvmWaitEachTheirOwnQuietPeriod() throws Exception {
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            String url = "default://127.0.0.1:" + registry.start().getPort();
            JupiterServer patient = published(url, QUIET_MILLIS);
            JupiterServer brisk = published(url, 0);

            long patientMillis = millisToShutDown(patient);
            long briskMillis = millisToShutDown(brisk);
            System.out.printf("PerServerShutdownQuietTest: graceful shutdown with %d ms of quiet took %d ms, with"
                    + " none %d ms%n", QUIET_MILLIS, patientMillis, briskMillis);
            assertThat(patientMillis).as("waited its own quiet period").isGreaterThanOrEqualTo(QUIET_MILLIS);
            assertThat(briskMillis).as("did not wait the other server's").isLessThan(patientMillis);
        }
    }

    private static JupiterServer published(String registryUrl, long quietMillis) throws InterruptedException {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).registry(registryUrl)
                .shutdownQuietMillis(quietMillis).build();
        server.register(new EchoServiceImpl());
        server.start();
        assertThat(server.awaitPublished(30_000)).as("published").isTrue();
        return server;
    }

    private static long millisToShutDown(JupiterServer server) {
        long start = System.nanoTime();
        assertThat(server.shutdownGracefully(60_000)).isTrue();
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}
