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
 * these messages) on one connection through a relay that counts the credit frames they send: once the sizes are
 * known and the shares settled, a burst to all of them costs next to no credit frames, where it cost one per
 * subscriber less a handful (390 and more a burst) when streams granted first kept what they took.
 */
@Timeout(120)
class FanOutCreditShareTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int SUBSCRIBERS = 400;
    /** Bursts before counting: the first teaches the window the messages' size, the next ones settle the shares. */
    private static final int SETTLING = 3;
    private static final int COUNTED = 15;

    @Test
    void subscribersOfOneConnectionShareItsWindowAndABurstCostsFewCreditFrames() throws Exception {
        TickServiceImpl impl = new TickServiceImpl();
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(impl);
        server.start();
        try (CreditFrameCountingRelay relay = new CreditFrameCountingRelay(server.localAddress().getPort());
             JupiterClient client = JupiterClient.builder().build()) {
            TickService ticks = client.proxy(TickService.class).address("127.0.0.1", relay.port())
                    .connections(1).timeoutMillis(10_000).build();
            List<Recorder<String>> readers = new ArrayList<>();
            for (int i = 0; i < SUBSCRIBERS; i++) {
                Recorder<String> reader = new Recorder<>(Long.MAX_VALUE);
                ticks.quotes("WAIT", 1024).subscribe(reader);
                readers.add(reader);
            }
            Await.until("every stream joined the topic", WAIT, () -> impl.quotes.subscriberCount() == SUBSCRIBERS);

            long[] framesPerBurst = new long[SETTLING + COUNTED];
            for (int burst = 0; burst < framesPerBurst.length; burst++) {
                long before = relay.creditFrames();
                assertThat(impl.quotes.publish("q" + burst)).isEqualTo(SUBSCRIBERS);
                int expected = burst + 1;
                Await.until("every reader has burst " + burst, WAIT,
                        () -> readers.stream().allMatch(r -> r.items.size() == expected));
                // Credit frames a reader sends after it read the burst's message have left by the time the next
                // burst is published only if they are counted after it: wait until the count holds still.
                long now = SettledCount.of(relay::creditFrames, before);
                framesPerBurst[burst] = now - before;
            }
            long counted = 0;
            long most = 0;
            for (int burst = SETTLING; burst < framesPerBurst.length; burst++) {
                counted += framesPerBurst[burst];
                most = Math.max(most, framesPerBurst[burst]);
            }
            System.out.printf("FanOutCreditShareTest: credit frames per burst to %d subscribers of one connection: %s"
                    + "%n", SUBSCRIBERS, Arrays.toString(framesPerBurst));
            for (Recorder<String> reader : readers) {
                assertThat(reader.error).isNull();
                assertThat(reader.items).hasSize(framesPerBurst.length);
            }
            // Each reader's share of the connection's window holds many bursts of these messages: no reader runs
            // at one message of credit.
            assertThat(most).as("credit frames in any burst after the first %d", SETTLING)
                    .isLessThanOrEqualTo(SUBSCRIBERS / 8);
            assertThat(counted).as("credit frames in %d bursts", COUNTED).isLessThanOrEqualTo(SUBSCRIBERS / 4);
            readers.forEach(r -> r.subscription.cancel());
        } finally {
            server.close();
        }
    }
}
