package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import io.jupiter.transport.TransportAddresses;
import io.netty.channel.epoll.Epoll;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #28: streams over the in-process transport and a Unix domain socket as over TCP, and the heap an idle open
 * stream costs (measured and printed; bounded loosely).
 */
@Timeout(120)
class StreamTransportsTest {

    enum Kind { IN_PROCESS, UNIX_SOCKET }

    @TempDir
    Path dir;

    private JupiterServer server;
    private JupiterClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aStreamWorksOverEveryTransport(Kind kind) {
        JupiterServer.Builder builder = JupiterServer.builder();
        if (kind == Kind.UNIX_SOCKET) {
            assumeTrue(Epoll.isAvailable(), () -> "native epoll is unavailable: " + Epoll.unavailabilityCause());
            builder.unixSocket(dir.resolve("streams.sock"));
        } else {
            builder.inProcess("stream-test");
        }
        server = builder.build();
        server.register(new TickServiceImpl());
        server.start();
        client = JupiterClient.builder().build();
        TickService ticks = client.proxy(TickService.class).address(TransportAddresses.format(server.boundAddress()))
                .timeoutMillis(10_000).build();
        try (StreamIterator<Long> it = Streams.iterate(ticks.count(500), 8)) {
            List<Long> got = new ArrayList<>();
            it.forEachRemaining(got::add);
            assertThat(got).containsExactlyElementsOf(LongStream.range(0, 500).boxed().toList());
        }
    }

    @Test
    void heapPerIdleOpenStream() {
        int streams = 2000;
        TickServiceImpl impl = new TickServiceImpl();
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(impl);
        server.start();
        client = JupiterClient.builder().build();
        TickService ticks = client.proxy(TickService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(2).timeoutMillis(10_000).build();
        // Warm the path up with one stream, so that classes and pools are not counted.
        Recorder<String> first = new Recorder<>(1);
        ticks.quotes("WAIT", 32).subscribe(first);
        Await.until("the first stream joined", Duration.ofSeconds(10), () -> impl.quotes.subscriberCount() == 1);
        long before = usedHeapAfterGc();
        List<Recorder<String>> idle = new ArrayList<>();
        // Opened in batches the provider's queue takes at once on a slow machine (a burst of 2,000 opens may be shed
        // by its queue-wait rule, as it should be); a stream that ends instead of joining fails with its cause.
        for (int batch = 0; batch < streams / 200; batch++) {
            for (int i = 0; i < 200; i++) {
                Recorder<String> reader = new Recorder<>(32);
                ticks.quotes("WAIT", 32).subscribe(reader);
                idle.add(reader);
            }
            int opened = idle.size();
            Await.until("a batch of streams joined or ended", Duration.ofSeconds(30),
                    () -> impl.quotes.subscriberCount() + ended(idle) >= opened + 1);
            assertThat(idle.stream().filter(r -> r.ended.getCount() == 0).map(r -> String.valueOf(r.error))
                    .distinct()).as("why streams ended instead of staying open").isEmpty();
        }
        assertThat(impl.quotes.subscriberCount()).isEqualTo(streams + 1);
        long perStream = (usedHeapAfterGc() - before) / streams;
        System.out.printf("StreamTransportsTest: %d idle open streams, heap %d B/stream (provider and consumer"
                + " sides together, one JVM)%n", streams, perStream);
        assertThat(perStream).isLessThan(16 * 1024);
        assertThat(idle).allMatch(r -> r.error == null);
    }

    private static long ended(List<Recorder<String>> readers) {
        return readers.stream().filter(r -> r.ended.getCount() == 0).count();
    }

    private static long usedHeapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
