package io.jupiter.registry.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.internal.EmbeddedRegistryClient;
import io.jupiter.registry.embedded.internal.RegistryFrames;
import io.jupiter.registry.embedded.internal.RegistryMessage;
import io.jupiter.testkit.Await;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #37 on the embedded registry: a raw peer publishes seeded random records, good and hostile (port 0, hosts of
 * bad syntax, multicast, broadcast, over-long strings, duplicates, hundreds in one round, ports out of range and
 * unknown fields in hand-made bytes), through a real {@link RegistryServer} that allows any published host (so what
 * the publisher says reaches the subscribers unchanged) to real registry clients. Discovery must follow exactly the
 * good records, count the bad ones, and go on following a real provider afterwards.
 */
class EmbeddedHostilePushTest {

    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");
    private static final Duration WAIT = Duration.ofSeconds(15);
    /** Ports the hand-made frames replace (distinct from the random ports, which are below it). */
    private static final int MARKER_PORT = 65_001;

    private RegistryServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void randomHostilePushesNeverBecomeTargetsAndDiscoveryKeepsFollowingTheGoodOnes() throws Exception {
        server = RegistryServer.builder().host("127.0.0.1").port(0).resendMillis(200).allowAnyPublishedHost(true)
                .build();
        InetSocketAddress address = server.start();
        String url = "default://127.0.0.1:" + address.getPort();
        Random random = new Random(37);
        Set<String> good = new TreeSet<>();
        Set<String> bad = new TreeSet<>();
        List<RegisterMeta> published = new ArrayList<>();
        AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
        try (EmbeddedRegistryClient subscriber = (EmbeddedRegistryClient) Registries.connect(url);
             RawRegistryPeer hostile = new RawRegistryPeer(address)) {
            subscriber.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            for (int round = 0; round < 4; round++) {
                int count = round == 1 ? 300 : 10 + random.nextInt(20);
                for (int i = 0; i < count; i++) {
                    RegisterMeta meta;
                    if (!published.isEmpty() && random.nextInt(8) == 0) {
                        // A duplicate: a record published before, again, with another weight.
                        RegisterMeta before = published.get(random.nextInt(published.size()));
                        meta = new RegisterMeta(before.address(), SERVICE, random.nextInt(100), 1);
                    } else if (random.nextInt(3) == 0) {
                        meta = hostileRecord(random);
                        bad.add(key(meta.address()));
                    } else {
                        meta = goodRecord(random, round);
                        String filled = meta.address().host().isEmpty() || meta.address().host().equals("0.0.0.0")
                                ? "127.0.0.1:" + meta.address().port() : key(meta.address());
                        if (bad.contains(filled)) {
                            continue;
                        }
                        good.add(filled);
                    }
                    published.add(meta);
                    hostile.awaitAckOf(hostile.send(RegistryFrames.PUBLISH_SERVICE, meta));
                }
                awaitTargets(seen, good);
                Await.until("skipped " + bad.size() + " (now " + subscriber.skippedRecords() + ")", WAIT,
                        () -> subscriber.skippedRecords() == bad.size());
            }

            // Bytes no real client writes: ports out of range close the peer's connection at the registry ...
            for (byte[] port : List.of(varint(70_000), varint(-1), varint(Integer.MAX_VALUE))) {
                try (RawRegistryPeer crafted = new RawRegistryPeer(address)) {
                    crafted.writeBytes(patchedPublish("127.0.0.1", port));
                    crafted.awaitClosed(WAIT);
                }
            }
            // ... and unknown fields are skipped: the record in them counts.
            byte[] unknownFields = concat(varint(MARKER_PORT), new byte[] {(byte) 0x48, 7}, // field 9, varint 7
                    new byte[] {(byte) 0x52, 3, 'x', 'y', 'z'}); // field 10, a string
            hostile.writeBytes(patchedPublish("127.0.0.1", unknownFields));
            good.add("127.0.0.1:" + MARKER_PORT);
            awaitTargets(seen, good);

            // A subscriber that comes now gets hundreds of records in one full list.
            AtomicReference<List<RegisterMeta>> late = new AtomicReference<>(List.of());
            try (RegistryService lateSubscriber = Registries.connect(url)) {
                lateSubscriber.subscribe(SERVICE, (service, providers) -> late.set(providers));
                awaitTargets(late, good);
                Await.until("the late subscriber skipped " + bad.size(), WAIT,
                        () -> lateSubscriber.skippedRecords() == bad.size());
            }

            // Discovery still follows a real provider that comes and goes.
            RegisterMeta real = new RegisterMeta(new ProviderAddress("127.0.0.1", 65_100), SERVICE, 50, 1);
            try (RegistryService provider = Registries.connect(url)) {
                provider.register(real);
                good.add("127.0.0.1:65100");
                awaitTargets(seen, good);
                provider.unregister(real);
                good.remove("127.0.0.1:65100");
                awaitTargets(seen, good);
            }
            assertThat(subscriber.skippedRecords()).isEqualTo(bad.size());
            assertThat(subscriber.worker().taskFailures()).as("registry tasks that threw").isZero();
        }
        assertThat(good.size()).as("good records published").isGreaterThan(200);
        assertThat(bad.size()).as("distinct bad records published").isGreaterThan(80);
    }

    private static RegisterMeta goodRecord(Random random, int round) {
        int port = 1 + random.nextInt(65_000);
        String host = switch (random.nextInt(5)) {
            case 0 -> "127.0.0.1";
            case 1 -> "10." + round + "." + random.nextInt(256) + "." + (1 + random.nextInt(250));
            case 2 -> "provider-" + random.nextInt(1000) + ".example"; // 1.3.1 may publish a host name
            case 3 -> random.nextBoolean() ? "" : "0.0.0.0"; // the registry fills in the peer's own address
            default -> "fd00::" + Integer.toHexString(1 + random.nextInt(0xfffe));
        };
        // Weights and connection counts out of range are clamped, not refused.
        return new RegisterMeta(new ProviderAddress(host, port), SERVICE, random.nextInt(100), 1);
    }

    private static RegisterMeta hostileRecord(Random random) {
        int port = 1 + random.nextInt(65_000);
        String host = switch (random.nextInt(12)) {
            case 0 -> "127.0.0." + (1 + random.nextInt(250)); // a good host on port 0
            case 1 -> "bad host " + random.nextInt(1000);
            case 2 -> "-x" + random.nextInt(1000) + "-.example";
            case 3 -> "a.." + random.nextInt(1000);
            case 4 -> random.nextInt(256) + 300 + ".1.2.3";
            case 5 -> "224.0.0." + (1 + random.nextInt(250));
            case 6 -> "ff02::" + Integer.toHexString(1 + random.nextInt(0xfffe));
            case 7 -> "255.255.255.255";
            case 8 -> "h".repeat(254 + random.nextInt(700)); // longer than a host name, within the codec's cap
            case 9 -> "l".repeat(64) + random.nextInt(1000) + ".example"; // a label longer than 63
            case 10 -> "ünïcode" + random.nextInt(1000) + ".example";
            default -> "under_score" + random.nextInt(1000) + ".example";
        };
        return new RegisterMeta(new ProviderAddress(host, host.startsWith("127.") ? 0 : port), SERVICE,
                random.nextInt(100), 1);
    }

    private static void awaitTargets(AtomicReference<List<RegisterMeta>> seen, Set<String> expected) {
        Await.until("the " + expected.size() + " good targets (now " + targets(seen).size() + ")", WAIT,
                () -> targets(seen).equals(expected));
    }

    private static Set<String> targets(AtomicReference<List<RegisterMeta>> seen) {
        return seen.get().stream().map(m -> key(m.address())).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String key(ProviderAddress address) {
        return address.host() + ":" + address.port();
    }

    /**
     * A whole PUBLISH frame of a record of {@code host} whose port field's value is replaced by {@code portBytes}
     * (whatever a real encoder would refuse to write: out of range, followed by unknown fields).
     */
    private static byte[] patchedPublish(String host, byte[] portBytes) {
        RegisterMeta marker = new RegisterMeta(new ProviderAddress(host, MARKER_PORT), SERVICE, 50, 1);
        ByteBuf frame = RegistryFrames.frame(UnpooledByteBufAllocator.DEFAULT,
                new RegistryMessage(1L << 40, RegistryFrames.PROTOSTUFF, RegistryFrames.PUBLISH_SERVICE, 0, marker));
        byte[] bytes;
        try {
            bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
        } finally {
            frame.release();
        }
        byte[] find = concat(new byte[] {0x10}, varint(MARKER_PORT)); // field 2 (port), varint
        int at = indexOf(bytes, find);
        assertThat(at).as("the port field in the encoded record").isPositive();
        byte[] patched = concat(Arrays.copyOfRange(bytes, 0, at + 1), portBytes,
                Arrays.copyOfRange(bytes, at + find.length, bytes.length));
        ByteBuffer.wrap(patched).putInt(12, patched.length - 16); // the header's body length
        return patched;
    }

    private static byte[] varint(long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long v = value;
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] bytes, byte[] find) {
        for (int i = 16; i + find.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + find.length, find, 0, find.length)) {
                return i;
            }
        }
        return -1;
    }
}
