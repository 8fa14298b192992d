package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.EchoServiceImpl;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.security.AuthorizationRules;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.rpc.security.TokenAuthenticator;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: server streams end to end on 127.0.0.1: the blocking producer and consumer, credit-based flow control,
 * the slow-consumer policies, cancellation both ways, errors, connection loss, shutdown, authorization and
 * interceptors at the open, and the refusal to send a stream to a provider that did not announce streams.
 */
@Timeout(60)
class ServerStreamTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ServiceKey TICKS = ServiceKey.of(TickService.class, ServiceKey.DEFAULT_VERSION);

    private static final List<String> intercepted = new CopyOnWriteArrayList<>();
    private static final TickServiceImpl impl = new TickServiceImpl();
    private static JupiterServer server;
    private static JupiterClient client;
    private static TickService ticks;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .callerIdentifier(connection -> CallerIdentity.of("alice"))
                .authorizer(AuthorizationRules.builder()
                        .allow(TICKS, AuthorizationRules.ANY_METHOD, "alice")
                        .build())
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        intercepted.add("before " + invocation.methodName() + " by " + invocation.caller());
                        if (invocation.attachment("trace") != null) {
                            intercepted.add("trace " + invocation.attachment("trace"));
                        }
                    }

                    @Override
                    public void afterInvoke(Invocation invocation, Object result, Throwable error) {
                        intercepted.add("after " + invocation.methodName() + " " + invocation.status());
                    }
                })
                .build();
        server.register(impl);
        server.start();
        client = JupiterClient.builder().build();
        ticks = client.proxy(TickService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(1).timeoutMillis(10_000).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aBlockingProducerStreamsToABlockingIterator() {
        try (StreamIterator<Long> it = Streams.iterate(ticks.count(1000), 16)) {
            List<Long> got = new ArrayList<>();
            it.forEachRemaining(got::add);
            assertThat(got).containsExactlyElementsOf(LongStream.range(0, 1000).boxed().toList());
        }
        assertThat(ticks.hello("beside")).isEqualTo("hello, beside");
    }

    @Test
    void aFlowSubscriberGetsWhatItAsksForAndTheEnd() throws InterruptedException {
        Recorder<Long> recorder = new Recorder<>(5);
        ticks.count(20).subscribe(recorder);
        Await.until("5 messages", WAIT, () -> recorder.items.size() == 5);
        assertThat(Await.holdsFor(Duration.ofMillis(200), () -> recorder.items.size() == 5))
                .as("no message beyond the demand").isTrue();
        recorder.subscription.request(100);
        assertThat(recorder.awaitEnd(10)).isTrue();
        assertThat(recorder.completed).isTrue();
        assertThat(recorder.items).hasSize(20);
    }

    @Test
    void anyJdkPublisherIsBridgedByCredit() {
        try (StreamIterator<Integer> it = Streams.iterate(ticks.submitted(500), 8)) {
            assertThat(it.stream().collect(Collectors.toList()))
                    .containsExactlyElementsOf(IntStream.range(0, 500).boxed().toList());
        }
    }

    @Test
    void underWaitAProducerWhoseReaderStopsHoldsOnlyCreditAndBuffer() throws InterruptedException {
        Recorder<Long> stalled = new Recorder<>(10); // reads 10 and asks no more
        ticks.endless("WAIT", 4).subscribe(stalled);
        Await.until("the 10 credited messages", WAIT, () -> stalled.items.size() == 10);
        TickServiceImpl.Run run = impl.latest.get();
        // 10 sent against credit + 4 buffered; the 15th send blocks.
        Await.until("the producer blocked", WAIT, () -> run.sends.get() == 14);
        assertThat(Await.holdsFor(Duration.ofMillis(300), () -> run.sends.get() == 14)).isTrue();
        stalled.subscription.request(6);
        Await.until("6 more", WAIT, () -> stalled.items.size() == 16);
        assertThat(stalled.items).containsExactlyElementsOf(LongStream.range(0, 16).boxed().toList());
        stalled.subscription.cancel();
        assertThat(run.awaitStopped()).isTrue();
        assertThat(run.end.get().status()).isEqualTo(Status.STREAM_CANCELLED);
    }

    @Test
    void dropOldestKeepsTheNewestBufferedMessages() throws InterruptedException {
        Recorder<Long> reader = new Recorder<>(1); // then nothing until the producer is done
        ticks.endless("DROP_OLDEST", 3).subscribe(reader);
        Await.until("the first message", WAIT, () -> reader.items.size() == 1);
        TickServiceImpl.Run run = impl.latest.get();
        assertThat(run.awaitStopped()).as("the producer ran to its end without waiting").isTrue();
        assertThat(run.sends.get()).isEqualTo(TickServiceImpl.ENDLESS);
        reader.subscription.request(10);
        assertThat(reader.awaitEnd(10)).isTrue();
        long last = TickServiceImpl.ENDLESS - 1;
        assertThat(reader.items).as("the first, then the 3 newest held").containsExactly(0L, last - 2, last - 1, last);
        assertThat(reader.completed).isTrue();
    }

    @Test
    void dropNewestKeepsTheFirstBufferedMessages() throws InterruptedException {
        Recorder<Long> reader = new Recorder<>(1);
        ticks.endless("DROP_NEWEST", 3).subscribe(reader);
        Await.until("the first message", WAIT, () -> reader.items.size() == 1);
        TickServiceImpl.Run run = impl.latest.get();
        assertThat(run.awaitStopped()).as("the producer ran to its end without waiting").isTrue();
        reader.subscription.request(10);
        assertThat(reader.awaitEnd(10)).isTrue();
        assertThat(reader.items).containsExactly(0L, 1L, 2L, 3L);
        assertThat(reader.completed).isTrue();
    }

    @Test
    void failEndsTheStreamWithSlowConsumer() throws InterruptedException {
        Recorder<Long> reader = new Recorder<>(2);
        ticks.endless("FAIL", 3).subscribe(reader);
        assertThat(reader.awaitEnd(10)).isTrue();
        assertThat(reader.items).containsExactly(0L, 1L);
        assertThat(reader.error).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.SLOW_CONSUMER));
        TickServiceImpl.Run run = impl.latest.get();
        assertThat(run.awaitStopped()).isTrue();
        assertThat(run.end.get().status()).isEqualTo(Status.SLOW_CONSUMER);
    }

    @Test
    void closingTheIteratorCancelsTheProducer() throws InterruptedException {
        try (StreamIterator<Long> it = Streams.iterate(ticks.endless("WAIT", 8), 4)) {
            for (long i = 0; i < 5; i++) {
                assertThat(it.next()).isEqualTo(i);
            }
        }
        TickServiceImpl.Run run = impl.latest.get();
        assertThat(run.awaitStopped()).as("the producer stopped").isTrue();
        assertThat(run.end.get().status()).isEqualTo(Status.STREAM_CANCELLED);
    }

    @Test
    void aProducerErrorReachesTheReaderAfterItsMessages() {
        StreamIterator<Long> it = Streams.iterate(ticks.failing(3));
        assertThat(it.next()).isEqualTo(0L);
        assertThat(it.next()).isEqualTo(1L);
        assertThat(it.next()).isEqualTo(2L);
        assertThatThrownBy(it::hasNext).isInstanceOfSatisfying(StreamException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.SERVICE_UNEXPECTED_ERROR);
            assertThat(e.getMessage()).contains("the producer broke after 3");
        });
    }

    @Test
    void interceptorsSeeTheOpenAndTheEnd() {
        intercepted.clear();
        try (StreamIterator<Long> it = Streams.iterate(ticks.count(3))) {
            it.forEachRemaining(v -> { });
        }
        Await.until("afterInvoke", WAIT, () -> intercepted.size() == 2);
        assertThat(intercepted).containsExactly("before count by alice", "after count OK");
    }

    @Test
    void consumerInterceptorsSeeTheOpenAndTheEndAndTheirAttachmentsTravel() {
        List<String> seen = new CopyOnWriteArrayList<>();
        try (JupiterClient traced = JupiterClient.builder().interceptor(new Interceptor() {
            @Override
            public void beforeInvoke(Invocation invocation) {
                seen.add("before " + invocation.methodName());
                invocation.attach("trace", "t-1");
            }

            @Override
            public void afterInvoke(Invocation invocation, Object result, Throwable error) {
                seen.add("after " + invocation.methodName() + " " + invocation.status());
            }
        }).build()) {
            TickService proxy = traced.proxy(TickService.class).address("127.0.0.1",
                    server.localAddress().getPort()).connections(1).timeoutMillis(10_000).build();
            intercepted.clear();
            try (StreamIterator<Long> it = Streams.iterate(proxy.count(3))) {
                it.forEachRemaining(v -> { });
            }
            Await.until("the consumer's afterInvoke", WAIT, () -> seen.size() == 2);
            assertThat(seen).containsExactly("before count", "after count OK");
            Await.until("the provider's afterInvoke", WAIT, () -> intercepted.size() == 3);
            assertThat(intercepted).containsExactly("before count by alice", "trace t-1", "after count OK");

            seen.clear();
            try (StreamIterator<Long> it = Streams.iterate(proxy.endless("WAIT", 4))) {
                assertThat(it.next()).isZero();
            }
            assertThat(seen).containsExactly("before endless", "after endless STREAM_CANCELLED");
        }
    }

    @Test
    void anUnauthorizedCallerIsRefusedAtTheOpen() throws Exception {
        try (JupiterServer guarded = JupiterServer.builder().host("127.0.0.1").port(0)
                .callerIdentifier(connection -> CallerIdentity.of("mallory"))
                .authorizer(AuthorizationRules.builder().allow(TICKS, "hello", "mallory").build()).build()) {
            TickServiceImpl own = new TickServiceImpl();
            guarded.register(own);
            guarded.start();
            TickService proxy = client.proxy(TickService.class).address("127.0.0.1",
                    guarded.localAddress().getPort()).connections(1).timeoutMillis(10_000).build();
            Recorder<Long> recorder = new Recorder<>(10);
            proxy.count(5).subscribe(recorder);
            assertThat(recorder.awaitEnd(10)).isTrue();
            assertThat(recorder.error).isInstanceOfSatisfying(StreamException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                assertThat(e.getMessage()).contains("caller mallory is not authorized to call " + TICKS + ".count");
            });
            assertThat(own.calls).as("the method never ran").isEmpty();
            assertThat(proxy.hello("m")).isEqualTo("hello, m");
        }
    }

    @Test
    void theCallerTokenNamesTheCallerOfAStreamAtAdmission() throws Exception {
        try (JupiterServer guarded = JupiterServer.builder().host("127.0.0.1").port(0)
                .tokenAuthenticator(TokenAuthenticator.of(Map.of("alice-token", "alice", "bob-token", "bob")))
                .authorizer(AuthorizationRules.builder().allow(TICKS, "count", "alice").build()).build();
             JupiterClient alice = JupiterClient.builder().callerToken("alice-token").build();
             JupiterClient bob = JupiterClient.builder().callerToken("bob-token").build()) {
            TickServiceImpl own = new TickServiceImpl();
            guarded.register(own);
            guarded.start();
            int port = guarded.localAddress().getPort();
            Recorder<Long> allowed = new Recorder<>(10);
            alice.proxy(TickService.class).address("127.0.0.1", port).connections(1).timeoutMillis(10_000).build()
                    .count(3).subscribe(allowed);
            assertThat(allowed.awaitEnd(10)).isTrue();
            assertThat(allowed.error).isNull();
            assertThat(allowed.items).containsExactly(0L, 1L, 2L);

            Recorder<Long> refused = new Recorder<>(10);
            bob.proxy(TickService.class).address("127.0.0.1", port).connections(1).timeoutMillis(10_000).build()
                    .count(3).subscribe(refused);
            assertThat(refused.awaitEnd(10)).isTrue();
            assertThat(refused.error).isInstanceOfSatisfying(StreamException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                assertThat(e.getMessage()).contains("caller bob is not authorized to call " + TICKS + ".count");
            });
            assertThat(refused.items).isEmpty();
            assertThat(own.calls).as("only alice's open ran the method").hasSize(1);
        }
    }

    @Test
    void aProviderWithoutStreamsIsNeverSentAStream() throws Exception {
        try (JupiterServer plain = JupiterServer.builder().host("127.0.0.1").port(0).build()) {
            plain.register(new EchoServiceImpl());
            plain.start();
            TickService proxy = client.proxy(TickService.class).address("127.0.0.1",
                    plain.localAddress().getPort()).connections(1).timeoutMillis(10_000).build();
            Recorder<Long> recorder = new Recorder<>(1);
            proxy.count(1).subscribe(recorder);
            assertThat(recorder.awaitEnd(10)).isTrue();
            assertThat(recorder.error).isInstanceOfSatisfying(StreamException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR);
                assertThat(e.getMessage()).contains("does not speak streams").contains("not sent");
            });
            assertThat(plain.connectionCount()).as("the connection stays up").isEqualTo(1);
        }
    }

    /**
     * A provider's first bytes can come late (a JVM short of CPU, a port that waits for other protocols' clients to
     * speak first): a proxy in the path delays every byte from the provider by 1.5 s, so its announcement arrives
     * after the one second the consumer used to wait, and the stream still opens.
     */
    @Test
    void anAnnouncementLateByOneAndAHalfSecondsStillOpensTheStream() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(server.localAddress().getPort())
                .delay(FaultProxy.Direction.TARGET_TO_CLIENT, Duration.ofMillis(1500));
             JupiterClient own = JupiterClient.builder().build()) {
            TickService late = own.proxy(TickService.class).address("127.0.0.1", proxy.port())
                    .connections(1).timeoutMillis(20_000).build();
            Recorder<Long> recorder = new Recorder<>(3);
            late.count(3).subscribe(recorder);
            assertThat(recorder.awaitEnd(20)).isTrue();
            assertThat(recorder.error).as("the stream's error").isNull();
            assertThat(recorder.items).containsExactly(0L, 1L, 2L);
            assertThat(recorder.completed).isTrue();
        }
    }

    @Test
    void aSilentPeerGetsNoStreamFrame() throws Exception {
        try (ServerSocket legacy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            ByteArrayOutputStream bytesSeen = new ByteArrayOutputStream();
            Thread reader = new Thread(() -> {
                try (Socket socket = legacy.accept(); InputStream in = socket.getInputStream()) {
                    socket.setSoTimeout(3000);
                    int b;
                    while ((b = in.read()) >= 0) {
                        synchronized (bytesSeen) {
                            bytesSeen.write(b);
                        }
                    }
                } catch (Exception e) {
                    // timeout or closed: done
                }
            }, "test-legacy-peer");
            reader.setDaemon(true);
            reader.start();
            TickService proxy = client.proxy(TickService.class).address("127.0.0.1", legacy.getLocalPort())
                    .connections(1).timeoutMillis(5_000).build();
            long started = System.nanoTime();
            Recorder<Long> recorder = new Recorder<>(1);
            proxy.count(1).subscribe(recorder);
            assertThat(recorder.awaitEnd(10)).isTrue();
            assertThat(recorder.error).isInstanceOf(StreamException.class)
                    .hasMessageContaining("does not speak streams");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            reader.join(5000);
            byte[] seen;
            synchronized (bytesSeen) {
                seen = bytesSeen.toByteArray();
            }
            // The client's keepalive probe (a heartbeat with an id, which a 1.3.1 peer drops) may be there; nothing
            // else, and no stream frame.
            assertThat(seen.length % ProtocolHeader.HEADER_SIZE).as("whole headers only").isZero();
            for (int at = 0; at < seen.length; at += ProtocolHeader.HEADER_SIZE) {
                ByteBuf header = Unpooled.wrappedBuffer(seen, at, ProtocolHeader.HEADER_SIZE);
                assertThat(header.getShort(0)).isEqualTo(ProtocolHeader.MAGIC);
                assertThat(header.getByte(2)).as("only heartbeats reach the 1.3.1-like peer")
                        .isEqualTo(ProtocolHeader.HEARTBEAT);
                assertThat(header.getByte(ProtocolHeader.STATUS_OFFSET)).isZero();
                assertThat(header.getInt(ProtocolHeader.HEADER_SIZE - 4)).as("empty body").isZero();
            }
        }
    }

    @Test
    void connectionLossEndsTheStreamOnBothSides() throws Exception {
        try (TcpRelay relay = new TcpRelay(server.localAddress().getPort())) {
            TickService viaRelay = client.proxy(TickService.class).address("127.0.0.1", relay.port())
                    .connections(1).timeoutMillis(10_000).build();
            Recorder<Long> recorder = new Recorder<>(3);
            viaRelay.endless("WAIT", 4).subscribe(recorder);
            Await.until("3 messages", WAIT, () -> recorder.items.size() == 3);
            TickServiceImpl.Run run = impl.latest.get();
            relay.cut();
            assertThat(recorder.awaitEnd(10)).isTrue();
            assertThat(recorder.error).isInstanceOfSatisfying(StreamException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR));
            assertThat(run.awaitStopped()).as("the producer stopped").isTrue();
            assertThat(run.end.get().status()).isEqualTo(Status.CLIENT_ERROR);
        }
    }

    @Test
    void shutdownEndsStreamsWithShuttingDown() throws Exception {
        JupiterServer leaving = JupiterServer.builder().host("127.0.0.1").port(0).build();
        TickServiceImpl own = new TickServiceImpl();
        leaving.register(own);
        leaving.start();
        TickService proxy = client.proxy(TickService.class).address("127.0.0.1", leaving.localAddress().getPort())
                .connections(1).timeoutMillis(10_000).build();
        Recorder<Long> recorder = new Recorder<>(2);
        proxy.endless("WAIT", 4).subscribe(recorder);
        Await.until("2 messages", WAIT, () -> recorder.items.size() == 2);
        leaving.close();
        assertThat(recorder.awaitEnd(10)).isTrue();
        assertThat(recorder.error).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.SHUTTING_DOWN));
        assertThat(own.latest.get().awaitStopped()).as("the producer stopped").isTrue();
        assertThat(own.latest.get().end.get().status()).isEqualTo(Status.SHUTTING_DOWN);
    }
}
