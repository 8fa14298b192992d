package io.jupiter.rpc.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.BroadcastException;
import io.jupiter.rpc.exception.RemoteServiceException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Broadcast calls through a real embedded registry to three real providers on 127.0.0.1. */
class BroadcastTest {

    private static final ServiceMeta NOTICE = new ServiceMeta("test", "notice", "1.0.0");

    private RegistryServer registry;
    private JupiterClient client;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** The providers in broadcast order: by host (all 127.0.0.1), then port. */
    private final List<NoticeServiceImpl> providers = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        registry = RegistryServer.builder().host("127.0.0.1").port(0).build();
        String url = "default://127.0.0.1:" + registry.start().getPort();
        List<Object[]> started = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            NoticeServiceImpl impl = new NoticeServiceImpl(name);
            JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).registry(url).connCount(1)
                    .build();
            server.register(impl);
            int port = server.start().getPort();
            assertThat(server.awaitPublished(5000)).isTrue();
            toClose.add(server);
            started.add(new Object[] {port, impl});
        }
        started.sort(Comparator.comparingInt(s -> (Integer) s[0]));
        for (Object[] s : started) {
            ports.add((Integer) s[0]);
            providers.add((NoticeServiceImpl) s[1]);
        }
        DiscoveryTest.await(() -> registry.providers(NOTICE).size() == 3, "3 providers in the registry");
        client = JupiterClient.builder().appName("broadcast").registry(url).warmUpMillis(0).build();
        toClose.add(client);
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        registry.close();
    }

    /** Waits until the latest proxy knows all three providers, each with an open connection. */
    private void awaitAllConnected() throws InterruptedException {
        DiscoveryTest.await(() -> {
            List<ConsumedService> consumed = client.consumedServices();
            List<ConsumedService.Target> targets = consumed.get(consumed.size() - 1).targets();
            return targets.size() == 3 && targets.stream().allMatch(t -> t.activeConnections() > 0);
        }, "the proxy connected to all 3 providers");
    }

    private List<String> expected(String suffix) {
        List<String> names = new ArrayList<>();
        for (NoticeServiceImpl p : providers) {
            names.add(p.name + suffix);
        }
        return names;
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyProviderRunsTheCallOnceAndTheResultsComeInProviderOrder() throws Exception {
        NoticeService notice = client.proxy(NoticeService.class)
                .methodCluster("notify", ClusterStrategy.broadcast()).build();
        awaitAllConnected();

        Object results = notice.notify("n1").get(5, TimeUnit.SECONDS);

        assertThat(results).isInstanceOf(List.class);
        assertThat((List<Object>) results).containsExactlyElementsOf(expected(":n1"));
        for (NoticeServiceImpl p : providers) {
            assertThat(p.notices).as(p.name).containsExactly("n1");
        }
    }

    @Test
    void oneFailingProviderFailsTheBroadcastAndIsNamed() throws Exception {
        NoticeService notice = client.proxy(NoticeService.class)
                .methodCluster("notifyOrFail", ClusterStrategy.broadcast()).build();
        awaitAllConnected();
        NoticeServiceImpl failing = providers.get(1);

        assertThatThrownBy(() -> notice.notifyOrFail("n2", failing.name).get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOfSatisfying(BroadcastException.class, e -> {
                    assertThat(((InetSocketAddress) e.provider()).getPort()).isEqualTo(ports.get(1));
                    assertThat(e.getMessage()).contains("127.0.0.1:" + ports.get(1))
                            .contains("refused by " + failing.name);
                    assertThat(e.getCause()).isInstanceOf(RemoteServiceException.class);
                    assertThat(e.isSafeToRetry()).isFalse();
                });
        // The others were sent the call too and ran it, once each.
        DiscoveryTest.await(() -> providers.stream().allMatch(p -> p.notices.contains("n2")), "all ran n2");
        for (NoticeServiceImpl p : providers) {
            assertThat(p.notices).as(p.name).containsExactly("n2");
        }
    }

    @Test
    void asyncInvokeTypeBroadcastsSynchronouslyDeclaredMethods() throws Exception {
        NoticeService notice = client.proxy(NoticeService.class).invokeType(InvokeType.ASYNC)
                .cluster(ClusterStrategy.broadcast()).build();
        awaitAllConnected();

        assertThat(notice.name()).isNull();
        @SuppressWarnings("rawtypes")
        InvokeFuture<List> future = InvokeFutureContext.future(List.class);

        List<?> results = future.get(5, TimeUnit.SECONDS);
        assertThat(new ArrayList<Object>(results)).containsExactlyElementsOf(expected(""));
        for (NoticeServiceImpl p : providers) {
            assertThat(p.notices).as(p.name).containsExactly("name");
        }
    }

    @Test
    void synchronousBroadcastIsRefusedWhenTheProxyIsBuilt() {
        assertThatThrownBy(() -> client.proxy(NoticeService.class).cluster(ClusterStrategy.broadcast()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broadcast & sync unsupported")
                .hasMessageContaining("NoticeService.name");
        assertThatThrownBy(() -> client.proxy(NoticeService.class)
                .methodCluster("name", ClusterStrategy.broadcast()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broadcast & sync unsupported");
        // Refused before taking anything: no proxy, no subscription.
        assertThat(client.consumedServices()).isEmpty();
    }
}
