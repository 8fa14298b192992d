package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.transport.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: the resumption hook. A consumer whose stream was cut opens it again with the last sequence it saw
 * ({@link Streams#resumeFrom}); the open carries it, the provider's method reads it ({@link Streams#resumePoint})
 * and continues after it. The connection under the first stream is reset by the fault proxy (RST both ways).
 */
@Timeout(60)
class StreamResumptionTest {

    private final FeedServiceImpl impl = new FeedServiceImpl();
    private JupiterServer server;
    private FaultProxy proxy;
    private JupiterClient client;
    private FeedService feed;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(impl);
        server.start();
        proxy = FaultProxy.start(server.localAddress().getPort());
        client = JupiterClient.builder().build();
        feed = client.proxy(FeedService.class).address("127.0.0.1", proxy.port()).connections(1)
                .timeoutMillis(10_000).build();
    }

    @AfterEach
    void stop() {
        client.close();
        proxy.close();
        server.close();
    }

    @Test
    void aStreamCutByAResetConnectionResumesAfterTheLastSequenceSeen() throws Exception {
        Recorder<Long> first = new Recorder<>(10);
        feed.events().subscribe(first);
        Await.until("10 messages", Duration.ofSeconds(10), () -> first.items.size() == 10);
        proxy.resetOpenConnections();
        assertThat(first.awaitEnd(10)).as("the reset ended the stream").isTrue();
        assertThat(first.error).isInstanceOfSatisfying(StreamException.class,
                e -> assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR));
        long lastSeen = first.items.get(first.items.size() - 1);

        // The client reconnects; the stream opens again, from after the last sequence seen.
        List<Long> all = new ArrayList<>(first.items);
        try (StreamIterator<Long> it = Streams.iterate(Streams.resumeFrom(lastSeen, feed.events()), 8)) {
            for (int i = 0; i < 20 && it.hasNext(); i++) {
                all.add(it.next());
            }
        }
        assertThat(impl.opens).containsExactly(OptionalLong.empty(), OptionalLong.of(lastSeen));
        assertThat(all).as("no gap and no repeat across the reset").containsExactlyElementsOf(
                LongStream.range(0, 30).boxed().toList());
        assertThat(proxy.acceptedConnections()).as("over a new connection").isEqualTo(2);
    }

    @Test
    void aResumePointTravelsWithTheDeadlineWhicheverWrapsTheOther() throws Exception {
        StreamDeadlines deadlines = StreamDeadlines.builder().whole(Duration.ofSeconds(30)).build();
        try (StreamIterator<Long> it = Streams.iterate(
                Streams.withDeadlines(Streams.resumeFrom(41, feed.events()), deadlines))) {
            assertThat(it.next()).isEqualTo(42);
        }
        try (StreamIterator<Long> it = Streams.iterate(
                Streams.resumeFrom(99, Streams.withDeadlines(feed.events(), deadlines)))) {
            assertThat(it.next()).isEqualTo(100);
        }
        assertThat(impl.opens).containsExactly(OptionalLong.of(41), OptionalLong.of(99));
    }
}
