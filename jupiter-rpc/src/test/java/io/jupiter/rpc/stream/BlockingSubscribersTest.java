package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Subscribers that block in {@code onNext} (a database write, a blocking call: the default delivery threads allow
 * it) do not hold up the other streams of their connection: each stream is delivered as if it had a thread of its
 * own. Real sockets on 127.0.0.1, one connection.
 */
@Timeout(120)
class BlockingSubscribersTest {

    private static final int STREAMS = 8;

    /**
     * Each of 8 streams' subscribers waits in its first {@code onNext} until all 8 are in theirs at once: they can
     * only all get there if no blocked subscriber keeps another stream's message from being delivered.
     */
    @Test
    void subscribersBlockedInOnNextDoNotHoldUpTheOtherStreamsOfTheirConnection() throws Exception {
        try (LoopbackPair pair = LoopbackPair.serving(new TickServiceImpl())) {
            TickService ticks = pair.proxy(TickService.class, 60_000);
            CountDownLatch allIn = new CountDownLatch(STREAMS);
            CountDownLatch ended = new CountDownLatch(STREAMS);
            AtomicInteger gotThrough = new AtomicInteger();
            for (int i = 0; i < STREAMS; i++) {
                ticks.count(3).subscribe(new Flow.Subscriber<>() {
                    private boolean first = true;

                    @Override
                    public void onSubscribe(Flow.Subscription subscription) {
                        subscription.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(Long item) {
                        if (first) {
                            first = false;
                            allIn.countDown();
                            try {
                                if (allIn.await(30, TimeUnit.SECONDS)) {
                                    gotThrough.incrementAndGet();
                                }
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                    }

                    @Override
                    public void onError(Throwable throwable) {
                        ended.countDown();
                    }

                    @Override
                    public void onComplete() {
                        ended.countDown();
                    }
                });
            }
            assertThat(ended.await(90, TimeUnit.SECONDS)).as("every stream ended").isTrue();
            assertThat(gotThrough.get()).as("subscribers that saw all 8 in onNext at once").isEqualTo(STREAMS);
        }
    }
}
