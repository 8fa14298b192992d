package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.EchoServiceImpl;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: bidirectional streams end to end on 127.0.0.1: both directions at once, blocking and with {@code Flow},
 * each flow-controlled on its own, the provider that stops reading but goes on sending, cancel, a reader's deadline,
 * a lost connection, and a provider that does not speak streams.
 */
@Timeout(60)
class BidiStreamTest {

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
        intake = proxy(server.localAddress().getPort());
    }

    private static IntakeService proxy(int port) {
        return client.proxy(IntakeService.class).address("127.0.0.1", port).connections(1).timeoutMillis(10_000)
                .build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    /** The provider's record of the stream just opened. */
    private static IntakeServiceImpl.Run awaitRun() {
        Await.until("the provider's method ran", WAIT, () -> impl.latest.get() != null);
        return impl.latest.get();
    }

    @Test
    void aBlockingSinkAndABlockingIteratorOnBothSides() {
        List<String> words = IntStream.range(0, 500).mapToObj(i -> "w" + i).toList();
        List<String> got = new ArrayList<>();
        try (StreamIterator<String> it = Streams.iterate(intake.shout(Streams.produce(sink -> {
            for (String word : words) {
                sink.send(word);
            }
        })), 8)) {
            it.forEachRemaining(got::add);
        }
        assertThat(got).containsExactlyElementsOf(words.stream().map(String::toUpperCase).toList());
        assertThat(intake.hello("beside")).isEqualTo("hello, beside");
    }

    @Test
    void flowDemandPassesThroughTheProviderToTheConsumersProducer() throws InterruptedException {
        Sender numbers = new Sender(50, 4);
        Recorder<Long> reader = new Recorder<>(5);
        intake.doubled(numbers.publisher).subscribe(reader);
        Await.until("5 doubled", WAIT, () -> reader.items.size() == 5);
        // The reader's 5 became the provider's demand on the consumer's stream: 5 sent, 4 buffered, the 10th waits.
        Await.until("the producer held", WAIT, () -> numbers.sends.get() == 9);
        assertThat(Await.holdsFor(Duration.ofMillis(300),
                () -> reader.items.size() == 5 && numbers.sends.get() == 9)).isTrue();
        reader.subscription.request(100);
        assertThat(reader.awaitEnd(10)).isTrue();
        assertThat(reader.error).isNull();
        assertThat(reader.completed).isTrue();
        assertThat(reader.items).containsExactlyElementsOf(LongStream.range(0, 50).map(i -> i * 2).boxed().toList());
    }

    @Test
    void eachDirectionIsHeldByItsOwnReaderAndACancelStopsEverything() throws InterruptedException {
        Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
        Recorder<Long> reader = new Recorder<>(10);
        impl.latest.set(null);
        intake.both(numbers.publisher, 7).subscribe(reader);
        IntakeServiceImpl.Run run = awaitRun();
        // Consumer to provider: the method asked for 7, the consumer buffers 4. Provider to consumer: the reader
        // asked for 10, the provider buffers 4.
        Await.until("both producers held", WAIT, () -> numbers.sends.get() == 11 && run.sends.get() == 14);
        assertThat(Await.holdsFor(Duration.ofMillis(300),
                () -> numbers.sends.get() == 11 && run.sends.get() == 14)).isTrue();
        assertThat(run.reads.get()).isEqualTo(7);
        assertThat(reader.items).hasSize(10);

        reader.subscription.cancel();
        assertThat(run.awaitProducerStopped()).as("the provider's producer stopped").isTrue();
        assertThat(run.producerEnd.get().status()).isEqualTo(Status.STREAM_CANCELLED);
        assertThat(run.awaitInboundEnded()).as("the provider's reader heard it").isTrue();
        assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.STREAM_CANCELLED));
        assertThat(numbers.awaitStopped()).as("the consumer's producer stopped").isTrue();
        assertThat(numbers.end.get().status()).isEqualTo(Status.STREAM_CANCELLED);
    }

    @Test
    void theProviderStopsReadingAndGoesOnSending() throws InterruptedException {
        Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
        Recorder<Long> reader = new Recorder<>(100);
        intake.halfClose(numbers.publisher, 3, 20).subscribe(reader);
        assertThat(numbers.awaitStopped()).as("the consumer's producer was told to stop").isTrue();
        assertThat(numbers.end.get().status()).isEqualTo(Status.STREAM_CANCELLED);
        assertThat(reader.awaitEnd(10)).isTrue();
        assertThat(reader.error).isNull();
        assertThat(reader.items).containsExactlyElementsOf(LongStream.range(0, 20).boxed().toList());
    }

    @Test
    void aReadersDeadlineCancelsBothDirections() throws InterruptedException {
        Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
        Recorder<Long> reader = new Recorder<>(3); // then reads nothing: the stream goes quiet
        impl.latest.set(null);
        long started = System.nanoTime();
        Streams.withDeadlines(intake.both(numbers.publisher, 5),
                StreamDeadlines.builder().whole(Duration.ofMillis(400)).build()).subscribe(reader);
        IntakeServiceImpl.Run run = awaitRun();
        assertThat(reader.awaitEnd(10)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(reader.error).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
        assertThat(run.awaitProducerStopped()).isTrue();
        // The consumer's cancel, or the provider's own copy of the deadline (it travels in the open), whichever
        // reaches the provider first.
        assertThat(run.producerEnd.get().status()).isIn(Status.STREAM_CANCELLED, Status.SERVER_TIMEOUT);
        assertThat(run.awaitInboundEnded()).isTrue();
        assertThat(numbers.awaitStopped()).isTrue();
        assertThat(numbers.end.get().status()).isIn(Status.STREAM_CANCELLED, Status.SERVER_TIMEOUT);
    }

    @Test
    void aLostConnectionEndsBothDirectionsOnBothSides() throws Exception {
        try (TcpRelay relay = new TcpRelay(server.localAddress().getPort())) {
            Sender numbers = new Sender(IntakeServiceImpl.ENDLESS, 4);
            Recorder<Long> reader = new Recorder<>(3);
            impl.latest.set(null);
            proxy(relay.port()).both(numbers.publisher, 3).subscribe(reader);
            IntakeServiceImpl.Run run = awaitRun();
            Await.until("3 each way", WAIT, () -> reader.items.size() == 3 && run.reads.get() == 3);
            relay.cut();
            assertThat(reader.awaitEnd(10)).isTrue();
            assertThat(reader.error).isInstanceOfSatisfying(StreamException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR));
            assertThat(numbers.awaitStopped()).as("the consumer's producer stopped").isTrue();
            assertThat(numbers.end.get().status()).isEqualTo(Status.CLIENT_ERROR);
            assertThat(run.awaitProducerStopped()).as("the provider's producer stopped").isTrue();
            assertThat(run.producerEnd.get().status()).isEqualTo(Status.CLIENT_ERROR);
            assertThat(run.awaitInboundEnded()).as("the provider's reader heard it").isTrue();
            assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR));
        }
    }

    @Test
    void aProviderWithoutStreamsIsNeverSentOne() throws Exception {
        try (JupiterServer plain = JupiterServer.builder().host("127.0.0.1").port(0).build()) {
            plain.register(new EchoServiceImpl());
            plain.start();
            Sender numbers = new Sender(10, 4);
            Recorder<Long> reader = new Recorder<>(10);
            long started = System.nanoTime();
            proxy(plain.localAddress().getPort()).both(numbers.publisher, 1).subscribe(reader);
            assertThat(reader.awaitEnd(10)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            assertThat(reader.error).isInstanceOfSatisfying(StreamException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR);
                assertThat(e.getMessage()).contains("does not speak streams").contains("not sent");
            });
            assertThat(numbers.started).as("the producer never ran").isFalse();
            assertThat(plain.connectionCount()).as("the connection stays up").isEqualTo(1);
        }
    }
}
