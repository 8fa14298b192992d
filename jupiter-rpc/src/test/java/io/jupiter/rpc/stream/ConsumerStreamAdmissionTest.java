package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.security.AuthorizationRules;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: client and bidirectional streams go through the same open as a server stream: the server's
 * {@code Authorizer} with the connection's caller before anything is read (the consumer's producer never starts),
 * and the interceptors of both sides at the open and at the end, with the consumer's attachments.
 */
@Timeout(60)
class ConsumerStreamAdmissionTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ServiceKey INTAKE = ServiceKey.of(IntakeService.class, ServiceKey.DEFAULT_VERSION);

    @Test
    void anUnauthorizedCallerIsRefusedAtTheOpenAndNothingIsSent() throws Exception {
        IntakeServiceImpl impl = new IntakeServiceImpl();
        try (JupiterServer guarded = JupiterServer.builder().host("127.0.0.1").port(0)
                .callerIdentifier(connection -> CallerIdentity.of("mallory"))
                .authorizer(AuthorizationRules.builder().allow(INTAKE, "hello", "mallory").build()).build();
             JupiterClient client = JupiterClient.builder().build()) {
            guarded.register(impl);
            guarded.start();
            IntakeService proxy = client.proxy(IntakeService.class).address("127.0.0.1",
                    guarded.localAddress().getPort()).connections(1).timeoutMillis(10_000).build();

            Sender upload = new Sender(100, 4);
            assertThatThrownBy(() -> proxy.stall(upload.publisher, 5).join()).cause()
                    .isInstanceOfSatisfying(StreamException.class, e -> {
                        assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                        assertThat(e.getMessage()).contains("caller mallory is not authorized to call " + INTAKE
                                + ".stall");
                    });

            Sender both = new Sender(100, 4);
            Recorder<Long> reader = new Recorder<>(10);
            proxy.both(both.publisher, 5).subscribe(reader);
            assertThat(reader.awaitEnd(10)).isTrue();
            assertThat(reader.error).isInstanceOfSatisfying(StreamException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                assertThat(e.getMessage()).contains("caller mallory is not authorized to call " + INTAKE + ".both");
            });
            assertThat(impl.latest.get()).as("neither method ran").isNull();
            assertThat(upload.started.get() || both.started.get()).as("no producer of the consumer ran").isFalse();
            assertThat(proxy.hello("m")).isEqualTo("hello, m");
        }
    }

    /** Not a valid stream service: a method may take at most one stream. */
    @ServiceProvider(group = "test", name = "two-streams")
    public interface TwoStreams {
        long merge(Flow.Publisher<Long> left, Flow.Publisher<Long> right);
    }

    @Test
    void aMethodThatTakesTwoStreamsIsRefusedOnBothSides() {
        TwoStreams impl = (left, right) -> 0L;
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            assertThatThrownBy(() -> server.register(impl, TwoStreams.class))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("merge").hasMessageContaining("at most one Flow.Publisher parameter");
            assertThat(server.providedServices()).as("nothing was registered").isEmpty();
            assertThatThrownBy(() -> client.proxy(TwoStreams.class).address("127.0.0.1", 1).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at most one Flow.Publisher parameter");
        }
    }

    @Test
    void theInterceptorsOfBothSidesSeeTheOpenAndTheEndAndTheAttachmentsTravel() {
        List<String> provider = new CopyOnWriteArrayList<>();
        List<String> consumer = new CopyOnWriteArrayList<>();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .callerIdentifier(connection -> CallerIdentity.of("alice"))
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        provider.add("before " + invocation.methodName() + " by " + invocation.caller() + " trace "
                                + invocation.attachment("trace"));
                    }

                    @Override
                    public void afterInvoke(Invocation invocation, Object result, Throwable error) {
                        provider.add("after " + invocation.methodName() + " " + invocation.status());
                    }
                }).build();
             JupiterClient client = JupiterClient.builder().interceptor(new Interceptor() {
                 @Override
                 public void beforeInvoke(Invocation invocation) {
                     consumer.add("before " + invocation.methodName());
                     invocation.attach("trace", "t-" + invocation.methodName());
                 }

                 @Override
                 public void afterInvoke(Invocation invocation, Object result, Throwable error) {
                     consumer.add("after " + invocation.methodName() + " " + invocation.status());
                 }
             }).build()) {
            server.register(new IntakeServiceImpl());
            server.start();
            IntakeService proxy = client.proxy(IntakeService.class).address("127.0.0.1",
                    server.localAddress().getPort()).connections(1).timeoutMillis(10_000).build();

            assertThat(proxy.sum(new Sender(10, 4).publisher)).isEqualTo(45L);
            List<String> shouted = new ArrayList<>();
            try (StreamIterator<String> it = Streams.iterate(proxy.shout(Streams.produce(sink -> sink.send("a"))))) {
                it.forEachRemaining(shouted::add);
            }
            assertThat(shouted).containsExactly("A");

            Await.until("both sides' afterInvoke", WAIT, () -> consumer.size() == 4 && provider.size() == 4);
            assertThat(consumer).containsExactly("before sum", "after sum OK", "before shout", "after shout OK");
            // The provider's end of one stream may be recorded after the next stream's open reached it.
            assertThat(provider).containsExactlyInAnyOrder("before sum by alice trace t-sum", "after sum OK",
                    "before shout by alice trace t-shout", "after shout OK");
            assertThat(provider.indexOf("before sum by alice trace t-sum"))
                    .isLessThan(provider.indexOf("after sum OK"));
            assertThat(provider.indexOf("before shout by alice trace t-shout"))
                    .isLessThan(provider.indexOf("after shout OK"));
        }
    }
}
