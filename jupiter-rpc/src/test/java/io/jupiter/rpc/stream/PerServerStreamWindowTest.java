package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #38: a stream's byte window ({@code streamWindowBytes}) is each server's and each client's own: two of them in
 * one JVM, one at 64 KiB and one at the default 1 MiB, each hold the 64 KiB messages of a reader that stopped by its
 * own window (one against about 16).
 */
@Timeout(90)
class PerServerStreamWindowTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int SIZE = 64 * 1024;
    private static final int SMALL_WINDOW = 64 * 1024;
    /** Messages read before the reader stops: well past the first grant, so the window knows the size. */
    private static final int READ = 40;
    /** One 64 KiB message within 64 KiB, the sender's buffer of 4, one send waiting, one in the reader's hands. */
    private static final int MOST_AHEAD_SMALL = 1 + 4 + 1 + 1;

    @Test
    void eachClientReadsAServerStreamByItsOwnWindow() {
        BlobServiceImpl impl = new BlobServiceImpl();
        try (JupiterServer server = started(JupiterServer.builder(), impl);
             JupiterClient small = JupiterClient.builder().streamWindowBytes(SMALL_WINDOW).build();
             JupiterClient standard = JupiterClient.builder().build()) {
            long bySmall = sentToAStoppedIterator(small, server, impl);
            long byStandard = sentToAStoppedIterator(standard, server, impl);
            System.out.printf("PerServerStreamWindowTest: iterators that stopped after %d messages of 64 KiB: the"
                    + " provider sent %d to the client with a 64 KiB window, %d to the one with 1 MiB%n", READ,
                    bySmall, byStandard);
            assertThat(bySmall).isBetween((long) READ, (long) READ + MOST_AHEAD_SMALL);
            assertThat(byStandard).isGreaterThan(READ + MOST_AHEAD_SMALL);
        } finally {
            impl.release.countDown();
        }
    }

    @Test
    void eachServerReadsAClientStreamByItsOwnWindow() throws Exception {
        BlobServiceImpl smallImpl = new BlobServiceImpl();
        BlobServiceImpl standardImpl = new BlobServiceImpl();
        try (JupiterServer small = started(JupiterServer.builder().streamWindowBytes(SMALL_WINDOW), smallImpl);
             JupiterServer standard = started(JupiterServer.builder(), standardImpl);
             JupiterClient client = JupiterClient.builder().build()) {
            long toSmall = sentToAStalledMethod(client, small, smallImpl);
            long toStandard = sentToAStalledMethod(client, standard, standardImpl);
            System.out.printf("PerServerStreamWindowTest: methods that stalled after %d messages of 64 KiB: the"
                    + " consumer sent %d to the server with a 64 KiB window, %d to the one with 1 MiB%n", READ,
                    toSmall, toStandard);
            assertThat(toSmall).isBetween((long) READ, (long) READ + MOST_AHEAD_SMALL);
            assertThat(toStandard).isGreaterThan(READ + MOST_AHEAD_SMALL);
        } finally {
            smallImpl.release.countDown();
            standardImpl.release.countDown();
        }
    }

    private static JupiterServer started(JupiterServer.Builder builder, BlobServiceImpl impl) {
        JupiterServer server = builder.host("127.0.0.1").port(0).build();
        server.register(impl);
        server.start();
        return server;
    }

    private static BlobService blobs(JupiterClient client, JupiterServer server) {
        return client.proxy(BlobService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(1).timeoutMillis(30_000).build();
    }

    /** Messages the provider sent to an iterator that read {@link #READ} and stopped. */
    private static long sentToAStoppedIterator(JupiterClient client, JupiterServer server, BlobServiceImpl impl) {
        long before = impl.sends.get();
        try (StreamIterator<String> it = Streams.iterate(blobs(client, server).blobs(SIZE))) {
            for (int i = 0; i < READ; i++) {
                assertThat(it.next()).hasSize(SIZE);
            }
            return settled(() -> impl.sends.get() - before);
        }
    }

    /** Messages the consumer sent to a method that read {@link #READ} and stalled. */
    private static long sentToAStalledMethod(JupiterClient client, JupiterServer server, BlobServiceImpl impl) {
        AtomicLong sends = new AtomicLong();
        Flow.Publisher<String> producer = Streams.produce(StreamOptions.builder().bufferMessages(4).build(), sink -> {
            for (int i = 0; i < BlobServiceImpl.MOST; i++) {
                sink.send("x".repeat(SIZE));
                sends.incrementAndGet();
            }
        });
        CompletableFuture<Integer> answer = blobs(client, server).readThenStall(producer, READ);
        Await.until("the method read its messages", WAIT, () -> impl.reads.get() > READ);
        long sent = settled(sends::get);
        answer.cancel(true);
        return sent;
    }

    /** {@code count} once at least {@link #READ} and still for half a second (bounded: the loop ends). */
    private static long settled(LongSupplier count) {
        for (int i = 0; i < 40; i++) {
            long now = count.getAsLong();
            if (now >= READ && Await.holdsFor(Duration.ofMillis(500), () -> count.getAsLong() == now)) {
                return now;
            }
        }
        return count.getAsLong();
    }
}
