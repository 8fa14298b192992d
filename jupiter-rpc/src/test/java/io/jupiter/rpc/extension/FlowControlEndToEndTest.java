package io.jupiter.rpc.extension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.GateServiceAccess;
import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.flow.FlowControlFilter;
import io.jupiter.rpc.flow.FlowLimiters;
import io.jupiter.transport.Status;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Flow limits hit and released, per method, per service and application-wide, over real sockets. */
class FlowControlEndToEndTest {

    private JupiterServer server;
    private JupiterClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private GateServiceAccess start(JupiterServer.Builder builder, int expectedEntries) {
        GateServiceAccess gate = new GateServiceAccess(expectedEntries);
        server = builder.host("127.0.0.1").port(0).providerThreads(8).build();
        gate.register(server);
        gate.address = "127.0.0.1:" + server.start().getPort();
        client = JupiterClient.builder().build();
        return gate;
    }

    @Test
    void aMethodsConcurrencyLimitRefusesWithARetryableStatusAndReadmitsAfterRelease() throws Exception {
        ServiceKey key = GateServiceAccess.KEY;
        GateServiceAccess gate = start(JupiterServer.builder().interceptor(FlowControlFilter.builder()
                .method(key, "pass", FlowLimiters.maxConcurrent(2)).build()), 2);
        GateServiceAccess.Gate async = gate.proxy(client, InvokeType.ASYNC);
        async.pass("a");
        InvokeFuture<String> first = InvokeFutureContext.future(String.class);
        async.pass("b");
        InvokeFuture<String> second = InvokeFutureContext.future(String.class);
        gate.awaitEntered();

        GateServiceAccess.Gate sync = gate.proxy(client, InvokeType.SYNC);
        assertThatThrownBy(() -> sync.pass("c")).isInstanceOfSatisfying(FlowControlException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.PROVIDER_FLOW_CONTROL);
            assertThat(e.isSafeToRetry()).isTrue();
            assertThat(e).hasMessageContaining("maxConcurrent(2");
        });

        gate.open();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("passed a");
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("passed b");
        // Released once the responses were written; the consumer may see a response a moment before that.
        assertThat(retryWhileRefused(() -> sync.pass("d"))).isEqualTo("passed d");
    }

    @Test
    void aServiceRateLimitRefusesOnceItsBucketIsEmpty() {
        GateServiceAccess gate = start(JupiterServer.builder().interceptor(FlowControlFilter.builder()
                .service(GateServiceAccess.KEY, FlowLimiters.tokenBucket(0.1, 2)).build()), 1);
        gate.open();
        GateServiceAccess.Gate sync = gate.proxy(client, InvokeType.SYNC);
        assertThat(sync.pass("1")).isEqualTo("passed 1");
        assertThat(sync.pass("2")).isEqualTo("passed 2");
        assertThatThrownBy(() -> sync.pass("3")).isInstanceOf(FlowControlException.class)
                .hasMessageContaining("tokenBucket");
    }

    @Test
    void theApplicationLimitRefusesBeforeReadingTheRequest() throws Exception {
        GateServiceAccess gate = start(JupiterServer.builder().appFlowLimiter(FlowLimiters.maxConcurrent(1)), 1);
        GateServiceAccess.Gate async = gate.proxy(client, InvokeType.ASYNC);
        async.pass("a");
        InvokeFuture<String> first = InvokeFutureContext.future(String.class);
        gate.awaitEntered();

        GateServiceAccess.Gate sync = gate.proxy(client, InvokeType.SYNC);
        assertThatThrownBy(() -> sync.pass("b")).isInstanceOfSatisfying(FlowControlException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.APP_FLOW_CONTROL);
            assertThat(e.isSafeToRetry()).isTrue();
        });
        gate.open();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("passed a");
        assertThat(retryWhileRefused(() -> sync.pass("c"))).isEqualTo("passed c");
    }

    /** Retries a call refused by flow control, within 10 s; any other outcome is returned or thrown at once. */
    private static String retryWhileRefused(Supplier<String> call) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return call.get();
            } catch (FlowControlException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.yield();
            } catch (RpcException e) {
                throw e;
            }
        }
    }
}
