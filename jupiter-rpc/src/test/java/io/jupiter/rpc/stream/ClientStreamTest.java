package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.EchoServiceImpl;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Status;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: client streaming end to end on 127.0.0.1: a method that reads the consumer's stream and answers once,
 * blocking and with {@code Flow} on both sides, the provider's credit holding the consumer's producer back, cancel
 * from either side, the method's timeout, a lost connection, and a provider that does not speak streams.
 */
@Timeout(60)
class ClientStreamTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static final IntakeServiceImpl impl = new IntakeServiceImpl();
    private static JupiterServer server;
    private static JupiterClient client;
    private static IntakeService intake;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(impl);
        server.start();
        client = JupiterClient.builder().build();
        intake = proxy(server.localAddress().getPort(), 10_000);
    }

    private static IntakeService proxy(int port, long timeoutMillis) {
        return client.proxy(IntakeService.class).address("127.0.0.1", port).connections(1)
                .timeoutMillis(timeoutMillis).build();
    }

    /** The provider's record of the stream just opened. */
    private static IntakeServiceImpl.Run awaitRun() {
        Await.until("the provider's method ran", WAIT, () -> impl.latest.get() != null);
        return impl.latest.get();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aBlockingSinkStreamsToAMethodThatIteratesAndAnswersOnce() {
        Sender numbers = new Sender(1000, 8);
        assertThat(intake.sum(numbers.publisher)).isEqualTo(999L * 1000 / 2);
        assertThat(numbers.sends.get()).isEqualTo(1000);
        assertThat(intake.sum(Streams.produce(sink -> { }))).as("an empty stream").isZero();
        assertThat(intake.hello("beside")).isEqualTo("hello, beside");
    }

    @Test
    void aFailingProducerReachesTheMethodWhoseErrorReachesTheCaller() {
        assertThatThrownBy(() -> intake.sum(Streams.produce(sink -> {
            sink.send(1L);
            throw new IllegalStateException("the disk went away");
        }))).isInstanceOfSatisfying(StreamException.class, e -> {
            System.out.println("ClientStreamTest: a failing producer: " + e);
            assertThat(e.getMessage()).contains("the disk went away");
        });
        assertThat(intake.hello("after")).isEqualTo("hello, after");
    }

    @Test
    void anyFlowPublisherStreamsToAFlowSubscriberOfTheProvider() throws Exception {
        SubmissionPublisher<String> items = new SubmissionPublisher<>();
        CompletableFuture<String> joined = intake.join(items);
        Await.until("the stream subscribed to the publisher", WAIT, () -> items.getNumberOfSubscribers() > 0);
        for (int i = 0; i < 50; i++) {
            items.submit("i" + i); // blocks while the provider's credit is used up
        }
        items.close();
        assertThat(joined.get(10, TimeUnit.SECONDS))
                .isEqualTo(IntStream.range(0, 50).mapToObj(i -> "i" + i).collect(Collectors.joining(",")));
    }

    @Test
    void theProvidersCreditHoldsAProducerBackAndACancelStopsBothSides() throws Exception {
        Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
        impl.latest.set(null);
        CompletableFuture<Integer> answer = intake.stall(numbers.publisher, 10);
        IntakeServiceImpl.Run run = awaitRun();
        Await.until("the 10 credited messages read", WAIT, () -> run.reads.get() == 10);
        // 10 sent against the provider's credit + 4 in the consumer's buffer; the 15th send waits.
        Await.until("the producer held", WAIT, () -> numbers.sends.get() == 14);
        assertThat(Await.holdsFor(Duration.ofMillis(300), () -> numbers.sends.get() == 14)).isTrue();
        assertThat(run.reads.get()).as("nothing beyond the credit reached the method").isEqualTo(10);

        answer.cancel(true);
        assertThat(run.awaitInboundEnded()).as("the method's reader heard the cancel").isTrue();
        assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.STREAM_CANCELLED));
        assertThat(numbers.awaitStopped()).as("the consumer's producer stopped").isTrue();
        assertThat(numbers.end.get().status()).isEqualTo(Status.STREAM_CANCELLED);
    }

    @Test
    void aReaderThatAsksForEverythingStillHoldsAtMostItsWindow() throws Exception {
        Sender numbers = new Sender(300, 4);
        impl.senderProgress = numbers.sends::get;
        impl.latest.set(null);
        CompletableFuture<Long> count = intake.slowCount(numbers.publisher, 2);
        assertThat(count.get(30, TimeUnit.SECONDS)).isEqualTo(300);
        IntakeServiceImpl.Run run = awaitRun();
        // Asked for Long.MAX_VALUE, the provider grants credit within its window (1,024 by default): the consumer
        // never got further ahead than that window plus its own buffer of 4.
        System.out.printf("ClientStreamTest: a reader asking for everything at 2 ms a message: the sender got at"
                + " most %d messages ahead (window %d + buffer 4)%n", run.maxAhead.get(), Streams.INBOUND_WINDOW);
        assertThat(run.maxAhead.get()).isLessThanOrEqualTo(Streams.INBOUND_WINDOW + 4).isPositive();
    }

    @Test
    void theProviderStopsReadingAndTheConsumersProducerHearsItButGetsTheAnswer() throws Exception {
        Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
        String answer = proxy(server.localAddress().getPort(), 10_000).firstOf(
                mapToString(numbers), 3);
        assertThat(answer).isEqualTo("0,1,2");
        assertThat(numbers.awaitStopped()).isTrue();
        assertThat(numbers.end.get().status()).isEqualTo(Status.STREAM_CANCELLED);
        assertThat(numbers.sends.get()).as("held by credit, then stopped").isLessThan(100);
    }

    private static Flow.Publisher<String> mapToString(Sender numbers) {
        return subscriber -> numbers.publisher.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscriber.onSubscribe(s);
            }

            @Override
            public void onNext(Long item) {
                subscriber.onNext(String.valueOf(item));
            }

            @Override
            public void onError(Throwable error) {
                subscriber.onError(error);
            }

            @Override
            public void onComplete() {
                subscriber.onComplete();
            }
        });
    }

    @Test
    void theMethodsTimeoutCancelsTheStream() throws Exception {
        IntakeService hurried = proxy(server.localAddress().getPort(), 500);
        Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
        long started = System.nanoTime();
        impl.latest.set(null);
        CompletableFuture<Integer> answer = hurried.stall(numbers.publisher, 5);
        assertThatThrownBy(() -> answer.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(StreamException.class,
                        e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        IntakeServiceImpl.Run run = awaitRun();
        assertThat(run.awaitInboundEnded()).isTrue();
        // The consumer's cancel, or the provider's own copy of the deadline (it travels in the open), whichever
        // reaches the provider's reader first.
        assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isIn(Status.STREAM_CANCELLED, Status.SERVER_TIMEOUT));
        assertThat(numbers.awaitStopped()).isTrue();
    }

    @Test
    void aBlockingCallPastItsTimeoutThrows() {
        IntakeService hurried = proxy(server.localAddress().getPort(), 300);
        // The producer sends nothing and never ends: the method waits for its first message.
        assertThatThrownBy(() -> hurried.sum(Streams.produce(sink -> Thread.sleep(60_000))))
                .isInstanceOfSatisfying(StreamException.class,
                        e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
    }

    @Test
    void interruptingABlockedCallerCancelsTheStream() throws Exception {
        CountDownLatch producing = new CountDownLatch(1);
        CountDownLatch producerInterrupted = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                intake.sum(Streams.produce(sink -> {
                    producing.countDown();
                    try {
                        Thread.sleep(60_000); // a producer with nothing to send yet: the method waits, so does the call
                    } catch (InterruptedException e) {
                        producerInterrupted.countDown();
                        throw e;
                    }
                }));
            } catch (RuntimeException e) {
                thrown.set(e);
            }
        }, "test-blocked-caller");
        caller.start();
        assertThat(producing.await(10, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        caller.join(10_000);
        assertThat(caller.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOfSatisfying(StreamException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR);
            assertThat(e.getMessage()).contains("interrupted").contains("cancelled");
        });
        assertThat(producerInterrupted.await(10, TimeUnit.SECONDS)).as("the consumer's producer was stopped").isTrue();
        assertThat(intake.hello("after")).isEqualTo("hello, after");
    }

    @Test
    void aLostConnectionEndsTheStreamOnBothSides() throws Exception {
        try (TcpRelay relay = new TcpRelay(server.localAddress().getPort())) {
            IntakeService viaRelay = proxy(relay.port(), 10_000);
            Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
            impl.latest.set(null);
            CompletableFuture<Integer> answer = viaRelay.stall(numbers.publisher, 3);
            IntakeServiceImpl.Run run = awaitRun();
            Await.until("3 messages read", WAIT, () -> run.reads.get() == 3);
            relay.cut();
            assertThatThrownBy(() -> answer.get(10, TimeUnit.SECONDS)).cause()
                    .isInstanceOfSatisfying(StreamException.class,
                            e -> assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR));
            assertThat(run.awaitInboundEnded()).as("the method's reader heard it").isTrue();
            assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR));
            assertThat(numbers.awaitStopped()).as("the consumer's producer stopped").isTrue();
            assertThat(numbers.end.get().status()).isEqualTo(Status.CLIENT_ERROR);
        }
    }

    @Test
    void aProviderWithoutStreamsIsNeverSentOne() throws Exception {
        try (JupiterServer plain = JupiterServer.builder().host("127.0.0.1").port(0).build()) {
            plain.register(new EchoServiceImpl());
            plain.start();
            IntakeService proxy = proxy(plain.localAddress().getPort(), 10_000);
            Sender numbers = new Sender(10, 4);
            long started = System.nanoTime();
            assertThatThrownBy(() -> proxy.sum(numbers.publisher)).isInstanceOfSatisfying(StreamException.class,
                    e -> {
                        assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR);
                        assertThat(e.getMessage()).contains("does not speak streams").contains("not sent");
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            assertThat(numbers.started).as("the producer never ran").isFalse();
            assertThat(plain.connectionCount()).as("the connection stays up").isEqualTo(1);
        }
    }
}
