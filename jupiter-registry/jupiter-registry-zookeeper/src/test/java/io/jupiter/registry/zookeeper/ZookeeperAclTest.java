package io.jupiter.registry.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.testkit.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Digest credentials and ACLs against a real ZooKeeper (Curator's TestingServer, in this JVM, on 127.0.0.1): a
 * client without the credentials, or with others, can read our nodes but not delete or change them, nor publish.
 */
class ZookeeperAclTest {

    private static final String CREDENTIALS = "jupiter:s3cret-for-tests";
    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");
    private static final String PARENT = "/jupiter/provider/test/greeter/1.0.0";
    private static final String NODE = PARENT + "/127.0.0.1:18001:50:1";

    private TestingServer zookeeper;

    @BeforeEach
    void startZookeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterEach
    void stopZookeeper() throws Exception {
        zookeeper.close();
    }

    @Test
    void nodesCreatedWithCredentialsResistOtherClients() throws Exception {
        try (RegistryService provider = ZookeeperRegistryFactory.connect(zookeeper.getConnectString(), CREDENTIALS);
             CuratorFramework stranger = client(null);
             CuratorFramework impostor = client("jupiter:guessed")) {
            provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18001), SERVICE, 50, 1));
            assertThat(provider.awaitRegistered(10_000)).isTrue();

            // All rights for the credentials' digest identity (ZooKeeper shows the digest redacted), read for anyone.
            List<ACL> acl = stranger.getACL().forPath(NODE);
            assertThat(acl).hasSize(2);
            assertThat(acl).anySatisfy(entry -> {
                assertThat(entry.getPerms()).isEqualTo(ZooDefs.Perms.ALL);
                assertThat(entry.getId().getScheme()).isEqualTo("digest");
                assertThat(entry.getId().getId()).startsWith("jupiter:");
            });
            assertThat(acl).contains(new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
            assertThat(stranger.getACL().forPath(PARENT)).isEqualTo(acl);

            for (CuratorFramework other : List.of(stranger, impostor)) {
                assertThat(other.getChildren().forPath(PARENT)).containsExactly("127.0.0.1:18001:50:1");
                assertThatThrownBy(() -> other.delete().forPath(NODE))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> other.setData().forPath(NODE, "x".getBytes(StandardCharsets.UTF_8)))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> other.create().forPath(PARENT + "/10.6.6.6:18001:50:1"))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> other.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(PARENT))
                        .isInstanceOf(KeeperException.NoAuthException.class);
            }
            assertThat(stranger.getChildren().forPath(PARENT)).containsExactly("127.0.0.1:18001:50:1");
        }
    }

    @Test
    void aConsumerWithoutCredentialsStillReadsAndAProviderWithThemPublishes() throws Exception {
        try (RegistryService consumer = ZookeeperRegistryFactory.connect(zookeeper.getConnectString(), null)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            try (RegistryService first = ZookeeperRegistryFactory.connect(zookeeper.getConnectString(), CREDENTIALS);
                 RegistryService second = ZookeeperRegistryFactory.connect(zookeeper.getConnectString(),
                         CREDENTIALS)) {
                first.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18002), SERVICE, 50, 1));
                second.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18003), SERVICE, 50, 1));
                assertThat(first.awaitRegistered(10_000)).isTrue();
                assertThat(second.awaitRegistered(10_000)).isTrue();
                Await.until("both providers seen without credentials", Duration.ofSeconds(10),
                        () -> seen.get().size() == 2);
                // The consumer made the parents, open to all; the providers closed them to writers without the
                // credentials.
                try (CuratorFramework stranger = client(null)) {
                    for (String path : List.of("/jupiter", "/jupiter/provider", PARENT)) {
                        assertThat(stranger.getACL().forPath(path)).hasSize(2);
                    }
                    assertThatThrownBy(() -> stranger.create().forPath(PARENT + "/10.6.6.6:18001:50:1"))
                            .isInstanceOf(KeeperException.NoAuthException.class);
                    assertThatThrownBy(() -> stranger.delete().forPath(PARENT + "/127.0.0.1:18002:50:1"))
                            .isInstanceOf(KeeperException.NoAuthException.class);
                }
            }
        }
    }

    /**
     * Issue #25, item 4: someone without our credentials creates the service's nodes first, all rights for itself
     * and read and create for anyone. The provider logged "cannot protect" and published anyway, and the squatter
     * could delete its node and publish a fake. Now it refuses to publish there, naming the node and the fix.
     */
    @Test
    void nodesAnotherIdentityCreatedFirstAreRefusedWithTheNodeAndTheFixNamed() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(ZookeeperRegistryService.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        // the logging thread appends while the test reads: a list that iterates over a snapshot
        lines.list = new CopyOnWriteArrayList<>();
        lines.start();
        logger.addAppender(lines);
        try (CuratorFramework squatter = client("mallory:her-own-secret")) {
            squatter.create().creatingParentsIfNeeded().withACL(List.of(
                    new ACL(ZooDefs.Perms.ALL, ZooDefs.Ids.AUTH_IDS),
                    new ACL(ZooDefs.Perms.READ | ZooDefs.Perms.CREATE, ZooDefs.Ids.ANYONE_ID_UNSAFE)), true)
                    .forPath(PARENT);
            try (RegistryService provider = ZookeeperRegistryFactory.connect(zookeeper.getConnectString(),
                    CREDENTIALS)) {
                provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18001), SERVICE, 50, 1));

                assertThat(provider.awaitRegistered(3_000)).as("published under a squatted node").isFalse();
                assertThat(squatter.getChildren().forPath(PARENT)).isEmpty();
                Await.until("an ERROR line naming the node", Duration.ofSeconds(5), () -> lines.list.stream()
                        .anyMatch(e -> e.getLevel() == Level.ERROR));
                assertThat(lines.list).filteredOn(e -> e.getLevel() == Level.ERROR).first()
                        .extracting(ILoggingEvent::getFormattedMessage).asString()
                        .contains("not publishing").contains("/jupiter exists").contains("Fix: delete /jupiter");
            }
        } finally {
            logger.detachAppender(lines);
        }
    }

    /**
     * Issue #25, item 4, the other way round: nodes made open to everyone by someone without credentials, who
     * also planted a provider at his own address. The provider takes the nodes back and removes the plant, so
     * consumers see only real providers and the stranger can publish nothing more.
     */
    @Test
    void openNodesWithAPlantedProviderAreTakenBackAndThePlantRemoved() throws Exception {
        try (CuratorFramework stranger = client(null)) {
            stranger.create().creatingParentsIfNeeded().forPath(PARENT + "/6.6.6.6:666:50:1");
            try (RegistryService provider = ZookeeperRegistryFactory.connect(zookeeper.getConnectString(),
                    CREDENTIALS)) {
                provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18001), SERVICE, 50, 1));
                assertThat(provider.awaitRegistered(10_000)).isTrue();

                assertThat(stranger.getChildren().forPath(PARENT)).containsExactly("127.0.0.1:18001:50:1");
                assertThatThrownBy(() -> stranger.create().forPath(PARENT + "/6.6.6.6:666:50:1"))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> stranger.delete().forPath(NODE))
                        .isInstanceOf(KeeperException.NoAuthException.class);
            }
        }
    }

    @Test
    void malformedCredentialsAreRefusedWithoutEchoingThem() {
        for (String bad : List.of("no-colon-password", ":password-only", "user-only:")) {
            assertThatThrownBy(() -> ZookeeperRegistryFactory.connect(zookeeper.getConnectString(), bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("user:password")
                    .hasMessageNotContaining("password-only");
        }
    }

    private CuratorFramework client(String digest) throws Exception {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(zookeeper.getConnectString()).retryPolicy(new RetryOneTime(100));
        if (digest != null) {
            builder.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework client = builder.build();
        client.start();
        assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        return client;
    }
}
