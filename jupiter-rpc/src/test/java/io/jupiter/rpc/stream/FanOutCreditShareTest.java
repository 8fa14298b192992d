package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #39, fan-out: the subscribers of a topic on one connection share its byte window
 * ({@code streamConnectionWindowBytes}, 8 MiB by default) instead of a few of them holding it as credit they use
 * one message a burst at a time while the others run at one message of credit and send a credit frame for every
 * message they read. 400 subscribers asking for everything (each one's own 1 MiB window would hold about 40,000 of
 * these messages) on one connection through a relay that counts the credit frames they send, one burst (a message
 * to every subscriber) at a time.
 */
@Timeout(180)
class FanOutCreditShareTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int SUBSCRIBERS = 400;
    /** Bursts before counting: the first teaches the window the messages' size, the next ones settle the shares. */
    private static final int SETTLING = 3;

    /**
     * With the default windows each share holds about 300 of these messages: once the sizes are known and the shares
     * settled, a burst costs next to no credit frames, where it cost one per subscriber less a handful (376 to 392
     * a burst) when streams granted first kept what they took.
     */
    @Test
    void subscribersOfOneConnectionShareItsWindowAndABurstCostsFewCreditFrames() throws Exception {
        long[] frames = framesPerBurst(JupiterClient.builder(), SETTLING + 15);
        assertThat(most(frames)).as("credit frames in any burst after the first %d", SETTLING)
                .isLessThanOrEqualTo(SUBSCRIBERS / 8);
        assertThat(total(frames)).as("credit frames in the 15 bursts after those").isLessThanOrEqualTo(SUBSCRIBERS / 4);
    }

    /**
     * A connection window of 256 KiB: each share (128 KiB / 400) holds only a few messages, so every subscriber asks
     * again every few bursts. They got their shares in the same burst and read at the same pace; they ask at
     * different points, so no burst carries a credit frame from every subscriber (382 did, every 6 bursts, when
     * they all asked at half their share; at most 158 with the points spread, one run).
     */
    @Test
    void subscribersWhoseSharesAreSmallDoNotAllAskInTheSameBurst() throws Exception {
        long[] frames = framesPerBurst(JupiterClient.builder().streamConnectionWindowBytes(256 * 1024), SETTLING + 30);
        assertThat(total(frames)).as("the subscribers ask again within the 30 bursts").isGreaterThan(SUBSCRIBERS);
        assertThat(most(frames)).as("credit frames in any burst after the first %d", SETTLING)
                .isLessThanOrEqualTo(SUBSCRIBERS * 3 / 4);
    }

    private static long most(long[] frames) {
        return Arrays.stream(frames, SETTLING, frames.length).max().orElseThrow();
    }

    private static long total(long[] frames) {
        return Arrays.stream(frames, SETTLING, frames.length).sum();
    }

    /** Publishes {@code bursts} messages to {@link #SUBSCRIBERS} subscribers of one connection, one at a time. */
    private static long[] framesPerBurst(JupiterClient.Builder clientBuilder, int bursts) throws Exception {
        TickServiceImpl impl = new TickServiceImpl();
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(impl);
        server.start();
        CreditFrameCounter credit = new CreditFrameCounter();
        try (TcpRelay relay = new TcpRelay(server.localAddress().getPort(), credit::tap);
             JupiterClient client = clientBuilder.build()) {
            TickService ticks = client.proxy(TickService.class).address("127.0.0.1", relay.port())
                    .connections(1).timeoutMillis(10_000).build();
            List<Recorder<String>> readers = new ArrayList<>();
            for (int i = 0; i < SUBSCRIBERS; i++) {
                Recorder<String> reader = new Recorder<>(Long.MAX_VALUE);
                ticks.quotes("WAIT", 1024).subscribe(reader);
                readers.add(reader);
            }
            Await.until("every stream joined the topic", WAIT, () -> impl.quotes.subscriberCount() == SUBSCRIBERS);

            long[] frames = new long[bursts];
            for (int burst = 0; burst < bursts; burst++) {
                long before = credit.creditFrames();
                assertThat(impl.quotes.publish("q" + burst)).isEqualTo(SUBSCRIBERS);
                int expected = burst + 1;
                Await.until("every reader has burst " + burst, WAIT,
                        () -> readers.stream().allMatch(r -> r.items.size() == expected));
                // A reader sends its credit after it read the message: count them once they stop coming.
                frames[burst] = SettledCount.of(credit::creditFrames, before) - before;
            }
            System.out.printf("FanOutCreditShareTest: credit frames per burst to %d subscribers of one connection: %s"
                    + "%n", SUBSCRIBERS, Arrays.toString(frames));
            for (Recorder<String> reader : readers) {
                assertThat(reader.error).isNull();
                assertThat(reader.items).hasSize(bursts);
            }
            readers.forEach(r -> r.subscription.cancel());
            return frames;
        } finally {
            server.close();
        }
    }
}
