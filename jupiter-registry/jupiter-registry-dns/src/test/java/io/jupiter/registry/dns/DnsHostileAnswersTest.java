package io.jupiter.registry.dns;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.dns.internal.DnsRegistryService;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #37 against a DNS server on 127.0.0.1 the test controls: seeded answers with hostile addresses
 * (wildcard, multicast, broadcast), duplicates and as many records as a UDP reply holds; a fault at every step
 * of the worker's tasks; and a resolution made at once (above the floor) when a consumer reports a provider it
 * cannot reach.
 */
class DnsHostileAnswersTest {

    private static final ServiceMeta HELLO = new ServiceMeta("dns", "hello", "1.0.0");
    private static final Duration WAIT = Duration.ofSeconds(15);

    private TestDnsServer dns;
    private DnsRegistryService registry;
    private final AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());

    @BeforeEach
    void start() throws Exception {
        dns = new TestDnsServer();
    }

    @AfterEach
    void stop() {
        if (registry != null) {
            registry.close();
        }
        dns.close();
    }

    private void connect(long refreshMillis) {
        registry = (DnsRegistryService) Registries.connect("dns://hello.jupiter.test:8080?refreshMillis="
                + refreshMillis + "&nameServer=127.0.0.1:" + dns.address().getPort());
        registry.subscribe(HELLO, (service, providers) -> seen.set(providers));
    }

    private Set<String> hosts() {
        return seen.get().stream().map(m -> m.address().host()).collect(Collectors.toCollection(TreeSet::new));
    }

    private void awaitHosts(Set<String> expected) {
        Await.until("hosts " + expected + " (now " + hosts() + ")", WAIT, () -> hosts().equals(expected));
    }

    @Test
    void randomHostileAnswersNeverBecomeTargetsAndTheGoodOnesAreFollowed() {
        connect(100);
        Random random = new Random(37);
        List<String> hostile = List.of("0.0.0.0", "224.0.0.1", "239.255.255.250", "255.255.255.255");
        for (int round = 0; round < 5; round++) {
            Set<String> good = new TreeSet<>();
            List<String> answer = new ArrayList<>();
            // The biggest answer that fits one UDP reply of 4,096 bytes (EDNS; this server answers over UDP only).
            int count = round == 2 ? 70 : 1 + random.nextInt(8);
            for (int i = 0; i < count; i++) {
                if (random.nextInt(3) == 0) {
                    answer.add(hostile.get(random.nextInt(hostile.size())));
                } else {
                    String host = "10." + round + "." + random.nextInt(256) + "." + (1 + random.nextInt(250));
                    answer.add(host);
                    good.add(host);
                    if (random.nextBoolean()) {
                        answer.add(host); // duplicates
                    }
                }
            }
            if (good.isEmpty()) {
                good.add("10.9.9.9");
                answer.add("10.9.9.9");
            }
            dns.set("hello.jupiter.test", answer.toArray(new String[0]));
            awaitHosts(good);
        }
        assertThat(registry.skippedRecords()).isPositive();
    }

    @Test
    void aFaultAtAnyStepOfAWorkerTaskDoesNotStopDiscovery() {
        connect(100);
        dns.set("hello.jupiter.test", "10.0.0.1");
        awaitHosts(Set.of("10.0.0.1"));
        int n = 2;
        for (String step : List.of("resolve", "answer", "resolve")) {
            registry.worker().failNext(step, new IllegalStateException("injected at " + step));
            Await.until("the fault at " + step + " thrown", WAIT, () -> !registry.worker().faultPending(step));
            String host = "10.0.0." + n++;
            dns.set("hello.jupiter.test", host);
            awaitHosts(Set.of(host));
        }
        assertThat(registry.worker().taskFailures()).isEqualTo(3);
    }

    @Test
    void aProviderReportedUnreachableMakesTheNameResolvedAgainWithoutWaitingForThePeriod() {
        connect(600_000); // the period never comes within the test
        dns.set("hello.jupiter.test", "10.0.0.1");
        awaitHosts(Set.of("10.0.0.1"));
        dns.set("hello.jupiter.test", "10.0.0.2");
        int queries = dns.queries();
        // Many reports at once make one resolution (after the floor, 1 s, since the last one).
        for (int i = 0; i < 50; i++) {
            registry.reportUnreachable(new ProviderAddress("10.0.0.1", 8080));
        }
        awaitHosts(Set.of("10.0.0.2"));
        // A and AAAA: at most one query of each for the 50 reports.
        assertThat(dns.queries() - queries).isBetween(1, 2);
        // A report for an address that is not a provider of the name changes nothing.
        int before = dns.queries();
        registry.reportUnreachable(new ProviderAddress("10.9.9.9", 8080));
        assertThat(Await.holdsFor(Duration.ofMillis(1500), () -> dns.queries() == before)).isTrue();
    }
}
