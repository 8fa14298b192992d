package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A half-open link under an open stream (issue #28 with issue #26's fault proxy): the path to the provider stops
 * forwarding anything, with no FIN or RST. The consumer's keepalive finds the dead link and ends the stream with
 * CLIENT_ERROR within its timeout, instead of the reader waiting for ever; the provider's producer, blocked for
 * credit, stops once the close reaches it.
 */
@Timeout(60)
class StreamHalfOpenLinkTest {

    private static final long KEEPALIVE_MILLIS = 1_000;

    @Test
    void theReaderLearnsOfTheDeadLinkWithinTheKeepaliveAndTheProducerStopsWhenTheCloseArrives() throws Exception {
        TickServiceImpl impl = new TickServiceImpl();
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().pingMinIntervalMillis(50).build()).build();
        server.register(impl);
        server.start();
        try (server;
             FaultProxy proxy = FaultProxy.start(server.localAddress().getPort());
             JupiterClient client = JupiterClient.builder()
                     .transportConfig(TransportConfig.builder().keepaliveTimeoutMillis(KEEPALIVE_MILLIS).build())
                     .build()) {
            TickService ticks = client.proxy(TickService.class).address("127.0.0.1", proxy.port())
                    .connections(1).timeoutMillis(10_000).build();
            Recorder<Long> recorder = new Recorder<>(3);
            ticks.endless("WAIT", 4).subscribe(recorder);
            Await.until("3 messages", Duration.ofSeconds(10), () -> recorder.items.size() == 3);
            TickServiceImpl.Run run = impl.latest.get();

            long start = System.nanoTime();
            proxy.blackhole();
            assertThat(recorder.ended.await(KEEPALIVE_MILLIS + 3_000, TimeUnit.MILLISECONDS))
                    .as("the stream ended on the reader's side").isTrue();
            long endedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(endedMillis).isLessThanOrEqualTo(KEEPALIVE_MILLIS + 2_000);
            assertThat(recorder.error).isInstanceOfSatisfying(StreamException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR));
            assertThat(recorder.items).containsExactly(0L, 1L, 2L);

            // The provider cannot know while nothing passes; once the path heals, the close reaches it.
            assertThat(run.stopped.getCount()).as("the producer still waits for credit").isEqualTo(1);
            proxy.healthy();
            assertThat(run.awaitStopped()).as("the producer stopped").isTrue();
            assertThat(run.end.get().status()).isEqualTo(Status.CLIENT_ERROR);
        }
    }
}
