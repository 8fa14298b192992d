package io.jupiter.registry.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #37 on a real ZooKeeper (Curator's TestingServer): provider nodes written by others, good and hostile (bad
 * ports, bad hosts, malformed names, node data, hundreds of nodes), seeded; and a fault at every step of the
 * registry's worker tasks. Discovery must follow exactly the good nodes.
 */
class ZookeeperHostileNodesTest {

    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");
    private static final String PARENT = "/jupiter/provider/test/greeter/1.0.0";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private TestingServer zookeeper;
    private CuratorFramework raw;
    private ZookeeperRegistryService registry;
    private final AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());

    @BeforeEach
    void start() throws Exception {
        zookeeper = new TestingServer(true);
        raw = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100));
        raw.start();
        raw.create().creatingParentsIfNeeded().forPath(PARENT);
        registry = (ZookeeperRegistryService) Registries.connect("zookeeper://" + zookeeper.getConnectString());
        registry.subscribe(SERVICE, (service, providers) -> seen.set(providers));
    }

    @AfterEach
    void stop() throws Exception {
        registry.close();
        raw.close();
        zookeeper.close();
    }

    private Set<String> targets() {
        return seen.get().stream().map(m -> m.address().host() + ":" + m.address().port())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private void awaitTargets(Set<String> expected) {
        Await.until("targets " + expected + " (now " + targets() + ")", WAIT, () -> targets().equals(expected));
    }

    @Test
    void randomHostileNodesNeverBecomeTargetsAndTheGoodOnesAreFollowed() throws Exception {
        Random random = new Random(37);
        Set<String> good = new TreeSet<>();
        List<String> hostile = List.of("300.1.2.3:8080:50:4", "10.0.0.1:0:50:4", "10.0.0.1:70000:50:4",
                "10.0.0.1:-1:50:4", "0.0.0.0:8080:50:4", "224.0.0.1:8080:50:4", "10.0.0.1:x:50:4",
                "10.0.0.1:8080:y:4", ":8080:50:4", "10.0.0.1:8080", "a:b:c:d:e", "-bad-.host:8080:50:4",
                "255.255.255.255:8080:50:4", "10.0.0.1:8080:50:4:extra");
        for (int round = 0; round < 5; round++) {
            List<String> created = new ArrayList<>();
            int count = round == 2 ? 400 : 5 + random.nextInt(10);
            for (int i = 0; i < count; i++) {
                String node;
                if (random.nextInt(3) == 0) {
                    node = hostile.get(random.nextInt(hostile.size()));
                } else {
                    String host = "10." + round + "." + random.nextInt(256) + "." + (1 + random.nextInt(250));
                    int port = 1 + random.nextInt(65535);
                    // Weights and connection counts out of range are clamped, not refused.
                    node = host + ":" + port + ":" + (random.nextInt(300) - 100) + ":" + random.nextInt(100);
                    if (!good.add(host + ":" + port)) {
                        continue;
                    }
                }
                if (raw.checkExists().forPath(PARENT + "/" + node) == null) {
                    byte[] data = new byte[random.nextInt(64)];
                    random.nextBytes(data); // node data nobody should read
                    raw.create().forPath(PARENT + "/" + node, data);
                    created.add(node);
                }
            }
            awaitTargets(good);
            assertThat(targets()).allMatch(t -> t.startsWith("10.") && !t.endsWith(":0"));
        }
        assertThat(registry.skippedRecords()).isPositive();
    }

    @Test
    void aFaultAtAnyStepOfAWorkerTaskDoesNotStopDiscovery() throws Exception {
        Set<String> expected = new TreeSet<>();
        // The subscription's first listing runs on the worker: until it has listed a node, the watch it sets may
        // already have seen the node a step creates, and no later read would take that step's fault.
        raw.create().forPath(PARENT + "/10.0.9.100:8080:50:4");
        expected.add("10.0.9.100:8080");
        awaitTargets(expected);
        int n = 1;
        for (String step : List.of("read", "parse", "apply", "read")) {
            registry.worker().failNext(step, new IllegalStateException("injected at " + step));
            String host = "10.0.9." + n++;
            raw.create().forPath(PARENT + "/" + host + ":8080:50:4");
            expected.add(host + ":8080");
            Await.until("the fault at " + step + " thrown", WAIT, () -> !registry.worker().faultPending(step));
            awaitTargets(expected);
        }
    }
}
