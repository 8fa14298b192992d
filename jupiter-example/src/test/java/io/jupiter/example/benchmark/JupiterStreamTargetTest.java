package io.jupiter.example.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.LoadResult;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.StreamDriver;
import io.jupiter.benchmark.driver.StreamListener;
import io.jupiter.benchmark.driver.TargetClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The driver's stream load against our target on 127.0.0.1, in this JVM: server streams of {@link
 * BenchmarkStreamService} and subscribers of its topic receive messages with their send time, client streams send
 * them to the provider, and none fails. No
 * performance is asserted.
 */
class JupiterStreamTargetTest {

    @Test
    void streamsDeliverMessagesWithTheirSendTime() throws Exception {
        JupiterTarget target = new JupiterTarget();
        int port = freePort();
        try (AutoCloseable server = target.startServer(new ServerSettings("127.0.0.1", port, 2, false));
             TargetClient client = target.connect(new ClientSettings("127.0.0.1", port, "hello", "jupiter",
                     "protostuff", 2, 2, false))) {
            LoadResult result = new StreamDriver(client, 4).run(1, 1, System.out);

            assertThat(result.failures()).as(String.valueOf(result.firstFailure())).isZero();
            assertThat(result.count()).isPositive();
            // The provider's send time came through: a delivery latency was measured for the messages.
            assertThat(result.maxMicros()).isPositive();
            assertThat(result.p50Micros()).isLessThanOrEqualTo(result.p99Micros());
        }
    }

    @Test
    void topicSubscribersReceiveThePublishedTicks() throws Exception {
        JupiterTarget target = new JupiterTarget();
        int port = freePort();
        try (AutoCloseable server = target.startServer(new ServerSettings("127.0.0.1", port, 2, false));
             TargetClient client = target.connect(new ClientSettings("127.0.0.1", port, "hello", "jupiter",
                     "protostuff", 2, 2, false))) {
            // 50 subscribers: 200 publishes a second, 10,000 deliveries a second in all.
            LoadResult result = StreamDriver.fanOut(client, 50).run(1, 1, System.out);

            assertThat(result.failures()).as(String.valueOf(result.firstFailure())).isZero();
            assertThat(result.count()).isPositive();
            assertThat(result.maxMicros()).isPositive();
        }
    }

    @Test
    void uploadsSendTicksThatTheProviderReadsAndCounts() throws Exception {
        JupiterTarget target = new JupiterTarget();
        int port = freePort();
        try (AutoCloseable server = target.startServer(new ServerSettings("127.0.0.1", port, 2, false));
             TargetClient client = target.connect(new ClientSettings("127.0.0.1", port, "hello", "jupiter",
                     "protostuff", 2, 2, false))) {
            LoadResult result = StreamDriver.upload(client, 2).run(1, 1, System.out);
            assertThat(result.failures()).as(String.valueOf(result.firstFailure())).isZero();
            assertThat(result.count()).isPositive();

            // Closing one upload completes its stream, and the provider's answer ends it without an error.
            UploadEnd upload = new UploadEnd(1_000);
            AutoCloseable stream = client.openUpload(upload);
            upload.sent.get(20, TimeUnit.SECONDS);
            stream.close();
            assertThat(upload.ended.get(20, TimeUnit.SECONDS)).as("the stream's error").isNull();
        }
    }

    @Test
    void echoesSendTicksBackWithTheirSendTime() throws Exception {
        JupiterTarget target = new JupiterTarget();
        int port = freePort();
        try (AutoCloseable server = target.startServer(new ServerSettings("127.0.0.1", port, 2, false));
             TargetClient client = target.connect(new ClientSettings("127.0.0.1", port, "hello", "jupiter",
                     "protostuff", 2, 2, false))) {
            LoadResult result = StreamDriver.echo(client, 2).run(1, 1, System.out);
            assertThat(result.failures()).as(String.valueOf(result.firstFailure())).isZero();
            assertThat(result.count()).isPositive();
            assertThat(result.maxMicros()).as("each echo's round trip").isPositive();

            // 1,000 echoes arrive, each with the send time the client gave its tick; closing cancels the stream.
            UploadEnd echo = new UploadEnd(1_000);
            long opened = System.nanoTime();
            AutoCloseable stream = client.openEcho(echo);
            echo.sent.get(20, TimeUnit.SECONDS);
            stream.close();
            assertThat(echo.firstSentNanos.get()).isGreaterThanOrEqualTo(opened);
        }
    }

    /**
     * One stream's listener: {@code sent} completes after {@code wanted} messages, {@code ended} with its end;
     * {@code firstSentNanos} is the send time the first message carried.
     */
    private static final class UploadEnd implements StreamListener {
        final CompletableFuture<Void> sent = new CompletableFuture<>();
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();
        final AtomicLong firstSentNanos = new AtomicLong(-1);
        private final AtomicInteger count = new AtomicInteger();
        private final int wanted;

        UploadEnd(int wanted) {
            this.wanted = wanted;
        }

        @Override
        public void onMessage(long sentNanos) {
            firstSentNanos.compareAndSet(-1, sentNanos);
            if (count.incrementAndGet() == wanted) {
                sent.complete(null);
            }
        }

        @Override
        public void onEnd(Throwable error) {
            ended.complete(error);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
