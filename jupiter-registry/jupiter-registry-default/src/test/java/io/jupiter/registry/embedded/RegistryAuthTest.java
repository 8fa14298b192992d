package io.jupiter.registry.embedded;

import static io.jupiter.registry.embedded.EmbeddedRegistryTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.RawRegistryPeer.RawFrame;
import io.jupiter.registry.embedded.internal.RegistryAuth;
import io.jupiter.registry.embedded.internal.RegistryFrames;
import io.jupiter.transport.ProtocolHeader;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The registry's shared secret, against real clients and raw sockets on 127.0.0.1. */
class RegistryAuthTest {

    private static final String SECRET = "correct horse battery staple";
    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");

    private RegistryServer server;

    private InetSocketAddress start(String secret) {
        RegistryServer.Builder builder = RegistryServer.builder().host("127.0.0.1").port(0).resendMillis(200)
                .authTimeoutMillis(2000);
        if (secret != null) {
            builder.secret(secret);
        }
        server = builder.build();
        return server.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theRightSecretWorksEndToEnd() throws Exception {
        String addresses = "127.0.0.1:" + start(SECRET).getPort();
        try (RegistryService provider = EmbeddedRegistryFactory.connect(addresses, 200, null, SECRET);
             RegistryService consumer = EmbeddedRegistryFactory.connect(addresses, 200, null, SECRET)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            RegisterMeta first = new RegisterMeta(new ProviderAddress(null, 18101), SERVICE, 50, 1);
            provider.register(first);
            assertThat(provider.awaitRegistered(5000)).isTrue();
            await(() -> seen.get().size() == 1, "the first provider pushed");
            provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18102), SERVICE, 50, 1));
            await(() -> seen.get().size() == 2, "the second provider pushed");
            provider.unregister(first);
            await(() -> seen.get().size() == 1, "the first withdrawn");
        }
    }

    @Test
    void aFrameBeforeTheProofClosesTheConnection() throws Exception {
        InetSocketAddress address = start(SECRET);
        try (RawRegistryPeer peer = new RawRegistryPeer(address)) {
            RawFrame challenge = peer.read();
            assertThat(challenge.messageCode()).isEqualTo(RegistryFrames.AUTH_CODE);
            assertThat(challenge.id()).isEqualTo(RegistryAuth.CHALLENGE);
            assertThat(challenge.body()).hasSize(RegistryAuth.NONCE_BYTES);
            peer.send(RegistryFrames.PUBLISH_SERVICE, new RegisterMeta(new ProviderAddress(null, 18103), SERVICE,
                    50, 1));
            peer.awaitClosed(Duration.ofSeconds(10));
        }
        // An ACK, an unsolicited proof of the registry's step, and silence are refused alike.
        try (RawRegistryPeer peer = new RawRegistryPeer(address)) {
            peer.read();
            peer.ack(1);
            peer.awaitClosed(Duration.ofSeconds(10));
        }
        try (RawRegistryPeer peer = new RawRegistryPeer(address)) {
            peer.read();
            peer.sendAuth(RegistryAuth.SERVER_PROOF, new byte[RegistryAuth.MAC_BYTES]);
            peer.awaitClosed(Duration.ofSeconds(10));
        }
        try (RawRegistryPeer silent = new RawRegistryPeer(address)) {
            silent.read();
            silent.awaitClosed(Duration.ofSeconds(10)); // the server's auth timeout is 2 s here
        }
        assertThat(server.allProviders()).isEmpty();
    }

    @Test
    void aWrongSecretIsRefused() throws Exception {
        InetSocketAddress address = start(SECRET);
        try (RawRegistryPeer peer = new RawRegistryPeer(address)) {
            byte[] serverNonce = peer.read().body();
            byte[] clientNonce = RegistryAuth.nonce();
            peer.sendAuth(RegistryAuth.CLIENT_PROOF, clientNonce,
                    RegistryAuth.of("not the right secret at all").clientProof(serverNonce, clientNonce));
            peer.awaitClosed(Duration.ofSeconds(10));
        }
        try (RawRegistryPeer replay = new RawRegistryPeer(address)) {
            // A proof for another challenge (recorded earlier, say) does not answer this one.
            byte[] clientNonce = RegistryAuth.nonce();
            replay.read();
            replay.sendAuth(RegistryAuth.CLIENT_PROOF, clientNonce,
                    RegistryAuth.of(SECRET).clientProof(RegistryAuth.nonce(), clientNonce));
            replay.awaitClosed(Duration.ofSeconds(10));
        }
        String addresses = "127.0.0.1:" + address.getPort();
        try (RegistryService wrong = EmbeddedRegistryFactory.connect(addresses, 200, null, "not the right secret");
             RegistryService none = Registries.connect("default://" + addresses)) {
            wrong.register(new RegisterMeta(new ProviderAddress(null, 18104), SERVICE, 50, 1));
            none.register(new RegisterMeta(new ProviderAddress(null, 18105), SERVICE, 50, 1));
            assertThat(wrong.awaitRegistered(1000)).isFalse();
            assertThat(none.awaitRegistered(100)).isFalse();
        }
        assertThat(server.allProviders()).isEmpty();
    }

    @Test
    void theRightProofByHandIsAnsweredWithTheRegistrysProof() throws Exception {
        InetSocketAddress address = start(SECRET);
        RegistryAuth auth = RegistryAuth.of(SECRET);
        try (RawRegistryPeer peer = new RawRegistryPeer(address)) {
            byte[] serverNonce = peer.read().body();
            byte[] clientNonce = RegistryAuth.nonce();
            peer.sendAuth(RegistryAuth.CLIENT_PROOF, clientNonce, auth.clientProof(serverNonce, clientNonce));
            RawFrame proof = peer.read();
            assertThat(proof.messageCode()).isEqualTo(RegistryFrames.AUTH_CODE);
            assertThat(proof.id()).isEqualTo(RegistryAuth.SERVER_PROOF);
            assertThat(proof.body()).isEqualTo(auth.serverProof(serverNonce, clientNonce));
            // The client's proof is not the registry's: the labels differ.
            assertThat(proof.body()).isNotEqualTo(auth.clientProof(serverNonce, clientNonce));
            peer.awaitAckOf(peer.send(RegistryFrames.PUBLISH_SERVICE, new RegisterMeta(
                    new ProviderAddress(null, 18106), SERVICE, 50, 1)));
            // A second handshake on an authenticated connection is a protocol error.
            peer.sendAuth(RegistryAuth.CLIENT_PROOF, clientNonce, auth.clientProof(serverNonce, clientNonce));
            peer.awaitClosed(Duration.ofSeconds(10));
        }
    }

    @Test
    void aClientRefusesARegistryThatCannotProveTheSecret() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             RegistryService client = EmbeddedRegistryFactory.connect("127.0.0.1:" + fake.getLocalPort(), 200, null,
                     SECRET)) {
            fake.setSoTimeout(10_000);
            client.register(new RegisterMeta(new ProviderAddress(null, 18107), SERVICE, 50, 1));
            try (Socket socket = fake.accept()) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                DataInputStream in = new DataInputStream(socket.getInputStream());
                out.write(frameBytes(RegistryAuth.CHALLENGE, RegistryAuth.nonce()));
                out.flush();
                // The client answers with its nonce and proof (after the keepalive probe its connections send
                // first, a 1.3.1 heartbeat frame with an id: docs/reliability.md#dead-connections)...
                assertThat(in.readShort()).isEqualTo((short) 0xbabe);
                byte code = in.readByte();
                if (code == ProtocolHeader.HEARTBEAT) {
                    in.readFully(new byte[ProtocolHeader.HEADER_SIZE - 3]);
                    assertThat(in.readShort()).isEqualTo((short) 0xbabe);
                    code = in.readByte();
                }
                assertThat(code).isEqualTo(RegistryFrames.AUTH_CODE);
                in.readByte();
                assertThat(in.readLong()).isEqualTo(RegistryAuth.CLIENT_PROOF);
                assertThat(in.readInt()).isEqualTo(RegistryAuth.NONCE_BYTES + RegistryAuth.MAC_BYTES);
                in.readFully(new byte[RegistryAuth.NONCE_BYTES + RegistryAuth.MAC_BYTES]);
                // ...and closes on a proof the fake registry cannot make, before sending any registration.
                out.write(frameBytes(RegistryAuth.SERVER_PROOF, new byte[RegistryAuth.MAC_BYTES]));
                out.flush();
                assertThat(readToEnd(socket.getInputStream())).as("bytes after the proof").isZero();
            }
        }
    }

    @Test
    void aClientWithASecretSendsNothingToARegistryWithout() throws Exception {
        String addresses = "127.0.0.1:" + start(null).getPort();
        try (RegistryService client = EmbeddedRegistryFactory.connect(addresses, 200, null, SECRET)) {
            client.register(new RegisterMeta(new ProviderAddress(null, 18108), SERVICE, 50, 1));
            assertThat(client.awaitRegistered(500)).isFalse();
        }
        assertThat(server.allProviders()).isEmpty();
    }

    @Test
    void secretsShorterThan16BytesAreRefusedWithoutEchoingThem() {
        assertThatThrownBy(() -> RegistryServer.builder().secret("short-secret"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 16 bytes")
                .hasMessageNotContaining("short-secret");
        assertThatThrownBy(() -> EmbeddedRegistryFactory.secretFrom(Map.of("JUPITER_REGISTRY_SECRET", "tiny")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("JUPITER_REGISTRY_SECRET: ")
                .hasMessageNotContaining("tiny");
        assertThat(EmbeddedRegistryFactory.secretFrom(Map.of())).isNull();
        assertThat(EmbeddedRegistryFactory.secretFrom(Map.of("JUPITER_REGISTRY_SECRET", ""))).isNull();
        assertThat(EmbeddedRegistryFactory.secretFrom(Map.of("JUPITER_REGISTRY_SECRET", SECRET))).isEqualTo(SECRET);
    }

    private static byte[] frameBytes(long step, byte[] body) {
        var frame = RegistryAuth.frame(UnpooledByteBufAllocator.DEFAULT, step, body);
        try {
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            return bytes;
        } finally {
            frame.release();
        }
    }

    private static int readToEnd(InputStream in) throws IOException {
        int total = 0;
        byte[] sink = new byte[256];
        try {
            for (int n; (n = in.read(sink)) >= 0; ) {
                total += n;
            }
        } catch (SocketException reset) {
            // closed with a reset: the end too
        }
        return total;
    }
}
