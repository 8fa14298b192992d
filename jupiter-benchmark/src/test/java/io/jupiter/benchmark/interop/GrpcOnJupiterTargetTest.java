package io.jupiter.benchmark.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.LoadDriver;
import io.jupiter.benchmark.driver.LoadResult;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.StreamDriver;
import io.jupiter.benchmark.driver.TargetClient;
import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The target {@code grpc-on-jupiter} under the driver's loads on 127.0.0.1, in this JVM: gRPC-java's client (the
 * gRPC target's) gets its hello answered sync and async by a Jupiter provider, and its server streams deliver ticks
 * with their send time, with the provider's methods on its pool and on its IO threads. No performance is asserted.
 */
class GrpcOnJupiterTargetTest {

    @ParameterizedTest(name = "direct {0}")
    @ValueSource(booleans = {true, false})
    void gRpcJavasClientIsAnsweredByAJupiterProvider(boolean direct) throws Exception {
        GrpcOnJupiterTarget target = new GrpcOnJupiterTarget();
        int port = freePort();
        try (AutoCloseable server = target.startServer(new ServerSettings("127.0.0.1", port, 2, direct));
             TargetClient client = target.connect(new ClientSettings("127.0.0.1", port, "hello", "jupiter",
                     "protostuff", 2, 2, direct))) {
            awaitFirstAnswer(client);
            for (boolean async : new boolean[] {false, true}) {
                LoadResult calls = answered(() -> new LoadDriver(client, async, 2, 0, null).run(1, 1, System.out));
                assertThat(calls.failures()).as("async " + async + ": " + calls.firstFailure()).isZero();
                assertThat(calls.count()).as("async " + async).isPositive();
            }

            LoadResult streams = answered(() -> new StreamDriver(client, 2).run(1, 1, System.out));
            assertThat(streams.failures()).as(String.valueOf(streams.firstFailure())).isZero();
            assertThat(streams.count()).isPositive();
            assertThat(streams.maxMicros()).isPositive();

            LoadResult uploads = answered(() -> StreamDriver.upload(client, 2).run(1, 1, System.out));
            assertThat(uploads.failures()).as(String.valueOf(uploads.firstFailure())).isZero();
            assertThat(uploads.count()).isPositive();

            LoadResult echoes = answered(() -> StreamDriver.echo(client, 2).run(1, 1, System.out));
            assertThat(echoes.failures()).as(String.valueOf(echoes.firstFailure())).isZero();
            assertThat(echoes.count()).isPositive();
            assertThat(echoes.maxMicros()).as("each echo's round trip").isPositive();
        }
    }

    /** One run of a load (a second of warm-up, a second counted). */
    private interface Load {
        LoadResult run() throws Exception;
    }

    /**
     * {@code load}, again (at most 5 times) while it counted nothing and nothing failed: on a loaded 2-core machine
     * the first async batch of a cold JVM (80 calls a thread, counted once all are answered) once took longer than a
     * whole second, and so did the first echoes of the provider's pool. A run that failed is returned, so a failure
     * is never retried away.
     */
    private static LoadResult answered(Load load) throws Exception {
        LoadResult result = null;
        for (int attempt = 0; attempt < 5 && (result == null || result.count() == 0 && result.failures() == 0);
             attempt++) {
            result = load.run();
        }
        return result;
    }

    /**
     * A cold JVM on the busy 2-core machine took more than the client's 3 s deadline to open its connections (grpc-java
     * counts the connecting against the first calls' deadline): the load starts once a call was answered.
     */
    private static void awaitFirstAnswer(TargetClient client) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                client.call();
                return;
            } catch (RuntimeException e) {
                if (attempt == 10) {
                    throw e;
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
