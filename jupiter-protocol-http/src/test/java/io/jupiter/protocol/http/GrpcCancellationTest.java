package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A gRPC client's cancellation reaches the provider: a call that waits for the provider's one thread, whose client
 * cancels it (RST_STREAM) or whose deadline passes, never runs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrpcCancellationTest {

    private static final String QUEUE_TARGET = JupiterSettings.QUEUE_TARGET_MILLIS.property();

    /** A method that holds the provider's thread, and one that counts its runs. */
    public interface Queued {
        Int64Value hold(Int64Value ignored);

        Int64Value count(Int64Value ignored);
    }

    static final class QueuedImpl implements Queued {
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger counted = new AtomicInteger();

        @Override
        public Int64Value hold(Int64Value ignored) {
            held.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Int64Value.of(-1);
        }

        @Override
        public Int64Value count(Int64Value ignored) {
            return Int64Value.of(counted.incrementAndGet());
        }
    }

    private static final MethodDescriptor<Int64Value, Int64Value> HOLD = method("hold");
    private static final MethodDescriptor<Int64Value, Int64Value> COUNT = method("count");

    private static MethodDescriptor<Int64Value, Int64Value> method(String name) {
        return MethodDescriptor.<Int64Value, Int64Value>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(Queued.class.getName(), name))
                .setRequestMarshaller(new ProtoMarshaller<>(Int64Value.parser()))
                .setResponseMarshaller(new ProtoMarshaller<>(Int64Value.parser()))
                .build();
    }

    private final QueuedImpl impl = new QueuedImpl();
    private JupiterServer server;
    private ManagedChannel channel;

    /** The queued calls wait far beyond the queue's target: only the cancels may drop them, never the queue. */
    @BeforeEach
    void start() {
        System.setProperty(QUEUE_TARGET, "0");
        server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1)
                .protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(impl, Queued.class);
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.start().getPort()).usePlaintext().build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        System.clearProperty(QUEUE_TARGET);
        impl.release.countDown();
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close();
    }

    private Future<Int64Value> holdTheOneThread() throws InterruptedException {
        Future<Int64Value> held = ClientCalls.futureUnaryCall(channel.newCall(HOLD, CallOptions.DEFAULT),
                Int64Value.of(0));
        assertThat(impl.held.await(20, TimeUnit.SECONDS)).as("hold() runs on the one provider thread").isTrue();
        return held;
    }

    @Test
    void aQueuedCallTheClientCancelsNeverRuns() throws Exception {
        Future<Int64Value> held = holdTheOneThread();
        ClientCall<Int64Value, Int64Value> call = channel.newCall(COUNT, CallOptions.DEFAULT);
        Future<Int64Value> cancelled = ClientCalls.futureUnaryCall(call, Int64Value.of(0));
        Await.until("the call reached the provider's queue", Duration.ofSeconds(20),
                () -> server.metrics().registry().histogram(MetricNames.REQUEST_SIZE).getCount() == 2);
        assertThat(cancelled.cancel(true)).isTrue(); // grpc-java cancels the call: RST_STREAM
        assertThatThrownBy(cancelled::get).isInstanceOf(CancellationException.class);
        // A call after the cancel, on the same connection: once the provider has it, it has had the cancel too.
        Future<Int64Value> after = ClientCalls.futureUnaryCall(channel.newCall(COUNT, CallOptions.DEFAULT),
                Int64Value.of(0));
        Await.until("the next call reached the provider", Duration.ofSeconds(20),
                () -> server.metrics().registry().histogram(MetricNames.REQUEST_SIZE).getCount() == 3);

        impl.release.countDown();
        assertThat(held.get(20, TimeUnit.SECONDS).getValue()).isEqualTo(-1);
        assertThat(after.get(20, TimeUnit.SECONDS).getValue()).as("the cancelled call did not run first")
                .isEqualTo(1);
        assertThat(impl.counted).as("runs of count(): only the call after the cancel").hasValue(1);
        assertThat(server.metrics().registry().meter(MetricNames.CALL_CANCELLED).getCount()).isEqualTo(1);
    }

    @Test
    void aQueuedCallWhoseDeadlinePassesNeverRuns() throws Exception {
        Future<Int64Value> held = holdTheOneThread();
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, COUNT,
                CallOptions.DEFAULT.withDeadlineAfter(300, TimeUnit.MILLISECONDS), Int64Value.of(0)))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        impl.release.countDown();
        assertThat(held.get(20, TimeUnit.SECONDS).getValue()).isEqualTo(-1);
        // The next call runs after the expired one left the queue: had that one run, this would count 2.
        assertThat(ClientCalls.blockingUnaryCall(channel, COUNT, CallOptions.DEFAULT, Int64Value.of(0))
                .getValue()).isEqualTo(1);
        assertThat(impl.counted).hasValue(1);
    }
}
