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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: a stream's deadline travels to the provider in the open, and the provider ends the stream with
 * {@code SERVER_TIMEOUT} when it passes on its own, even when the consumer's cancel never arrives: the fault proxy
 * between the two forwards nothing (a half-open link, no FIN) once the stream runs, and the consumer's keepalive is
 * long enough not to notice within the test.
 */
@Timeout(60)
class StreamProviderDeadlineTest {

    private static final long DEADLINE_MILLIS = 1_500;
    /** How late past the deadline the provider may end the stream: timer and scheduling on a shared machine. */
    private static final long SLACK_MILLIS = 3_000;

    private final TickServiceImpl ticks = new TickServiceImpl();
    private final IntakeServiceImpl intake = new IntakeServiceImpl();
    private final FeedServiceImpl feed = new FeedServiceImpl();
    private JupiterServer server;
    private FaultProxy proxy;
    private JupiterClient client;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(ticks);
        server.register(intake);
        server.register(feed);
        server.start();
        proxy = FaultProxy.start(server.localAddress().getPort());
        client = JupiterClient.builder()
                .transportConfig(TransportConfig.builder().keepaliveTimeoutMillis(60_000).build()).build();
    }

    @AfterEach
    void stop() {
        client.close();
        proxy.close();
        server.close();
    }

    @Test
    void aServerStreamsProducerStopsByItsDeadlineWhileTheLinkForwardsNothing() throws Exception {
        TickService service = client.proxy(TickService.class).address("127.0.0.1", proxy.port()).connections(1)
                .timeoutMillis(10_000).build();
        Recorder<Long> reader = new Recorder<>(3);
        long opened = System.nanoTime();
        Streams.withDeadlines(service.endless("WAIT", 4),
                StreamDeadlines.builder().whole(Duration.ofMillis(DEADLINE_MILLIS)).build()).subscribe(reader);
        Await.until("3 messages", Duration.ofSeconds(10), () -> reader.items.size() == 3);
        TickServiceImpl.Run run = ticks.latest.get();
        proxy.blackhole();
        long forwarded = proxy.forwardedBytes(FaultProxy.Direction.CLIENT_TO_TARGET);

        // The producer is blocked for credit; only the provider's own deadline can stop it now.
        assertThat(run.stopped.await(DEADLINE_MILLIS + SLACK_MILLIS, TimeUnit.MILLISECONDS))
                .as("the provider's producer stopped by the deadline").isTrue();
        long stoppedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened);
        assertThat(run.end.get().status()).isEqualTo(Status.SERVER_TIMEOUT);
        assertThat(run.end.get().getMessage()).contains("deadline");
        assertThat(stoppedMillis).as("not before the deadline").isGreaterThanOrEqualTo(DEADLINE_MILLIS - 100);
        assertThat(proxy.forwardedBytes(FaultProxy.Direction.CLIENT_TO_TARGET))
                .as("the consumer's cancel did not get through").isEqualTo(forwarded);
        assertThat(run.sends.get()).as("3 sent and 4 buffered, then held").isEqualTo(7);

        // The reader's own deadline ended it too, on its side.
        assertThat(reader.awaitEnd(5)).isTrue();
        assertThat(reader.error).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
    }

    @Test
    void aClientStreamsTimeoutEndsTheProvidersReaderWhileTheLinkForwardsNothing() throws Exception {
        IntakeService service = client.proxy(IntakeService.class).address("127.0.0.1", proxy.port())
                .connections(1).timeoutMillis(DEADLINE_MILLIS).build();
        Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
        intake.latest.set(null);
        CompletableFuture<Integer> answer = service.stall(numbers.publisher, 5);
        Await.until("the method ran", Duration.ofSeconds(10), () -> intake.latest.get() != null);
        IntakeServiceImpl.Run run = intake.latest.get();
        Await.until("5 messages read", Duration.ofSeconds(10), () -> run.reads.get() == 5);
        proxy.blackhole();

        assertThat(run.inboundEnded.await(DEADLINE_MILLIS + SLACK_MILLIS, TimeUnit.MILLISECONDS))
                .as("the provider's reader ended by the deadline").isTrue();
        assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
        assertThat(answer).failsWithin(Duration.ofSeconds(5));
    }

    @Test
    void aBlockingReadersIteratorThrowsByTheDeadlineWhileTheLinkForwardsNothing() throws Exception {
        FeedService service = client.proxy(FeedService.class).address("127.0.0.1", proxy.port())
                .connections(1).timeoutMillis(DEADLINE_MILLIS).build();
        // Paced, so the stream is still running when the link goes dark.
        Flow.Publisher<Long> numbers = Streams.produce(sink -> {
            for (long i = 0; i < IntakeServiceImpl.ENDLESS; i++) {
                sink.send(i);
                Thread.sleep(5);
            }
        });
        Thread caller = new Thread(() -> {
            try {
                service.total(numbers);
            } catch (StreamException expected) {
                // the consumer's own copy of the timeout; the provider's side is what this test checks
            }
        });
        caller.start();
        Await.until("the method read some", Duration.ofSeconds(10), () -> feed.totalReads.get() >= 4);
        proxy.blackhole();

        RuntimeException end = feed.totalEnd.get(DEADLINE_MILLIS + SLACK_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(end).as("the method's hasNext() threw").isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
        caller.join(10_000);
    }

    @Test
    void aBidirectionalStreamsProducerAndReaderEndByTheDeadlineWhileTheLinkForwardsNothing() throws Exception {
        IntakeService service = client.proxy(IntakeService.class).address("127.0.0.1", proxy.port())
                .connections(1).timeoutMillis(10_000).build();
        Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
        Recorder<Long> reader = new Recorder<>(3);
        intake.latest.set(null);
        Streams.withDeadlines(service.both(numbers.publisher, 5),
                StreamDeadlines.builder().whole(Duration.ofMillis(DEADLINE_MILLIS)).build()).subscribe(reader);
        Await.until("the method ran", Duration.ofSeconds(10), () -> intake.latest.get() != null);
        IntakeServiceImpl.Run run = intake.latest.get();
        Await.until("both sides held", Duration.ofSeconds(10),
                () -> reader.items.size() == 3 && run.reads.get() == 5 && run.sends.get() == 7);
        proxy.blackhole();

        assertThat(run.producerStopped.await(DEADLINE_MILLIS + SLACK_MILLIS, TimeUnit.MILLISECONDS))
                .as("the provider's producer stopped by the deadline").isTrue();
        assertThat(run.producerEnd.get().status()).isEqualTo(Status.SERVER_TIMEOUT);
        assertThat(run.awaitInboundEnded()).isTrue();
        assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
    }

    @Test
    void aStreamWithoutADeadlineIsNotEndedByTheProvider() throws Exception {
        TickService service = client.proxy(TickService.class).address("127.0.0.1", proxy.port()).connections(1)
                .timeoutMillis(300).build(); // a call's timeout: it does not bound a server stream
        Recorder<Long> reader = new Recorder<>(3);
        service.endless("WAIT", 4).subscribe(reader);
        Await.until("3 messages", Duration.ofSeconds(10), () -> reader.items.size() == 3);
        TickServiceImpl.Run run = ticks.latest.get();
        assertThat(run.stopped.await(DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).as("still producing").isFalse();
        reader.subscription.cancel();
        assertThat(run.awaitStopped()).isTrue();
        assertThat(run.end.get().status()).isEqualTo(Status.STREAM_CANCELLED);
    }
}
