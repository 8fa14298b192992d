package io.jupiter.rpc.extension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.context.RpcContext;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.jupiter.transport.Status;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Interceptors and filters on both sides, over real sockets: their order, what they see, attachments both ways. */
class InterceptorEndToEndTest {

    private static final ServiceKey KEY = new ServiceKey("test", "context", "1.0.0");
    private static final ServiceKey DOWNSTREAM = new ServiceKey("test", "context", "down");

    private final List<String> consumerEvents = new CopyOnWriteArrayList<>();
    private final List<String> providerEvents = new CopyOnWriteArrayList<>();
    private final ContextService.Impl upstream = new ContextService.Impl();
    private Recorder providerService;
    private Recorder consumerProxy;
    private JupiterServer server;
    private JupiterClient client;
    private JupiterClient relayClient;
    private String address;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .interceptor(new Recorder("p-global", providerEvents))
                .interceptor(new Recorder("p-high", providerEvents, 100, Side.PROVIDER))
                .interceptor(new Recorder("p-consumer-only", providerEvents, 0, Side.CONSUMER))
                .build();
        server.register(upstream, ContextService.class, KEY);
        server.register(new ContextService.Impl(), ContextService.class, DOWNSTREAM);
        providerService = new Recorder("p-service", providerEvents);
        server.intercept(KEY, providerService, new Recorder("p-service-first", providerEvents, 50, Side.BOTH),
                new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        invocation.attach("hop", "upstream");
                    }
                });
        address = "127.0.0.1:" + server.start().getPort();
        // No deadline attachment (sent by default since issue #35): the attachments seen are exactly the chain's.
        client = JupiterClient.builder().appName("chain-test").propagateDeadline(false)
                .interceptor(new Recorder("c-global", consumerEvents))
                .build();
        relayClient = JupiterClient.builder().appName("relay").propagateDeadline(false).build();
        upstream.downstream = relayClient.proxy(ContextService.class).address(address).version("down")
                .timeoutMillis(10_000).build();
    }

    @AfterEach
    void stop() {
        client.close();
        relayClient.close();
        server.close();
    }

    private ContextService proxy(InvokeType type) {
        consumerProxy = new Recorder("c-proxy", consumerEvents);
        return client.proxy(ContextService.class).address(address).invokeType(type).timeoutMillis(10_000)
                .interceptor(consumerProxy)
                .interceptor(new Recorder("c-high", consumerEvents, 10, Side.CONSUMER))
                .interceptor(new Recorder("c-provider-only", consumerEvents, 0, Side.PROVIDER))
                .build();
    }

    private static final List<String> CONSUMER_ORDER = List.of("c-high:before", "c-global:before", "c-proxy:before",
            "c-proxy:after:OK", "c-global:after:OK", "c-high:after:OK");
    private static final List<String> PROVIDER_ORDER = List.of("p-high:before", "p-service-first:before",
            "p-global:before", "p-service:before", "p-service:after:OK", "p-global:after:OK",
            "p-service-first:after:OK", "p-high:after:OK");

    @Test
    void syncCallRunsBothChainsInPriorityOrderAndCarriesTheConsumersAttachments() {
        Map<String, String> seen = proxy(InvokeType.SYNC).attachments();

        assertThat(seen).containsEntry("by-c-high", "attachments").containsEntry("by-c-global", "attachments")
                .containsEntry("by-c-proxy", "attachments").containsEntry("hop", "upstream")
                .doesNotContainKey("jupiter.timeout");
        assertThat(consumerEvents).containsExactlyElementsOf(CONSUMER_ORDER);
        await(() -> providerEvents.size() == PROVIDER_ORDER.size());
        assertThat(providerEvents).containsExactlyElementsOf(PROVIDER_ORDER);

        Invocation consumerSide = consumerProxy.finished.get(0);
        assertThat(consumerSide.side()).isEqualTo(Side.CONSUMER);
        assertThat(consumerSide.service()).isEqualTo(KEY);
        assertThat(consumerSide.methodName()).isEqualTo("attachments");
        assertThat(consumerSide.appName()).isEqualTo("chain-test");
        assertThat(consumerSide.status()).isEqualTo(Status.OK);
        assertThat(consumerSide.requestBytes()).isPositive();
        assertThat(consumerSide.elapsedNanos()).isPositive();
        assertThat(((InetSocketAddress) consumerSide.remoteAddress()).getPort())
                .isEqualTo(Integer.parseInt(address.substring(address.indexOf(':') + 1)));
        assertThat(consumerProxy.results).containsExactly(seen);

        Invocation providerSide = providerService.finished.get(0);
        assertThat(providerSide.side()).isEqualTo(Side.PROVIDER);
        assertThat(providerSide.appName()).isEqualTo("chain-test");
        assertThat(providerSide.attachment("by-c-proxy")).isEqualTo("attachments");
        assertThat(providerSide.requestBytes()).isEqualTo(consumerSide.requestBytes());
        assertThat(providerSide.remoteAddress()).isNotNull();
        assertThat(providerSide.remainingMillis()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void futureAndAsyncCallsRunTheAfterHooksBeforeTheCallerSeesTheResult() throws Exception {
        CompletableFuture<Map<String, String>> future = proxy(InvokeType.SYNC).attachmentsLater();
        assertThat(future.get(10, TimeUnit.SECONDS)).containsEntry("by-c-proxy", "attachmentsLater");
        assertThat(consumerEvents).containsExactlyElementsOf(CONSUMER_ORDER);

        consumerEvents.clear();
        ContextService async = proxy(InvokeType.ASYNC);
        assertThat(async.attachments()).isNull();
        Object seen = InvokeFutureContext.future(Map.class).get(10, TimeUnit.SECONDS);
        assertThat(seen).isEqualTo(Map.of("by-c-high", "attachments", "by-c-global", "attachments",
                "by-c-proxy", "attachments", "hop", "upstream"));
        assertThat(consumerEvents).containsExactlyElementsOf(CONSUMER_ORDER);
    }

    @Test
    void afterHooksSeeTheFailureOnBothSides() {
        ContextService service = proxy(InvokeType.SYNC);
        assertThatThrownBy(() -> service.fail("boom")).isInstanceOf(RemoteServiceException.class)
                .hasMessageContaining("boom");
        assertThat(consumerEvents).endsWith("c-high:after:SERVICE_UNEXPECTED_ERROR");
        assertThat(consumerProxy.errors).singleElement().isInstanceOf(RemoteServiceException.class);
        await(() -> providerEvents.size() == PROVIDER_ORDER.size());
        assertThat(providerEvents).endsWith("p-high:after:SERVICE_UNEXPECTED_ERROR");
        assertThat(providerService.errors).singleElement().isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aConsumerInterceptorThatThrowsStopsTheCallAndOnlyTheInterceptorsThatRanSeeTheEnd() {
        List<String> events = new CopyOnWriteArrayList<>();
        Recorder first = new Recorder("first", events, 5, Side.CONSUMER);
        Recorder last = new Recorder("last", events, -5, Side.CONSUMER);
        ContextService service = client.proxy(ContextService.class).address(address).timeoutMillis(10_000)
                .interceptor(last).interceptor(first)
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        throw new SecurityException("denied " + invocation.methodName());
                    }
                })
                .build();
        assertThatThrownBy(service::attachments).isInstanceOf(SecurityException.class)
                .hasMessage("denied attachments");
        assertThat(events).containsExactly("first:before", "first:after:CLIENT_ERROR");
        assertThat(providerEvents).isEmpty();
    }

    @Test
    void aProviderInterceptorThatThrowsRefusesTheRequestWithoutRunningIt() {
        ContextService.Impl impl = new ContextService.Impl();
        ServiceKey guarded = new ServiceKey("test", "context", "guarded");
        server.register(impl, ContextService.class, guarded);
        server.intercept(guarded, new Interceptor() {
            @Override
            public void beforeInvoke(Invocation invocation) {
                if (!"secret".equals(invocation.attachment("token"))) {
                    throw new SecurityException("no token");
                }
            }
        });
        ContextService service = relayClient.proxy(ContextService.class).address(address).version("guarded")
                .timeoutMillis(10_000).build();
        assertThatThrownBy(service::attachments).isInstanceOf(RemoteServiceException.class)
                .hasMessageContaining("no token")
                .satisfies(e -> assertThat(((RemoteServiceException) e).status())
                        .isEqualTo(Status.SERVICE_UNEXPECTED_ERROR));
        try (RpcContext.Scope ignored = RpcContext.attach("token", "secret")) {
            assertThat(service.attachments()).containsEntry("token", "secret");
        }
        assertThatThrownBy(service::attachments).hasMessageContaining("no token");
    }

    @Test
    void aProviderCarriesItsRequestsAttachmentsOnToTheCallsItMakes() {
        ContextService service = proxy(InvokeType.SYNC);
        Map<String, String> downstreamSaw;
        try (RpcContext.Scope ignored = RpcContext.attach("tenant", "acme")) {
            downstreamSaw = service.relay();
        }
        // From the caller's scope, from the consumer's interceptors, and from the upstream provider's interceptor.
        assertThat(downstreamSaw).containsEntry("tenant", "acme").containsEntry("by-c-proxy", "relay")
                .containsEntry("hop", "upstream");
        // The scope is closed: the next call carries no tenant.
        assertThat(service.attachments()).doesNotContainKey("tenant");
        assertThat(RpcContext.attachments()).isEmpty();
    }

    static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
