package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServerStreamsAccess;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: a reader's first-message and idle deadlines travel to the provider in the open (as attachments), and
 * the provider ends the stream with {@code SERVER_TIMEOUT} on its own when its producer stays silent beyond them,
 * or, for the consumer's messages (a client stream given {@code Streams.withDeadlines}), when they stop arriving:
 * shown with the fault proxy forwarding nothing once the stream runs (no FIN), so the consumer's cancel never
 * arrives, and a consumer keepalive long enough not to notice within the test.
 */
@Timeout(60)
class StreamProviderSilenceTest {

    private static final long FIRST_MILLIS = 1_000;
    private static final long IDLE_MILLIS = 1_500;
    /** How late past the deadline the provider may end the stream: timer and scheduling on a shared machine. */
    private static final long SLACK_MILLIS = 3_000;

    private final TickServiceImpl ticks = new TickServiceImpl();
    private final IntakeServiceImpl intake = new IntakeServiceImpl();
    /** How each stream ended on the provider, as its interceptors' {@code afterInvoke} saw it. */
    private final BlockingQueue<StreamException> ends = new LinkedBlockingQueue<>();
    private JupiterServer server;
    private FaultProxy proxy;
    private JupiterClient client;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).interceptor(new Interceptor() {
            @Override
            public void afterInvoke(Invocation invocation, Object result, Throwable error) {
                if (invocation.isStream()) {
                    ends.add(error instanceof StreamException e ? e : new StreamException(invocation.status(),
                            String.valueOf(error)));
                }
            }
        }).build();
        server.register(ticks);
        server.register(intake);
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
    void aProducerThatSendsNothingWithinTheFirstMessageDeadlineIsEndedByTheProvider() throws Exception {
        TickService service = client.proxy(TickService.class).address("127.0.0.1", proxy.port()).connections(1)
                .timeoutMillis(10_000).build();
        Recorder<Long> reader = new Recorder<>(3);
        long opened = System.nanoTime();
        // Its producer waits 20 s before its first message.
        Streams.withDeadlines(service.paced(3, 20_000),
                StreamDeadlines.builder().firstMessage(Duration.ofMillis(FIRST_MILLIS)).build()).subscribe(reader);
        Await.until("the stream is open on the provider", Duration.ofSeconds(10),
                () -> ServerStreamsAccess.openStreams(server) == 1);
        // The producer starts on the consumer's first credit, a frame of its own: the link goes dark only once it
        // got through, or there would be no sleeping producer to stop.
        Await.until("the producer is running", Duration.ofSeconds(10),
                () -> ticks.latest.get() != null && ticks.latest.get().started.getCount() == 0);
        proxy.blackhole();
        long forwarded = proxy.forwardedBytes(FaultProxy.Direction.CLIENT_TO_TARGET);

        StreamException end = ends.poll(FIRST_MILLIS + SLACK_MILLIS, TimeUnit.MILLISECONDS);
        long endedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened);
        assertThat(end).as("the provider ended the stream by the deadline").isNotNull();
        assertThat(end.status()).isEqualTo(Status.SERVER_TIMEOUT);
        assertThat(end.getMessage()).contains("first-message deadline").contains(FIRST_MILLIS + " ms");
        assertThat(endedMillis).as("not before the deadline").isGreaterThanOrEqualTo(FIRST_MILLIS - 100);
        // The interceptors hear of the end just before the stream's entry is forgotten.
        Await.until("nothing left on the provider", Duration.ofSeconds(5),
                () -> ServerStreamsAccess.openStreams(server) == 0);
        assertThat(ticks.latest.get().awaitStopped()).as("the sleeping producer was stopped").isTrue();
        assertThat(proxy.forwardedBytes(FaultProxy.Direction.CLIENT_TO_TARGET))
                .as("the consumer's cancel did not get through").isEqualTo(forwarded);
        assertThat(reader.awaitEnd(5)).isTrue();
        assertThat(reader.error).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
    }

    @Test
    void aProducerIdleBeyondTheIdleDeadlineIsStoppedByTheProvider() throws Exception {
        TickService service = client.proxy(TickService.class).address("127.0.0.1", proxy.port()).connections(1)
                .timeoutMillis(10_000).build();
        Recorder<Long> reader = new Recorder<>(3);
        Streams.withDeadlines(service.endless("WAIT", 4),
                StreamDeadlines.builder().idle(Duration.ofMillis(IDLE_MILLIS)).build()).subscribe(reader);
        Await.until("3 messages", Duration.ofSeconds(10), () -> reader.items.size() == 3);
        TickServiceImpl.Run run = ticks.latest.get();
        // 3 sent and 4 buffered: the 8th send waits for credit, and nothing more is sent from then on.
        Await.until("the producer is held", Duration.ofSeconds(10), () -> run.sends.get() == 7);
        long held = System.nanoTime();
        proxy.blackhole();
        long forwarded = proxy.forwardedBytes(FaultProxy.Direction.CLIENT_TO_TARGET);

        assertThat(run.stopped.await(IDLE_MILLIS + SLACK_MILLIS, TimeUnit.MILLISECONDS))
                .as("the provider's producer stopped by the idle deadline").isTrue();
        long stoppedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - held);
        assertThat(run.end.get().status()).isEqualTo(Status.SERVER_TIMEOUT);
        assertThat(run.end.get().getMessage()).contains("idle deadline").contains("the provider's producer");
        assertThat(stoppedMillis).as("not before the deadline").isGreaterThanOrEqualTo(IDLE_MILLIS - 100);
        assertThat(proxy.forwardedBytes(FaultProxy.Direction.CLIENT_TO_TARGET))
                .as("the consumer's cancel did not get through").isEqualTo(forwarded);
        Await.until("nothing left on the provider", Duration.ofSeconds(5),
                () -> ServerStreamsAccess.openStreams(server) == 0);
    }

    @Test
    void aProducerThatSendsWithinTheIdleDeadlineRunsToItsEnd() throws Exception {
        TickService service = client.proxy(TickService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(1).timeoutMillis(10_000).build();
        Recorder<Long> reader = new Recorder<>(100);
        // 6 messages 300 ms apart: 1.8 s in all, longer than the idle deadline, which each message re-arms.
        Streams.withDeadlines(service.paced(6, 300),
                StreamDeadlines.builder().firstMessage(Duration.ofMillis(FIRST_MILLIS))
                        .idle(Duration.ofMillis(FIRST_MILLIS)).build()).subscribe(reader);
        assertThat(reader.awaitEnd(10)).isTrue();
        assertThat(reader.error).isNull();
        assertThat(reader.items).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        StreamException end = ends.poll(5, TimeUnit.SECONDS);
        assertThat(end).isNotNull();
        assertThat(end.status()).isEqualTo(Status.OK);
    }

    @Test
    void aClientStreamWhoseMessagesStopArrivingIsEndedByTheProviderByTheirIdleDeadline() throws Exception {
        IntakeService service = client.proxy(IntakeService.class).address("127.0.0.1", proxy.port())
                .connections(1).timeoutMillis(30_000).build();
        // Paced, so the stream is still running when the link goes dark.
        Flow.Publisher<Long> numbers = Streams.produce(sink -> {
            for (long i = 0; i < IntakeServiceImpl.ENDLESS; i++) {
                sink.send(i);
                Thread.sleep(20);
            }
        });
        intake.latest.set(null);
        CompletableFuture<Long> answer = service.slowCount(Streams.withDeadlines(numbers,
                StreamDeadlines.builder().idle(Duration.ofMillis(IDLE_MILLIS)).build()), 0);
        Await.until("the method ran", Duration.ofSeconds(10), () -> intake.latest.get() != null);
        IntakeServiceImpl.Run run = intake.latest.get();
        Await.until("5 messages read", Duration.ofSeconds(10), () -> run.reads.get() >= 5);
        proxy.blackhole();
        long dark = System.nanoTime();

        assertThat(run.inboundEnded.await(IDLE_MILLIS + SLACK_MILLIS, TimeUnit.MILLISECONDS))
                .as("the provider's reader ended by the idle deadline").isTrue();
        long endedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - dark);
        assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT);
            assertThat(e.getMessage()).contains("idle deadline").contains("the consumer sent nothing");
        });
        assertThat(endedMillis).as("not before the deadline").isGreaterThanOrEqualTo(IDLE_MILLIS - 100);
        Await.until("nothing left on the provider", Duration.ofSeconds(5),
                () -> ServerStreamsAccess.openStreams(server) == 0);
        assertThat(answer).failsWithin(Duration.ofSeconds(10));
    }

    @Test
    void aConsumerThatEndedItsMessagesIsNotHeldToTheirIdleDeadline() throws Exception {
        IntakeService service = client.proxy(IntakeService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(1).timeoutMillis(10_000).build();
        Flow.Publisher<Long> three = Streams.produce(sink -> {
            for (long i = 0; i < 3; i++) {
                sink.send(i);
            }
        });
        // The method takes 400 ms a message, 1.2 s in all, well past the 300 ms idle deadline of the consumer's
        // messages, which all arrived (with their end) at once.
        CompletableFuture<Long> answer = service.slowCount(Streams.withDeadlines(three,
                StreamDeadlines.builder().idle(Duration.ofMillis(300)).build()), 400);
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(3L);
    }
}
