package io.jupiter.registry.kubernetes;

import static io.jupiter.registry.kubernetes.MockApiServer.State.READY;
import static io.jupiter.registry.kubernetes.MockApiServer.State.TERMINATING;
import static io.jupiter.registry.kubernetes.MockApiServer.State.TERMINATING_SERVING;
import static io.jupiter.registry.kubernetes.MockApiServer.State.UNREADY;
import static io.jupiter.registry.kubernetes.MockApiServer.endpoint;
import static io.jupiter.registry.kubernetes.MockApiServer.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.kubernetes.internal.KubernetesRegistryService;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The registry against fabric8's mock API server (CRUD mode, in process), faults through a real TCP proxy. */
class KubernetesRegistryTest {

    private static final ServiceMeta GREETER = new ServiceMeta("shop", "org.example.Greeter", "1.0.0");
    private static final Duration WAIT = Duration.ofSeconds(10);

    private MockApiServer api;
    private KubernetesRegistryService registry;
    private final Recorder recorder = new Recorder();

    @BeforeEach
    void start() throws Exception {
        api = new MockApiServer();
        registry = (KubernetesRegistryService) Registries.connect(api.registryUrl());
    }

    @AfterEach
    void stop() {
        // The proxy first: the mock server blocks its event loop for a while when a client closes a watch cleanly.
        api.proxy().stop();
        registry.close();
        api.close();
    }

    @Test
    void followsProvidersAsTheyAppearBecomeUnreadyTerminateAndGo() {
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY))));
        registry.subscribe(GREETER, recorder);
        awaitHosts("10.0.0.1");

        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY),
                endpoint("10.0.0.2", READY), endpoint("10.0.0.3", READY))));
        awaitHosts("10.0.0.1", "10.0.0.2", "10.0.0.3");

        // Unready: no new call within 1 s of the slice saying so.
        long changed = System.nanoTime();
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY),
                endpoint("10.0.0.2", UNREADY), endpoint("10.0.0.3", READY))));
        awaitHosts("10.0.0.1", "10.0.0.3");
        Duration seen = Duration.ofNanos(System.nanoTime() - changed);
        LoggerFactory.getLogger(KubernetesRegistryTest.class).info("unready endpoint dropped {} ms after the update",
                seen.toMillis());
        assertThat(seen).isLessThan(Duration.ofSeconds(1));

        // Terminating but still serving (the drain), then not serving, then gone: no call from the first of these.
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY),
                endpoint("10.0.0.2", READY), endpoint("10.0.0.3", TERMINATING_SERVING))));
        awaitHosts("10.0.0.1", "10.0.0.2");
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY),
                endpoint("10.0.0.2", READY), endpoint("10.0.0.3", TERMINATING))));
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY),
                endpoint("10.0.0.2", READY))));
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.2", READY))));
        awaitHosts("10.0.0.2");
        assertThat(registry.lookup(GREETER)).extracting(meta -> meta.address().host()).containsExactly("10.0.0.2");
        assertThat(recorder.sawEmpty()).isFalse();
    }

    @Test
    void aServiceSplitAcrossSeveralSlicesIsOneList() {
        registry.subscribe(GREETER, recorder);
        api.apply(slice("greeter-1", GREETER, 8080, List.of(endpoint("10.0.0.1", READY),
                endpoint("10.0.0.2", READY))));
        api.apply(slice("greeter-2", GREETER, 8080, List.of(endpoint("10.0.1.1", READY),
                endpoint("10.0.1.2", UNREADY))));
        // Another port number (pods whose named port resolves differently get their own slice).
        api.apply(slice("greeter-3", GREETER, 9090, List.of(endpoint("10.0.2.1", READY))));
        // Another service and another version of ours: not ours.
        api.apply(slice("other", new ServiceMeta("shop", "org.example.Other", "1.0.0"), 8080,
                List.of(endpoint("10.0.9.1", READY))));
        api.apply(slice("greeter-v2", new ServiceMeta("shop", "org.example.Greeter", "2.0.0"), 8080,
                List.of(endpoint("10.0.9.2", READY))));
        awaitHosts("10.0.0.1", "10.0.0.2", "10.0.1.1", "10.0.2.1");
        assertThat(registry.lookup(GREETER)).extracting(RegisterMeta::address).contains(
                new ProviderAddress("10.0.2.1", 9090), new ProviderAddress("10.0.0.1", 8080));

        api.delete("greeter-1");
        awaitHosts("10.0.1.1", "10.0.2.1");
    }

    @Test
    void weightAndConnectionsComeFromTheServiceLabels() {
        registry.subscribe(GREETER, recorder);
        api.apply(slice("greeter-canary", GREETER, 8080, List.of(endpoint("10.0.0.9", READY)),
                Map.of(ServiceLabels.WEIGHT, "10", ServiceLabels.CONNECTIONS, "3")));
        awaitHosts("10.0.0.9");
        RegisterMeta meta = registry.lookup(GREETER).get(0);
        assertThat(meta.weight()).isEqualTo(10);
        assertThat(meta.connCount()).isEqualTo(3);
    }

    @Test
    void aWatchClosedByTheServerOrExpiredIsFollowedByAFreshListAndLosesNoUpdate() {
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY))));
        registry.subscribe(GREETER, recorder);
        awaitHosts("10.0.0.1");
        Await.until("the first watch", WAIT, () -> registry.watchCount() == 1);
        // A change seen through the watch: the mock server has sent all it had (it stalls when a connection breaks
        // while it still has events to send).
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY),
                endpoint("10.0.0.2", READY))));
        awaitHosts("10.0.0.1", "10.0.0.2");

        // The connection under the watch breaks; a change made meanwhile is in the fresh list or the new watch.
        api.proxy().cut();
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.2", READY))));
        awaitHosts("10.0.0.2");
        Await.until("a second list and watch", WAIT, () -> registry.listCount() >= 2 && registry.watchCount() >= 2);
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.2", READY),
                endpoint("10.0.0.3", READY))));
        awaitHosts("10.0.0.2", "10.0.0.3");

        // The next watch gets 410 Gone (its resource version is too old): list again; a change made meanwhile is
        // in that list.
        long lists = registry.listCount();
        api.goneOnNextWatches(1);
        api.proxy().cut();
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.3", READY),
                endpoint("10.0.0.4", READY))));
        awaitHosts("10.0.0.3", "10.0.0.4");
        Await.until("a 410 served, then listed again", WAIT,
                () -> api.goneServed() == 1 && registry.listCount() >= lists + 2);
        assertThat(recorder.sawEmpty()).isFalse();
    }

    @Test
    void keepsTheLastListWhileTheApiServerIsDownAndCatchesUpWhenItIsBack() throws Exception {
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY))));
        registry.subscribe(GREETER, recorder);
        awaitHosts("10.0.0.1");
        Await.until("watching", WAIT, () -> registry.watchCount() == 1);
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY),
                endpoint("10.0.0.3", READY))));
        awaitHosts("10.0.0.1", "10.0.0.3");

        api.proxy().stop();
        // While it is down, providers change.
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.2", READY))));
        assertThat(Await.holdsFor(Duration.ofMillis(1500), () -> hosts().equals(Set.of("10.0.0.1", "10.0.0.3"))))
                .isTrue();
        assertThat(registry.lookup(GREETER)).hasSize(2);

        api.proxy().start();
        awaitHosts("10.0.0.2");
        assertThat(recorder.sawEmpty()).isFalse();
    }

    @Test
    void noCallableEndpointLeftKeepsTheLastList() {
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", READY))));
        registry.subscribe(GREETER, recorder);
        awaitHosts("10.0.0.1");
        api.apply(slice("greeter-a", GREETER, 8080, List.of(endpoint("10.0.0.1", UNREADY))));
        api.delete("greeter-a");
        api.apply(slice("other", new ServiceMeta("shop", "org.example.Other", "1.0.0"), 8080,
                List.of(endpoint("10.0.9.1", READY))));
        // The slice of the other service arriving proves the deletes before it were seen.
        ServiceMeta other = new ServiceMeta("shop", "org.example.Other", "1.0.0");
        Recorder otherRecorder = new Recorder();
        registry.subscribe(other, otherRecorder);
        Await.until("the other service", WAIT, () -> otherRecorder.last().size() == 1);
        assertThat(hosts()).containsExactly("10.0.0.1");
        assertThat(recorder.sawEmpty()).isFalse();
    }

    @Test
    void providersPublishNothingAndNeedNoApiServer() throws Exception {
        try (RegistryService provider = Registries.connect("kubernetes://shop?apiServer=http://127.0.0.1:1")) {
            RegisterMeta meta = new RegisterMeta(new ProviderAddress("10.0.0.1", 8080), GREETER, 50, 1);
            provider.register(meta);
            assertThat(provider.awaitRegistered(1)).isTrue();
            provider.unregister(meta);
            assertThat(provider.scheme()).isEqualTo("kubernetes");
        }
    }

    @Test
    void badInputIsRejectedWithAClearMessage() {
        assertThatThrownBy(() -> registry.subscribe(new ServiceMeta("shop", "org.example.Outer$Inner", "1.0.0"),
                recorder)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("label value");
        assertThatThrownBy(() -> Registries.connect("kubernetes://Shop")).hasMessageContaining("namespace");
        assertThatThrownBy(() -> Registries.connect("kubernetes://shop?port=x")).hasMessageContaining("portName");
        assertThatThrownBy(() -> Registries.connect("kubernetes://shop?apiServer=ftp://x"))
                .hasMessageContaining("apiServer");
        assertThat(KubernetesTarget.parse("shop?portName=rpc")).isEqualTo(new KubernetesTarget("shop", "rpc", null));
    }

    private void awaitHosts(String... expected) {
        Set<String> want = Set.of(expected);
        Await.until("providers " + want + " (last: " + recorder.last() + ")", WAIT, () -> hosts().equals(want));
    }

    private Set<String> hosts() {
        return recorder.last().stream().map(meta -> meta.address().host()).collect(Collectors.toSet());
    }

    /** Every list the registry reported. */
    static final class Recorder implements NotifyListener {

        private final List<List<RegisterMeta>> lists = new CopyOnWriteArrayList<>();

        @Override
        public void providersChanged(ServiceMeta service, List<RegisterMeta> providers) {
            lists.add(providers);
        }

        List<RegisterMeta> last() {
            return lists.isEmpty() ? List.of() : lists.get(lists.size() - 1);
        }

        boolean sawEmpty() {
            return lists.stream().anyMatch(List::isEmpty);
        }
    }
}
