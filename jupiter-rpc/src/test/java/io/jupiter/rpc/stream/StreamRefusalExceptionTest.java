package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.RawStreamPeer;
import io.jupiter.rpc.ServerStreamsAccess;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.security.AuthorizationRules;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Status;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #38: a stream refused at its open answers through the one error model. Its reader gets a
 * {@link StreamException} of the refusal's status whose cause is the exception a call refused for the same reason
 * gets: {@link ServerBusyException} from a busy provider, {@link ServiceNotFoundException}, {@link BadRequestException}
 * for an unauthorized caller.
 */
@Timeout(60)
class StreamRefusalExceptionTest {

    private static JupiterClient client;

    @BeforeAll
    static void startClient() {
        client = JupiterClient.builder().build();
    }

    @AfterAll
    static void stopClient() {
        client.close();
    }

    @Test
    void aBusyProviderRefusesAnOpenWithTheBusyExceptionOfACall() throws Exception {
        // One stream may hold a thread; a peer's blocking client stream holds it, so the next open is refused busy.
        try (JupiterServer busy = JupiterServer.builder().host("127.0.0.1").port(0).streamThreads(1).build()) {
            busy.register(new IntakeServiceImpl());
            busy.register(new TickServiceImpl());
            busy.start();
            int port = busy.localAddress().getPort();
            try (RawStreamPeer holder = new RawStreamPeer(port)) {
                holder.open(1, "test", "intake", "sum");
                holder.flush();
                Await.until("the peer's stream holds the one thread", Duration.ofSeconds(30),
                        () -> ServerStreamsAccess.streamsHoldingAThread(busy) == 1);

                TickService ticks = client.proxy(TickService.class).address("127.0.0.1", port).connections(1)
                        .timeoutMillis(10_000).build();
                StreamException refused = refusedOpen(ticks);
                assertThat(refused.status()).isEqualTo(Status.SERVER_BUSY);
                assertThat(refused.isSafeToRetry()).isTrue();
                assertThat(refused.getCause()).isInstanceOfSatisfying(ServerBusyException.class, busyError -> {
                    assertThat(busyError.status()).isEqualTo(Status.SERVER_BUSY);
                    assertThat(busyError.getMessage()).contains("provider busy");
                });
                assertThat(ticks.hello("calls still run")).isEqualTo("hello, calls still run");
            }
        }
    }

    @Test
    void aMissingServiceRefusesAnOpenWithTheNotFoundExceptionOfACall() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build()) {
            server.register(new IntakeServiceImpl()); // a stream service, but not the ticks
            server.start();
            TickService ticks = client.proxy(TickService.class).address("127.0.0.1", server.localAddress().getPort())
                    .connections(1).timeoutMillis(10_000).build();
            assertThatThrownBy(() -> ticks.hello("nobody")).isInstanceOf(ServiceNotFoundException.class);

            StreamException refused = refusedOpen(ticks);
            assertThat(refused.status()).isEqualTo(Status.SERVICE_NOT_FOUND);
            assertThat(refused.getCause()).isInstanceOf(ServiceNotFoundException.class);
        }
    }

    @Test
    void anUnauthorizedOpenGetsTheBadRequestExceptionOfACall() throws Exception {
        ServiceKey key = ServiceKey.of(TickService.class, ServiceKey.DEFAULT_VERSION);
        try (JupiterServer guarded = JupiterServer.builder().host("127.0.0.1").port(0)
                .callerIdentifier(connection -> CallerIdentity.of("mallory"))
                .authorizer(AuthorizationRules.builder().allow(key, "hello", "nobody").build()).build()) {
            guarded.register(new TickServiceImpl());
            guarded.start();
            TickService ticks = client.proxy(TickService.class)
                    .address("127.0.0.1", guarded.localAddress().getPort()).connections(1).timeoutMillis(10_000)
                    .build();
            assertThatThrownBy(() -> ticks.hello("mallory")).isInstanceOf(BadRequestException.class);

            StreamException refused = refusedOpen(ticks);
            assertThat(refused.status()).isEqualTo(Status.BAD_REQUEST);
            assertThat(refused.getCause()).isInstanceOf(BadRequestException.class);
        }
    }

    /** Opens a stream of {@code ticks} and waits for its end: the refusal, as its reader got it, no message before. */
    private static StreamException refusedOpen(TickService ticks) throws InterruptedException {
        Recorder<Long> reader = new Recorder<>(10);
        ticks.count(3).subscribe(reader);
        assertThat(reader.awaitEnd(30)).as("the open was answered").isTrue();
        assertThat(reader.items).isEmpty();
        assertThat(reader.error).isInstanceOf(StreamException.class);
        return (StreamException) reader.error;
    }
}
