package io.jupiter.benchmark.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.LoadDriver;
import io.jupiter.benchmark.driver.LoadResult;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.StreamDriver;
import io.jupiter.benchmark.driver.TargetClient;
import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * The gRPC-java target under the driver's loads on 127.0.0.1, in this JVM: server streams deliver ticks with their
 * send time, client streams send them, and the unary hello answers sync and async. No performance is asserted.
 */
class GrpcTargetTest {

    @Test
    void streamsDeliverTicksAndHelloAnswers() throws Exception {
        GrpcTarget target = new GrpcTarget();
        int port = freePort();
        try (AutoCloseable server = target.startServer(new ServerSettings("127.0.0.1", port, 2, false));
             TargetClient client = target.connect(new ClientSettings("127.0.0.1", port, "hello", "jupiter",
                     "protostuff", 2, 2, false))) {
            // gRPC's first streams take a second or two to reach speed in a cold JVM: a longer warm-up.
            LoadResult streams = new StreamDriver(client, 4).run(3, 1, System.out);
            assertThat(streams.failures()).as(String.valueOf(streams.firstFailure())).isZero();
            assertThat(streams.count()).isPositive();
            assertThat(streams.maxMicros()).isPositive();

            LoadResult uploads = StreamDriver.upload(client, 2).run(1, 1, System.out);
            assertThat(uploads.failures()).as(String.valueOf(uploads.firstFailure())).isZero();
            assertThat(uploads.count()).isPositive();

            LoadResult echoes = StreamDriver.echo(client, 2).run(1, 1, System.out);
            assertThat(echoes.failures()).as(String.valueOf(echoes.firstFailure())).isZero();
            assertThat(echoes.count()).isPositive();
            assertThat(echoes.maxMicros()).as("each echo's round trip").isPositive();

            LoadResult sync = new LoadDriver(client, false, 2, 0, null).run(0, 1, System.out);
            LoadResult async = new LoadDriver(client, true, 1, 0, null).run(0, 1, System.out);
            assertThat(sync.failures()).as(String.valueOf(sync.firstFailure())).isZero();
            assertThat(async.failures()).as(String.valueOf(async.firstFailure())).isZero();
            assertThat(sync.count()).isPositive();
            assertThat(async.count()).isPositive();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
