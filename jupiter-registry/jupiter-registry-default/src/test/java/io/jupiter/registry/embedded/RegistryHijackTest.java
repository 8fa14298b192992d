package io.jupiter.registry.embedded;

import static io.jupiter.registry.embedded.EmbeddedRegistryTest.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.RawRegistryPeer.RawFrame;
import io.jupiter.registry.embedded.internal.PushData;
import io.jupiter.registry.embedded.internal.RegistryFrames;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Attacks on a registry without a secret, from raw sockets on 127.0.0.1: what a peer may change is only what it
 * published itself, from its own address, within the caps.
 */
class RegistryHijackTest {

    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");
    private static final ServiceMeta OTHER = new ServiceMeta("test", "other", "1.0.0");

    private RegistryServer server;

    private InetSocketAddress start(RegistryServer.Builder builder) {
        server = builder.host("127.0.0.1").port(0).resendMillis(200).build();
        return server.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aForgedWithdrawalFromAnotherConnectionIsIgnored() throws Exception {
        InetSocketAddress address = start(RegistryServer.builder());
        RegisterMeta legit = new RegisterMeta(new ProviderAddress("127.0.0.1", 18001), SERVICE, 50, 1);
        try (RegistryService provider = Registries.connect("default://127.0.0.1:" + address.getPort());
             RawRegistryPeer attacker = new RawRegistryPeer(address)) {
            provider.register(legit);
            assertThat(provider.awaitRegistered(5000)).isTrue();

            // The same service and address, from the same host, on another connection: acknowledged, not obeyed.
            long cancel = attacker.send(RegistryFrames.PUBLISH_CANCEL_SERVICE, legit);
            attacker.awaitAckOf(cancel);
            long cancelEmptyHost = attacker.send(RegistryFrames.PUBLISH_CANCEL_SERVICE,
                    legit.withAddress(new ProviderAddress("", 18001)));
            attacker.awaitAckOf(cancelEmptyHost);
            // And an offline notice sent to the registry is not the registry's to obey.
            attacker.send(RegistryFrames.OFFLINE_NOTICE, legit.address());
            long subscribe = attacker.send(RegistryFrames.SUBSCRIBE_SERVICE, SERVICE);
            RawFrame full = attacker.read();
            assertThat(((PushData) full.message().data()).providers()).isEqualTo(List.of(legit));
            attacker.ack(full.message().sequence());
            attacker.awaitAckOf(subscribe);
            assertThat(server.providers(SERVICE)).containsExactly(legit);
        }
    }

    @Test
    void anOfflineNoticeCoversOnlyAddressesNoOtherConnectionPublishes() throws Exception {
        InetSocketAddress address = start(RegistryServer.builder());
        String url = "default://127.0.0.1:" + address.getPort();
        RegisterMeta legit = new RegisterMeta(new ProviderAddress("127.0.0.1", 18002), SERVICE, 50, 1);
        try (RegistryService provider = Registries.connect(url);
             RegistryService consumer = Registries.connect(url)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            provider.register(legit);
            await(() -> seen.get().size() == 1, "the legitimate provider");

            // A peer on the same host publishes another service at the same address, then drops its connection:
            // its publication goes, and no offline notice names the address the legitimate provider still holds.
            try (RawRegistryPeer attacker = new RawRegistryPeer(address)) {
                long publish = attacker.send(RegistryFrames.PUBLISH_SERVICE, new RegisterMeta(legit.address(), OTHER,
                        50, 1));
                attacker.awaitAckOf(publish);
            }
            await(() -> server.providers(OTHER).isEmpty(), "the dropped peer's publication withdrawn");
            // Anything the registry sent the consumer before this push has been applied once the push shows.
            try (RegistryService later = Registries.connect(url)) {
                later.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18003), SERVICE, 50, 1));
                await(() -> seen.get().size() == 2, "a later provider");
            }
            assertThat(seen.get()).contains(legit);
        }
    }

    @Test
    void aRestartedProviderReplacesItsPublicationAndTheOldConnectionsCloseKeepsIt() throws Exception {
        InetSocketAddress address = start(RegistryServer.builder());
        RegisterMeta meta = meta(18008);
        try (RawRegistryPeer restarted = new RawRegistryPeer(address)) {
            try (RawRegistryPeer old = new RawRegistryPeer(address)) {
                old.awaitAckOf(old.send(RegistryFrames.PUBLISH_SERVICE, meta));
                old.awaitAckOf(old.send(RegistryFrames.SUBSCRIBE_SERVICE, OTHER)); // to see when its close is handled
                restarted.awaitAckOf(restarted.send(RegistryFrames.PUBLISH_SERVICE, meta));
            }
            await(() -> server.subscribers().isEmpty(), "the old connection's close handled");
            assertThat(server.providers(SERVICE)).containsExactly(meta);
            // And the new owner may withdraw it.
            restarted.awaitAckOf(restarted.send(RegistryFrames.PUBLISH_CANCEL_SERVICE, meta));
            assertThat(server.providers(SERVICE)).isEmpty();
        }
    }

    @Test
    void aPublishedHostMustBeThePeersOwnAddress() throws Exception {
        InetSocketAddress address = start(RegistryServer.builder());
        try (RawRegistryPeer attacker = new RawRegistryPeer(address)) {
            attacker.send(RegistryFrames.PUBLISH_SERVICE,
                    new RegisterMeta(new ProviderAddress("10.9.8.7", 18004), SERVICE, 50, 1));
            attacker.send(RegistryFrames.PUBLISH_SERVICE,
                    new RegisterMeta(new ProviderAddress("evil.example.com", 18004), SERVICE, 50, 1));
            // Neither acknowledged: the first ACK is the wildcard one's, filled in with the peer's address.
            long wildcard = attacker.send(RegistryFrames.PUBLISH_SERVICE,
                    new RegisterMeta(new ProviderAddress("0.0.0.0", 18005), SERVICE, 50, 1));
            attacker.awaitAckOf(wildcard);
            long own = attacker.send(RegistryFrames.PUBLISH_SERVICE,
                    new RegisterMeta(new ProviderAddress("127.0.0.1", 18006), SERVICE, 50, 1));
            attacker.awaitAckOf(own);
            assertThat(server.providers(SERVICE)).extracting(RegisterMeta::address).containsExactly(
                    new ProviderAddress("127.0.0.1", 18005), new ProviderAddress("127.0.0.1", 18006));
        }
    }

    @Test
    void anyHostWhenTheRegistryAllowsIt() throws Exception {
        InetSocketAddress address = start(RegistryServer.builder().allowAnyPublishedHost(true));
        try (RawRegistryPeer behindNat = new RawRegistryPeer(address)) {
            RegisterMeta meta = new RegisterMeta(new ProviderAddress("10.9.8.7", 18007), SERVICE, 50, 1);
            behindNat.awaitAckOf(behindNat.send(RegistryFrames.PUBLISH_SERVICE, meta));
            assertThat(server.providers(SERVICE)).containsExactly(meta);
        }
    }

    @Test
    void publicationsAndSubscriptionsAreCappedPerConnection() throws Exception {
        InetSocketAddress address = start(RegistryServer.builder().maxPublicationsPerConnection(2)
                .maxSubscriptionsPerConnection(2));
        try (RawRegistryPeer peer = new RawRegistryPeer(address)) {
            peer.awaitAckOf(peer.send(RegistryFrames.PUBLISH_SERVICE, meta(18010)));
            peer.awaitAckOf(peer.send(RegistryFrames.PUBLISH_SERVICE, meta(18011)));
            // Publishing one of its own again (a new weight) is no new publication.
            peer.awaitAckOf(peer.send(RegistryFrames.PUBLISH_SERVICE, new RegisterMeta(
                    new ProviderAddress("127.0.0.1", 18011), SERVICE, 20, 1)));
            peer.send(RegistryFrames.PUBLISH_SERVICE, meta(18012)); // refused: never acknowledged

            peer.awaitAckOf(peer.send(RegistryFrames.SUBSCRIBE_SERVICE, new ServiceMeta("test", "a", "1")));
            peer.awaitAckOf(peer.send(RegistryFrames.SUBSCRIBE_SERVICE, new ServiceMeta("test", "b", "1")));
            peer.send(RegistryFrames.SUBSCRIBE_SERVICE, new ServiceMeta("test", "c", "1")); // refused
            // The connection stays usable: withdrawing one of its own is acknowledged first.
            peer.awaitAckOf(peer.send(RegistryFrames.PUBLISH_CANCEL_SERVICE, meta(18010)));
            assertThat(server.providers(SERVICE)).extracting(m -> m.address().port()).containsExactly(18011);
            assertThat(server.subscribers()).hasSize(1);
        }
    }

    @Test
    void aSubscriberThatNeverAcknowledgesIsClosedAtTheCap() throws Exception {
        InetSocketAddress address = start(RegistryServer.builder().maxUnackedPushesPerConnection(3));
        try (RawRegistryPeer silent = new RawRegistryPeer(address);
             RegistryService provider = Registries.connect("default://127.0.0.1:" + address.getPort())) {
            silent.send(RegistryFrames.SUBSCRIBE_SERVICE, SERVICE); // its full-list push is the first unacked
            await(() -> server.subscribers().size() == 1, "subscribed");
            for (int port = 18020; port < 18025; port++) {
                provider.register(meta(port));
            }
            silent.awaitClosed(Duration.ofSeconds(10));
            await(() -> server.subscribers().isEmpty(), "the silent subscriber dropped");
            // register() returns before the registry has it: wait for all five rather than read a count mid-way.
            await(() -> server.providers(SERVICE).size() == 5, "every publication kept");
            assertThat(server.providers(SERVICE)).extracting(m -> m.address().port())
                    .containsExactlyInAnyOrder(18020, 18021, 18022, 18023, 18024);
        }
    }

    @Test
    void aStringLongerThanTheCapClosesTheConnection() throws Exception {
        InetSocketAddress address = start(RegistryServer.builder());
        try (RawRegistryPeer peer = new RawRegistryPeer(address)) {
            String huge = "x".repeat(RegistryServer.MAX_STRING_BYTES + 1);
            peer.send(RegistryFrames.SUBSCRIBE_SERVICE, new ServiceMeta("test", huge, "1"));
            peer.awaitClosed(Duration.ofSeconds(10));
        }
        assertThat(server.subscribers()).isEmpty();
    }

    private static RegisterMeta meta(int port) {
        return new RegisterMeta(new ProviderAddress("127.0.0.1", port), SERVICE, 50, 1);
    }
}
