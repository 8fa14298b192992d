package io.jupiter.registry.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real ZooKeeper (Curator's TestingServer, in this JVM, on 127.0.0.1) and real registry clients. */
class ZookeeperRegistryTest {

    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");

    private TestingServer zookeeper;
    private String url;

    @BeforeEach
    void startZookeeper() throws Exception {
        zookeeper = new TestingServer(true);
        url = "zookeeper://" + zookeeper.getConnectString();
    }

    @AfterEach
    void stopZookeeper() throws Exception {
        zookeeper.close();
    }

    @Test
    void usesTheNodeLayoutOf131() throws Exception {
        try (RegistryService provider = Registries.connect(url);
             CuratorFramework raw = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(),
                     new RetryOneTime(100))) {
            raw.start();
            provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18001), SERVICE, 50, 4));
            assertThat(provider.awaitRegistered(10_000)).isTrue();
            assertThat(raw.getChildren().forPath("/jupiter/provider/test/greeter/1.0.0"))
                    .containsExactly("127.0.0.1:18001:50:4");
            // A node a 1.3.1 provider wrote (weight 0 when none was set) is read as one of ours.
            raw.create().forPath("/jupiter/provider/test/greeter/1.0.0/10.0.0.9:18090:0:4");
            try (RegistryService consumer = Registries.connect(url)) {
                AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
                consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
                await(() -> seen.get().size() == 2, "both providers");
                assertThat(seen.get())
                        .contains(new RegisterMeta(new ProviderAddress("10.0.0.9", 18090), SERVICE, 0, 4));
            }
        }
    }

    @Test
    void providersJoinAndLeaveAndTheLastOneIsKept() throws Exception {
        try (RegistryService consumer = Registries.connect(url)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            RegistryService a = Registries.connect(url);
            RegistryService b = Registries.connect(url);
            a.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18002), SERVICE, 50, 1));
            b.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18003), SERVICE, 50, 1));
            await(() -> seen.get().size() == 2, "two providers");

            a.close(); // its session ends: the ephemeral node goes without an explicit unregister
            await(() -> seen.get().size() == 1, "a gone");
            assertThat(seen.get().get(0).address().port()).isEqualTo(18003);

            b.unregister(new RegisterMeta(new ProviderAddress("127.0.0.1", 18003), SERVICE, 50, 1));
            b.close();
            // Empty-push protection: the last list stays; give the watch time to fire, then check it is still there.
            try (CuratorFramework raw = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(),
                    new RetryOneTime(100))) {
                raw.start();
                await(() -> childrenOf(raw).isEmpty(), "node deleted");
            }
            RegistryService c = Registries.connect(url);
            c.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18004), SERVICE, 50, 1));
            await(() -> seen.get().size() == 1 && seen.get().get(0).address().port() == 18004, "c replaces b");
            c.close();
        }
    }

    @Test
    void survivesSessionExpiry() throws Exception {
        try (RegistryService consumer = Registries.connect(url)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            ZookeeperRegistryService provider = (ZookeeperRegistryService) Registries.connect(url);
            try (CuratorFramework raw = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(),
                    new RetryOneTime(100))) {
                raw.start();
                provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18005), SERVICE, 50, 1));
                await(() -> seen.get().size() == 1, "published");
                long firstSession = provider.curator().getZookeeperClient().getZooKeeper().getSessionId();

                KillSession.kill(provider.curator().getZookeeperClient().getZooKeeper());
                // A new session re-creates the node.
                await(() -> {
                    try {
                        return provider.curator().getZookeeperClient().getZooKeeper().getSessionId() != firstSession
                                && childrenOf(raw).contains("127.0.0.1:18005:50:1");
                    } catch (Exception e) {
                        return false;
                    }
                }, "re-registered under a new session");
                // The consumer's session expires too: it re-reads and still sees the provider.
                KillSession.kill(((ZookeeperRegistryService) consumer).curator().getZookeeperClient().getZooKeeper());
                RegistryService another = Registries.connect(url);
                another.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18006), SERVICE, 50, 1));
                await(() -> seen.get().size() == 2, "consumer follows changes after its session expired");
                another.close();
            } finally {
                provider.close();
            }
        }
    }

    @Test
    void zookeeperDownThenBackKeepsTheListAndFollowsChangesAgain() throws Exception {
        try (RegistryService consumer = Registries.connect(url);
             RegistryService provider = Registries.connect(url)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18007), SERVICE, 50, 1));
            await(() -> seen.get().size() == 1, "published");

            zookeeper.stop();
            assertThat(consumer.lookup(SERVICE)).hasSize(1);
            zookeeper.restart();

            try (RegistryService another = Registries.connect(url)) {
                another.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18008), SERVICE, 50, 1));
                await(() -> seen.get().size() == 2, "changes seen after ZooKeeper came back");
            }
        }
    }

    private static List<String> childrenOf(CuratorFramework raw) {
        try {
            return raw.getChildren().forPath("/jupiter/provider/test/greeter/1.0.0");
        } catch (Exception e) {
            return List.of("<unreadable>");
        }
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(30), condition);
    }
}
