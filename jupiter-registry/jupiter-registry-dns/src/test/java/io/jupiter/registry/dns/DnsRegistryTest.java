package io.jupiter.registry.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.dns.internal.DnsRegistryService;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dns registry against a DNS server on 127.0.0.1 that the test controls. */
class DnsRegistryTest {

    private static final ServiceMeta HELLO = new ServiceMeta("dns", "hello", "1.0.0");
    private static final Duration WAIT = Duration.ofSeconds(10);

    private TestDnsServer dns;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        dns = new TestDnsServer();
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        dns.close();
    }

    private String url(String name, int port) {
        return "dns://" + name + ":" + port + "?refreshMillis=200&nameServer=127.0.0.1:" + dns.address().getPort();
    }

    @Test
    void followsTheRecordsAndKeepsTheLastListWhenTheServerFailsOrAnswersNothing() {
        dns.set("hello.jupiter.test", "10.0.0.1", "10.0.0.2");
        DnsRegistryService registry = (DnsRegistryService) Registries.connect(url("hello.jupiter.test", 8080));
        toClose.add(registry);
        Recorder recorder = new Recorder();
        registry.subscribe(HELLO, recorder);
        Await.until("two addresses", WAIT, () -> recorder.hosts().equals(Set.of("10.0.0.1", "10.0.0.2")));
        assertThat(registry.lookup(HELLO)).allSatisfy(meta -> {
            assertThat(meta.address().port()).isEqualTo(8080);
            assertThat(meta.weight()).isEqualTo(RegisterMeta.DEFAULT_WEIGHT);
        });

        dns.set("hello.jupiter.test", "10.0.0.2", "10.0.0.3");
        Await.until("re-resolved on the period", WAIT, () -> recorder.hosts().equals(Set.of("10.0.0.2", "10.0.0.3")));

        // The server goes silent (timeouts), then says the name does not exist: the last list stays.
        dns.silent(true);
        int queries = dns.queries();
        Await.until("queries while silent", WAIT, () -> dns.queries() > queries + 2);
        dns.silent(false);
        dns.set("hello.jupiter.test");
        long answers = registry.resolutionCount();
        Await.until("NXDOMAIN answered again", WAIT, () -> dns.queries() > queries + 6);
        assertThat(registry.resolutionCount()).isEqualTo(answers);
        assertThat(recorder.hosts()).containsExactlyInAnyOrder("10.0.0.2", "10.0.0.3");
        assertThat(recorder.sawEmpty()).isFalse();

        dns.set("hello.jupiter.test", "10.0.0.4");
        Await.until("back", WAIT, () -> recorder.hosts().equals(Set.of("10.0.0.4")));
    }

    @Test
    void aConsumerCallsEveryAddressOfTheName() throws Exception {
        // Three providers on the same port of three loopback addresses, as pods behind a headless Service.
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        List<String> hosts = List.of("127.0.0.1", "127.0.0.2", "127.0.0.3");
        for (String host : hosts) {
            JupiterServer server = JupiterServer.builder().host(host).port(port)
                    .serializers(SerializerType.PROTOSTUFF).build();
            server.register((Hello) () -> host, Hello.class);
            server.start();
            toClose.add(server);
        }
        dns.set("hello.jupiter.test", hosts.toArray(new String[0]));
        JupiterClient client = JupiterClient.builder().appName("dns").registry(url("hello.jupiter.test", port))
                .warmUpMillis(0).build();
        toClose.add(client);
        Hello hello = client.proxy(Hello.class).build();
        Set<String> answered = new HashSet<>();
        Await.until("every address answers", WAIT, () -> {
            try {
                answered.add(hello.where());
            } catch (RuntimeException e) {
                // not connected yet
            }
            return answered.containsAll(hosts);
        });

        // One address leaves the records: no more calls to it once re-resolved.
        dns.set("hello.jupiter.test", "127.0.0.1", "127.0.0.2");
        Await.until("127.0.0.3 no longer called", WAIT, () -> {
            Set<String> recent = new HashSet<>();
            for (int i = 0; i < 30; i++) {
                recent.add(hello.where());
            }
            return recent.equals(Set.of("127.0.0.1", "127.0.0.2"));
        });
    }

    @Test
    void aConsumerThatLosesItsProviderMakesTheNameResolvedAgainWithoutWaitingForThePeriod() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        JupiterServer first = JupiterServer.builder().host("127.0.0.1").port(port)
                .serializers(SerializerType.PROTOSTUFF).build();
        first.register((Hello) () -> "127.0.0.1", Hello.class);
        first.start();
        toClose.add(first);
        dns.set("hello.jupiter.test", "127.0.0.1");
        // The period is ten minutes: only a reported connection failure can make the name be resolved again.
        String url = "dns://hello.jupiter.test:" + port + "?refreshMillis=600000&nameServer=127.0.0.1:"
                + dns.address().getPort();
        JupiterClient client = JupiterClient.builder().appName("dns").registry(url).warmUpMillis(0).build();
        toClose.add(client);
        Hello hello = client.proxy(Hello.class).build();
        Await.until("the first provider answers", WAIT, () -> {
            try {
                return hello.where().equals("127.0.0.1");
            } catch (RuntimeException e) {
                return false; // not connected yet
            }
        });

        JupiterServer second = JupiterServer.builder().host("127.0.0.2").port(port)
                .serializers(SerializerType.PROTOSTUFF).build();
        second.register((Hello) () -> "127.0.0.2", Hello.class);
        second.start();
        toClose.add(second);
        dns.set("hello.jupiter.test", "127.0.0.2");
        first.close(); // the consumer loses its connections to 127.0.0.1 and tells the registry
        Await.until("the second provider answers", WAIT, () -> {
            try {
                return hello.where().equals("127.0.0.2");
            } catch (RuntimeException e) {
                return false; // until the name is resolved again
            }
        });
    }

    @Test
    void badUrlsAreRejectedWithAClearMessage() {
        assertThatThrownBy(() -> Registries.connect("dns://hello.jupiter.test")).hasMessageContaining("host:port");
        assertThatThrownBy(() -> Registries.connect("dns://a:1,b:2")).hasMessageContaining("one name:port");
        assertThatThrownBy(() -> Registries.connect("dns://a:1?refreshMillis=5")).hasMessageContaining(">= 100");
        assertThatThrownBy(() -> Registries.connect("dns://a:1?refreshMillis=x")).hasMessageContaining("milliseconds");
        assertThatThrownBy(() -> Registries.connect("dns://a:1?ttl=3")).hasMessageContaining("unknown parameter");
        assertThat(DnsTarget.parse("a.b:80")).isEqualTo(new DnsTarget("a.b", 80, DnsTarget.DEFAULT_REFRESH_MILLIS,
                null));
        assertThat(DnsTarget.parse("a.b:80?nameServer=127.0.0.1:53").nameServer())
                .isEqualTo(new InetSocketAddress("127.0.0.1", 53));
    }

    @Test
    void publishingDoesNothing() throws Exception {
        try (RegistryService registry = Registries.connect(url("hello.jupiter.test", 1))) {
            assertThat(registry.scheme()).isEqualTo("dns");
            assertThat(registry.awaitRegistered(1)).isTrue();
            assertThat(registry.lookup(HELLO)).isEmpty();
        }
    }

    static final class Recorder implements NotifyListener {
        private final List<List<RegisterMeta>> lists = new CopyOnWriteArrayList<>();

        @Override
        public void providersChanged(ServiceMeta service, List<RegisterMeta> providers) {
            lists.add(providers);
        }

        Set<String> hosts() {
            return lists.isEmpty() ? Set.of() : lists.get(lists.size() - 1).stream()
                    .map(meta -> meta.address().host()).collect(Collectors.toSet());
        }

        boolean sawEmpty() {
            return lists.stream().anyMatch(List::isEmpty);
        }
    }
}
