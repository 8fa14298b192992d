package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Client and bidirectional streams to grpc-java's own server from a Jupiter proxy ({@code R m(Flow.Publisher<Q>)},
 * {@code CompletableFuture<R> m(Flow.Publisher<Q>)}, {@code Flow.Publisher<R> m(Flow.Publisher<Q>)}).
 */
class GrpcClientUploadStreamTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static Uploads proxy(JupiterClient client, UploadServer server) {
        return client.proxy(Uploads.class).name(UploadServer.SERVICE)
                .protocol(GrpcClientProtocol.builder().methodNames(Uploads.NAMES).build())
                .address(server.address()).timeoutMillis(60_000).build();
    }

    private static Int64Value number(long n) {
        return Int64Value.of(n);
    }

    @Test
    void aClientStreamOf2000MessagesIsSummedInOrder() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            Uploads uploads = proxy(client, server);
            Source<Int64Value> values = Source.of(2000, GrpcClientUploadStreamTest::number);
            assertThat(uploads.sum(values).getValue()).isEqualTo(2000L * 2001 / 2);
            assertThat(server.received.get()).isEqualTo(2000);
            assertThat(values.sent.get()).isEqualTo(2000);
            // Asked a batch at a time: never far ahead of what was sent.
            assertThat(values.requested.get()).isLessThanOrEqualTo(2000 + RequestStream.BATCH);

            Source<Int64Value> more = Source.of(100, GrpcClientUploadStreamTest::number);
            assertThat(uploads.sumAsync(more).get(30, TimeUnit.SECONDS).getValue()).isEqualTo(5050L);
            Source<Int64Value> none = Source.of(0, GrpcClientUploadStreamTest::number);
            assertThat(uploads.sum(none).getValue()).isZero();
            assertThat(server.calls.get()).isEqualTo(3);
            assertThat(server.cancelled.get()).isZero();
        }
    }

    @Test
    void aClientStreamOfManyWindowsIsSentAsTheServerReturnsWindow() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            String kib = "k".repeat(1024);
            Source<StringValue> texts = Source.of(4000, i -> StringValue.of(kib)); // 4 MiB: 16 server windows
            assertThat(proxy(client, server).size(texts).getValue()).isEqualTo(4000L * 1024);
            assertThat(server.received.get()).isEqualTo(4000);
            assertThat(texts.requested.get()).isLessThanOrEqualTo(4000 + RequestStream.BATCH);

            // Messages above the batch's bytes are asked for one at a time.
            String mib = "m".repeat(1024 * 1024);
            Source<StringValue> large = Source.of(8, i -> StringValue.of(mib));
            assertThat(proxy(client, server).size(large).getValue()).isEqualTo(8L * 1024 * 1024);
            assertThat(large.requested.get()).isLessThanOrEqualTo(9);
        }
    }

    @Test
    void aPublisherThatFailsCancelsTheCallAndTheCallerGetsItsError() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            Uploads uploads = proxy(client, server);
            IllegalStateException disk = new IllegalStateException("disk gone");
            Source<Int64Value> values = Source.failing(3, GrpcClientUploadStreamTest::number, disk);
            assertThatThrownBy(() -> uploads.sum(values)).isInstanceOfSatisfying(StreamException.class, e -> {
                assertThat(e.status()).isEqualTo(StatusTable.CLIENT_ERROR.status());
                assertThat(e).hasMessageContaining("/test.Upload/Sum").hasMessageContaining("the stream to send"
                        + " failed: java.lang.IllegalStateException: disk gone").hasCause(disk);
            });
            Await.until("the server sees the call cancelled", WAIT, () -> server.cancelled.get() == 1);
            assertThat(server.calls.get()).isEqualTo(1);
            assertThat(server.received.get()).isLessThanOrEqualTo(3);
            // The connection goes on.
            assertThat(uploads.sum(Source.of(3, GrpcClientUploadStreamTest::number)).getValue()).isEqualTo(6L);
        }
    }

    @Test
    void aPublisherThatGivesMoreThanAskedIsCancelledWithTheCall() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            AtomicReference<Flow.Subscription> given = new AtomicReference<>();
            Flow.Publisher<Int64Value> rogue = subscriber -> {
                Flow.Subscription subscription = new Flow.Subscription() {
                    private long next;

                    @Override
                    public void request(long n) {
                        for (long i = 0; i < n + 100 && given.get() != null; i++) { // 100 beyond what was asked
                            subscriber.onNext(number(++next));
                        }
                    }

                    @Override
                    public void cancel() {
                        given.set(null);
                    }
                };
                given.set(subscription);
                subscriber.onSubscribe(subscription);
            };
            assertThatThrownBy(() -> proxy(client, server).sum(rogue)).isInstanceOfSatisfying(RpcException.class,
                    e -> {
                        assertThat(e.status()).isEqualTo(StatusTable.CLIENT_ERROR.status());
                        assertThat(e).hasMessageContaining("more messages than it was asked for");
                    });
            Await.until("the publisher cancelled", WAIT, () -> given.get() == null);
            Await.until("the server sees the call cancelled", WAIT, () -> server.cancelled.get() == 1);
        }
    }

    @Test
    void aBidirectionalStreamEchoes1000MessagesInOrder() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            Source<Int64Value> values = Source.of(1000, GrpcClientUploadStreamTest::number);
            Collector replies = new Collector(10);
            proxy(client, server).chat(values).subscribe(replies);
            replies.awaitEnd();
            assertThat(replies.error.get()).isNull();
            assertThat(replies.completed).isTrue();
            assertThat(replies.values).hasSize(1000);
            for (int i = 0; i < 1000; i++) {
                assertThat(replies.values.get(i).getValue()).isEqualTo(i + 1);
            }
            assertThat(server.received.get()).isEqualTo(1000);
            assertThat(server.cancelled.get()).isZero();
        }
    }

    @Test
    void aBidirectionalStreamCancelledByItsReaderCancelsThePublisherAndTheServerCall() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            Source<Int64Value> values = Source.open(5, GrpcClientUploadStreamTest::number);
            Collector replies = new Collector(5);
            proxy(client, server).chat(values).subscribe(replies);
            Await.until("5 echoes", WAIT, () -> replies.values.size() == 5);
            replies.subscription.get().cancel();
            Await.until("the server sees the call cancelled", WAIT, () -> server.cancelled.get() == 1);
            Await.until("the publisher cancelled", WAIT, values.cancelled::get);
            assertThat(replies.error.get()).isNull();
            assertThat(replies.completed).isFalse();
        }
    }

    @Test
    void aServerThatStopsReadingHoldsThePublisherBackAndCallsBesideItAnswer() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            // Two connections: grpc-java gives a connection the window of one stream, so a stream it never reads
            // holds its connection's window too; the unary call beside it goes on the other connection.
            Uploads uploads = client.proxy(Uploads.class).name(UploadServer.SERVICE)
                    .protocol(GrpcClientProtocol.builder().methodNames(Uploads.NAMES).build())
                    .address(server.address()).connections(2).timeoutMillis(60_000).build();
            String kib = "k".repeat(1024);
            Source<StringValue> texts = Source.open(100_000, i -> StringValue.of(kib)); // 100 MiB offered
            CompletableFuture<Int64Value> stalled = uploads.stallAsync(texts);
            Await.until("the server has the call", WAIT, () -> server.calls.get() == 1);
            Await.until("the client stops asking", WAIT, () -> {
                long before = texts.requested.get();
                return before > 0 && Await.holdsFor(Duration.ofMillis(300), () -> texts.requested.get() == before);
            });
            // What the server's window takes (1 KiB messages), what the stream channel holds before it turns
            // unwritable (Netty's 64 KiB mark), one batch asked ahead, and slack of as much again: far below the
            // 100,000 offered.
            long bound = UploadServer.WINDOW / 1024 + 64 + 2 * RequestStream.BATCH;
            System.out.println("client stream held back after " + texts.requested.get() + " messages of 1 KiB"
                    + " asked (bound " + bound + ")");
            assertThat(texts.requested.get()).isLessThan(bound);
            assertThat(server.received.get()).isZero();
            assertThat(stalled).isNotDone();
            assertThat(uploads.echo(StringValue.of("beside")).getValue()).isEqualTo("echo:beside");

            stalled.cancel(false);
            Await.until("the server sees the call cancelled", WAIT, () -> server.cancelled.get() == 1);
            Await.until("the publisher cancelled", WAIT, texts.cancelled::get);
        }
    }

    @Test
    void theTimeoutGoesOutAsGrpcTimeoutAndEndsAClientStreamThatOutlivesIt() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            Uploads uploads = client.proxy(Uploads.class).name(UploadServer.SERVICE)
                    .protocol(GrpcClientProtocol.builder().methodNames(Uploads.NAMES).build())
                    .address(server.address()).timeoutMillis(60_000).methodTimeoutMillis("sum", 500).build();
            Source<Int64Value> values = Source.open(1, GrpcClientUploadStreamTest::number); // never ends
            assertThatThrownBy(() -> uploads.sum(values)).isInstanceOfSatisfying(TimeoutException.class,
                    e -> assertThat(e.status()).isEqualTo(StatusTable.SERVER_TIMEOUT.status()));
            assertThat(server.deadlinesMillis).singleElement()
                    .satisfies(left -> assertThat(left).isBetween(0L, 500L));
            Await.until("the server sees the call end", WAIT, () -> server.cancelled.get() == 1);
            Await.until("the publisher cancelled", WAIT, values.cancelled::get);
        }
    }

    @Test
    void aServerErrorStatusIsMapped() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            Source<Int64Value> values = Source.of(3, i -> number(i == 3 ? 4 : i)); // 1, 2, 4
            assertThatThrownBy(() -> proxy(client, server).sumAsync(values).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOfSatisfying(RemoteServiceException.class, e -> {
                        assertThat(e.status()).isEqualTo(StatusTable.SERVICE_EXPECTED_ERROR.status());
                        assertThat(e).hasMessageContaining("grpc-status 9 FAILED_PRECONDITION")
                                .hasMessageContaining("/test.Upload/Sum").hasMessageContaining("got 4 where 3");
                    });
        }
    }

    @Test
    void aClientStreamThatWasReadIsNotRetried() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            // Two addresses of the one server: fail-over would retry UNAVAILABLE (a code that says "did not run").
            String port = server.address().substring(server.address().indexOf(':') + 1);
            Uploads uploads = client.proxy(Uploads.class).name(UploadServer.SERVICE)
                    .protocol(GrpcClientProtocol.builder().methodNames(Uploads.NAMES).build())
                    .address(server.address() + ",localhost:" + port).cluster(ClusterStrategy.failOver(2))
                    .timeoutMillis(60_000).build();
            Source<Int64Value> values = Source.of(10, GrpcClientUploadStreamTest::number);
            // The retry on the other address is refused, not sent, and names the first attempt's failure.
            assertThatThrownBy(() -> uploads.refuse(values)).isInstanceOfSatisfying(RpcException.class, e -> {
                assertThat(e.status()).isEqualTo(StatusTable.CLIENT_ERROR.status());
                assertThat(e).hasMessageContaining("not sent: an earlier attempt of this call read its stream")
                        .hasMessageContaining("(a client stream is not retried)")
                        .hasMessageContaining("grpc-status 14 UNAVAILABLE: full after 3")
                        .cause().isInstanceOf(ServerBusyException.class);
            });
            assertThat(server.calls.get()).isEqualTo(1);
        }
    }

    @Test
    void aHedgeOfAClientStreamIsNotSentWhileTheFirstAttemptSendsIt() throws Exception {
        try (UploadServer server = new UploadServer();
             JupiterClient client = JupiterClient.builder().build()) {
            String port = server.address().substring(server.address().indexOf(':') + 1);
            Uploads uploads = client.proxy(Uploads.class).name(UploadServer.SERVICE)
                    .protocol(GrpcClientProtocol.builder().methodNames(Uploads.NAMES).build())
                    .address(server.address() + ",localhost:" + port).idempotent("sumAsync")
                    .hedging(HedgingPolicy.of(50, 3)).timeoutMillis(60_000).build();
            Source<Int64Value> values = Source.held(10, GrpcClientUploadStreamTest::number);
            CompletableFuture<Int64Value> sum = uploads.sumAsync(values);
            Await.until("the server read the 10", WAIT, () -> server.received.get() == 10);
            // Past the hedging delay several times over, while the first attempt still sends: no second call.
            assertThat(Await.holdsFor(Duration.ofMillis(300), () -> server.calls.get() == 1)).isTrue();
            values.release();
            assertThat(sum.get(30, TimeUnit.SECONDS).getValue()).isEqualTo(55L);
            assertThat(server.calls.get()).isEqualTo(1);
            assertThat(values.subscriptions.get()).isEqualTo(1);
        }
    }

    @Test
    void aStreamParameterOfAnotherTypeIsRefusedWhenTheProxyIsBuilt() {
        try (JupiterClient client = JupiterClient.builder().build()) {
            assertThatThrownBy(() -> client.proxy(Texts.class).name(UploadServer.SERVICE)
                    .protocol(GrpcClientProtocol.builder().build()).address("127.0.0.1:1").build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Texts.upload cannot be called over gRPC")
                    .hasMessageContaining("R m(Flow.Publisher<Q>)");
        }
    }

    /** A stream of strings, not protobuf messages. */
    public interface Texts {
        Int64Value upload(Flow.Publisher<String> texts);
    }

    /** Asks {@code batch} messages, then {@code batch} more each time they arrived. */
    private static final class Collector implements Flow.Subscriber<Int64Value> {

        private final int batch;
        final List<Int64Value> values = Collections.synchronizedList(new ArrayList<>());
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
        volatile boolean completed;
        private final CountDownLatch end = new CountDownLatch(1);
        private int sinceAsked;

        Collector(int batch) {
            this.batch = batch;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription.set(s);
            s.request(batch);
        }

        @Override
        public void onNext(Int64Value item) {
            values.add(item);
            if (++sinceAsked == batch) {
                sinceAsked = 0;
                subscription.get().request(batch);
            }
        }

        @Override
        public void onError(Throwable t) {
            error.set(t);
            end.countDown();
        }

        @Override
        public void onComplete() {
            completed = true;
            end.countDown();
        }

        void awaitEnd() throws InterruptedException {
            assertThat(end.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the stream ended").isTrue();
        }
    }
}
