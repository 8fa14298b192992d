package io.jupiter.registry.embedded;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real registry server on 127.0.0.1 and real clients: joins, leaves, crashes, restarts, several servers. */
class EmbeddedRegistryTest {

    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");

    private RegistryServer server;
    private String url;

    @BeforeEach
    void startServer() {
        server = RegistryServer.builder().host("127.0.0.1").port(0).resendMillis(200).build();
        url = "default://127.0.0.1:" + server.start().getPort();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void subscriberSeesProvidersJoinAndLeave() throws Exception {
        try (RegistryService consumer = Registries.connect(url);
             RegistryService providerA = Registries.connect(url);
             RegistryService providerB = Registries.connect(url)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));

            RegisterMeta a = new RegisterMeta(new ProviderAddress(null, 18001), SERVICE, 50, 2);
            RegisterMeta b = new RegisterMeta(new ProviderAddress("127.0.0.1", 18002), SERVICE, 20, 1);
            providerA.register(a);
            providerB.register(b);
            assertThat(providerA.awaitRegistered(5000)).isTrue();
            await(() -> seen.get().size() == 2, "both providers");
            // The server filled in the host the provider connected from.
            assertThat(seen.get()).contains(a.withAddress(new ProviderAddress("127.0.0.1", 18001)), b);
            assertThat(consumer.lookup(SERVICE)).hasSize(2);

            providerB.unregister(b);
            await(() -> seen.get().size() == 1, "B withdrawn");
            assertThat(seen.get().get(0).address().port()).isEqualTo(18001);
        }
    }

    @Test
    void providerThatDisappearsWithoutUnregisteringIsNoticed() throws Exception {
        try (RegistryService consumer = Registries.connect(url)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            RegistryService provider = Registries.connect(url);
            provider.register(new RegisterMeta(new ProviderAddress(null, 18003), SERVICE, 50, 1));
            await(() -> seen.get().size() == 1, "provider published");
            provider.close(); // the connection drops: no PUBLISH_CANCEL is sent
            await(() -> seen.get().isEmpty(), "provider noticed offline");
        }
    }

    @Test
    void lateSubscriberGetsTheFullList() throws Exception {
        try (RegistryService provider = Registries.connect(url);
             RegistryService consumer = Registries.connect(url)) {
            provider.register(new RegisterMeta(new ProviderAddress(null, 18004), SERVICE, 50, 1));
            assertThat(provider.awaitRegistered(5000)).isTrue();
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            await(() -> seen.get().size() == 1, "full list on subscribe");
        }
    }

    @Test
    void registryDownThenBackKeepsTheListAndRepublishes() throws Exception {
        int port = server.localAddress().getPort();
        try (RegistryService provider = Registries.connect(url);
             RegistryService consumer = Registries.connect(url)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            provider.register(new RegisterMeta(new ProviderAddress(null, 18005), SERVICE, 50, 1));
            await(() -> seen.get().size() == 1, "published");

            server.close();
            // Down: the consumer keeps what it knew.
            assertThat(consumer.lookup(SERVICE)).hasSize(1);

            server = RegistryServer.builder().host("127.0.0.1").port(port).resendMillis(200).build();
            server.start();
            // The provider re-publishes on its own after reconnecting.
            await(() -> server.providers(SERVICE).size() == 1, "re-published to the new server");
            // And the consumer re-subscribed: a new provider shows up.
            try (RegistryService another = Registries.connect(url)) {
                another.register(new RegisterMeta(new ProviderAddress(null, 18006), SERVICE, 50, 1));
                await(() -> seen.get().size() == 2, "new provider after the restart");
            }
        }
    }

    @Test
    void clientUsesSeveralRegistryServers() throws Exception {
        try (RegistryServer second = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            int secondPort = second.start().getPort();
            String both = url + ",127.0.0.1:" + secondPort;
            try (RegistryService provider = Registries.connect(both);
                 RegistryService consumerOfSecond = Registries.connect("default://127.0.0.1:" + secondPort)) {
                AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
                consumerOfSecond.subscribe(SERVICE, (service, providers) -> seen.set(providers));
                provider.register(new RegisterMeta(new ProviderAddress(null, 18007), SERVICE, 50, 1));
                await(() -> seen.get().size() == 1, "published on the second server");
                await(() -> server.providers(SERVICE).size() == 1, "published on the first server");
            }
        }
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(10), condition);
    }
}
