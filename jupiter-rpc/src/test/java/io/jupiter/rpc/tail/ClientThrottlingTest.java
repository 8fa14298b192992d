package io.jupiter.rpc.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.cluster.ClientThrottling;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.ThrottledException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Client-side adaptive throttling against a real provider on 127.0.0.1 whose method outlasts the callers' timeout:
 * once most calls time out, the proxy refuses most new calls itself (a ThrottledException that says so), so the
 * provider receives a few of them; as soon as it answers again, calls go through. Off by default.
 */
class ClientThrottlingTest {

    private final TailServiceImpl provider = new TailServiceImpl("p");
    private final JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
    private final JupiterClient client = JupiterClient.builder().build();
    private final String address;

    ClientThrottlingTest() {
        server.register(provider);
        address = "127.0.0.1:" + server.start().getPort();
    }

    @AfterEach
    void close() {
        client.close();
        server.close();
    }

    @Test
    void whileTheProviderTimesOutMostCallsStayHereThenCallsGoThroughAgain() throws Exception {
        TailService tail = client.proxy(TailService.class).address(address).timeoutMillis(100)
                .clientThrottling(ClientThrottling.of(200, 10_000)).build();
        assertThat(tail.whoAfter(0)).isEqualTo("p");

        long before = received();
        int throttled = 0;
        ThrottledException seen = null;
        for (int i = 0; i < 60; i++) {
            try {
                tail.whoAfter(300);
            } catch (ThrottledException e) {
                throttled++;
                seen = e;
            } catch (TimeoutException e) {
                // sent, and timed out
            }
        }
        // Sent with probability (2 x accepted + 1) / (calls + 1): about ln(60) of them, far from all.
        assertThat(received() - before).as("calls the provider received").isLessThanOrEqualTo(30);
        assertThat(throttled).isGreaterThanOrEqualTo(30);
        assertThat(seen).isInstanceOf(ServerBusyException.class);
        assertThat(seen.getMessage()).contains("throttled locally", "not sent");

        // The provider answers again: the calls that go through are accepted, and soon every call goes. The refusals
        // leave the 10 s window as it slides, so this takes a window or two whatever the machine; a call late on a
        // starved machine is not accepted and sets it back, hence the margin.
        Await.until("calls go through again", Duration.ofSeconds(90), () -> {
            for (int i = 0; i < 20; i++) {
                try {
                    whoAfter(tail, 0);
                } catch (ThrottledException | TimeoutException e) {
                    return false; // refused here, or late on a busy machine: not yet
                }
            }
            return true;
        });
    }

    @Test
    void anAsyncCallRefusedHereFailsItsFuture() throws Exception {
        TailService tail = client.proxy(TailService.class).address(address).timeoutMillis(100)
                .invokeType(InvokeType.ASYNC).clientThrottling(ClientThrottling.of(100, 10_000)).build();
        Await.until("an async call is throttled", Duration.ofSeconds(60), () -> {
            whoAfter(tail, 300);
            InvokeFuture<?> future = InvokeFutureContext.future();
            return future.handle((value, error) -> error instanceof ThrottledException).toCompletableFuture()
                    .orTimeout(60, TimeUnit.SECONDS).join(); // the 100 ms timeout ends it; 60 s: a starved timer
        });
    }

    @Test
    void offByDefaultEveryCallIsSent() throws Exception {
        TailService tail = client.proxy(TailService.class).address(address).timeoutMillis(100).build();
        long before = received();
        for (int i = 0; i < 20; i++) {
            assertThatThrownBy(() -> whoAfter(tail, 300)).isInstanceOf(TimeoutException.class);
        }
        Await.until("the provider received all 20", Duration.ofSeconds(60), () -> received() - before == 20);
    }

    /**
     * Requests the provider read. Not the calls its method ran: on a loaded machine a request can still wait for a
     * provider thread when its caller's 100 ms deadline passes or its cancel arrives, and the provider rightly drops
     * it unrun (seen at load 19: the method ran fewer than 20 in 60 s).
     */
    private long received() {
        return server.metrics().registry().histogram(MetricNames.REQUEST_SIZE).getCount();
    }

    private static String whoAfter(TailService tail, long millis) {
        try {
            return tail.whoAfter(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
