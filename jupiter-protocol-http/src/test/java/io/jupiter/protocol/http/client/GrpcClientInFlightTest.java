package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * gRPC calls count against the client's window of calls in flight ({@code JupiterClient.Builder.maxInFlight}) as
 * 1.3.1 calls do: a call beyond it waits within its timeout, then is refused {@code CLIENT_TIMEOUT} with the 1.3.1
 * path's message, unsent; a slot comes back however a call ends (answer, error, timeout, the caller's cancel).
 * Against grpc-java's own server, whose {@code Echo} never answers here.
 */
class GrpcClientInFlightTest {

    private static final int WINDOW = 2;

    @Test
    void grpcCallsHoldTheClientsInFlightSlotsAndGiveThemBackOnEveryEnd() throws Exception {
        try (EchoServer server = new EchoServer("stuck", true);
             JupiterClient client = JupiterClient.builder().maxInFlight(WINDOW).build()) {
            GrpcClientProtocol grpc = GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).build();
            // Two proxies of one client share its window: one whose calls hang for 3 s, one that waits 1 s for a slot.
            Echo slow = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc)
                    .address(server.address()).timeoutMillis(3_000).build();
            Echo quick = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc)
                    .address(server.address()).timeoutMillis(1_000).methodTimeoutMillis("big", 30_000).build();

            // Answers and errors give their slots back: many more calls than the window, one after another.
            for (int i = 0; i < 10; i++) {
                assertThat(quick.big(Int64Value.of(3)).getValue()).isEqualTo("bbb");
                assertThatThrownBy(() -> quick.deny(StringValue.of("bob"))).isInstanceOf(BadRequestException.class);
            }

            CompletableFuture<StringValue> cancelled = slow.echoAsync(StringValue.of("one"));
            CompletableFuture<StringValue> timedOut = slow.echoAsync(StringValue.of("two"));
            awaitCalls(server, 22);

            // The window is full: a third call is not sent, and says so as a 1.3.1 call does.
            assertThatThrownBy(() -> quick.echo(StringValue.of("three")))
                    .isInstanceOfSatisfying(TimeoutException.class, e -> {
                        assertThat(e.status()).isEqualTo(StatusTable.CLIENT_TIMEOUT.status());
                        assertThat(e).hasMessage("Echo.echo was not sent: all " + WINDOW + " in-flight slots of this"
                                + " client stayed taken for 1000 ms (JupiterClient.Builder.maxInFlight)");
                    });
            assertThat(server.calls.get()).isEqualTo(22);

            // The caller's cancel gives its slot back (and resets the call's stream at the server).
            cancelled.cancel(true);
            Await.until("the cancelled call reset at the server", Duration.ofSeconds(30),
                    () -> server.cancelled.get() >= 1);
            assertThat(quick.big(Int64Value.of(2)).getValue()).isEqualTo("bb");

            // A timeout gives its slot back: once it passed, both slots take calls that hang again.
            assertThatThrownBy(timedOut::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
            CompletableFuture<StringValue> again = slow.echoAsync(StringValue.of("again"));
            CompletableFuture<StringValue> andAgain = slow.echoAsync(StringValue.of("and again"));
            awaitCalls(server, 25);
            assertThatThrownBy(() -> quick.echo(StringValue.of("full again")))
                    .isInstanceOfSatisfying(TimeoutException.class, e -> assertThat(e.status())
                            .isEqualTo(StatusTable.CLIENT_TIMEOUT.status()));
            again.cancel(true);
            andAgain.cancel(true);
        }
    }

    private static void awaitCalls(EchoServer server, int calls) {
        Await.until(calls + " calls at the server", Duration.ofSeconds(30), () -> server.calls.get() >= calls);
    }
}
