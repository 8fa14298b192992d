package io.jupiter.benchmark.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The stream load on its own, against in-process streams: what it counts, what fails, what it closes. */
class StreamDriverTest {

    @Test
    void countsTheMeasuredMessagesOfEveryStreamAndClosesThem() throws Exception {
        ThreadStreams client = new ThreadStreams(Integer.MAX_VALUE);
        LoadResult result = new StreamDriver(client, 3).run(0, 1, System.out);

        assertThat(result.failures()).isZero();
        assertThat(result.count()).isPositive();
        assertThat(result.maxMicros()).isGreaterThanOrEqualTo(result.p50Micros());
        assertThat(client.opened.get()).isEqualTo(3);
        assertThat(client.closed.get()).isEqualTo(3);
    }

    @Test
    void aStreamThatEndsBeforeTheLoadIsAFailure() throws Exception {
        LoadResult result = new StreamDriver(new ThreadStreams(10), 2).run(0, 1, System.out);

        assertThat(result.failures()).isEqualTo(2);
        assertThat(result.firstFailure()).contains("completed a stream before the load ended");
    }

    @Test
    void aFanOutSharesTheDeliveryRateAmongItsSubscribers() throws Exception {
        ThreadStreams client = new ThreadStreams(Integer.MAX_VALUE);
        LoadResult result = StreamDriver.fanOut(client, 4).run(0, 1, System.out);

        assertThat(result.failures()).isZero();
        assertThat(result.count()).isPositive();
        assertThat(client.publishesPerSecond.get()).isEqualTo(StreamDriver.FAN_OUT_DELIVERIES_PER_SECOND / 4);
        assertThat(client.closed.get()).isEqualTo(4);
    }

    @Test
    void anUploadCountsTheMessagesItsStreamsSentAndClosesThem() throws Exception {
        ThreadStreams client = new ThreadStreams(Integer.MAX_VALUE);
        LoadResult result = StreamDriver.upload(client, 2).run(0, 1, System.out);

        assertThat(result.failures()).isZero();
        assertThat(result.count()).isPositive();
        assertThat(result.maxMicros()).as("no latency for a client stream").isZero();
        assertThat(client.uploads.get()).isEqualTo(2);
        assertThat(client.closed.get()).isEqualTo(2);
    }

    @Test
    void anEchoCountsTheEchoesWithTheirRoundTripAndClosesItsStreams() throws Exception {
        ThreadStreams client = new ThreadStreams(Integer.MAX_VALUE);
        LoadResult result = StreamDriver.echo(client, 3).run(0, 1, System.out);

        assertThat(result.failures()).isZero();
        assertThat(result.count()).isPositive();
        assertThat(result.maxMicros()).as("a round trip is recorded for each echo").isPositive();
        assertThat(client.echoes.get()).isEqualTo(3);
        assertThat(client.closed.get()).isEqualTo(3);
    }

    @Test
    void aTargetWithoutStreamsSaysSo() {
        TargetClient unary = new TargetClient() {
            @Override
            public void call() {
            }

            @Override
            public CompletableFuture<?> callAsync() {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public void close() {
            }
        };
        assertThatThrownBy(() -> new StreamDriver(unary, 1).run(0, 1, System.out))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("has no server stream");
        assertThatThrownBy(() -> StreamDriver.fanOut(unary, 1).run(0, 1, System.out))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("has no topic");
        assertThatThrownBy(() -> StreamDriver.upload(unary, 1).run(0, 1, System.out))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("has no client stream");
        assertThatThrownBy(() -> StreamDriver.echo(unary, 1).run(0, 1, System.out))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("has no bidirectional stream");
        assertThatThrownBy(() -> new StreamDriver(unary, 0)).hasMessageContaining("streams");
    }

    /** Each stream is a thread sending up to {@code limit} messages, then completing; closing stops it. */
    private static final class ThreadStreams implements TargetClient {
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final AtomicInteger publishesPerSecond = new AtomicInteger();
        final AtomicInteger uploads = new AtomicInteger();
        final AtomicInteger echoes = new AtomicInteger();
        private final int limit;

        ThreadStreams(int limit) {
            this.limit = limit;
        }

        @Override
        public AutoCloseable openStream(StreamListener listener) {
            opened.incrementAndGet();
            Thread sender = new Thread(() -> {
                for (int i = 0; i < limit && !Thread.currentThread().isInterrupted(); i++) {
                    listener.onMessage(System.nanoTime());
                }
                listener.onEnd(null);
            });
            sender.setDaemon(true);
            sender.start();
            return () -> {
                sender.interrupt();
                sender.join(5_000);
                closed.incrementAndGet();
            };
        }

        @Override
        public AutoCloseable subscribe(int rate, StreamListener listener) {
            publishesPerSecond.set(rate);
            return openStream(listener);
        }

        /** A client stream's sends are counted with no send time. */
        @Override
        public AutoCloseable openUpload(StreamListener listener) {
            uploads.incrementAndGet();
            return openStream(new StreamListener() {
                @Override
                public void onMessage(long sentNanos) {
                    listener.onMessage(0);
                }

                @Override
                public void onEnd(Throwable error) {
                    listener.onEnd(error);
                }
            });
        }

        /** An echo arrives with the send time of its message, a moment before. */
        @Override
        public AutoCloseable openEcho(StreamListener listener) {
            echoes.incrementAndGet();
            return openStream(new StreamListener() {
                @Override
                public void onMessage(long sentNanos) {
                    listener.onMessage(sentNanos - 1_000_000);
                }

                @Override
                public void onEnd(Throwable error) {
                    listener.onEnd(error);
                }
            });
        }

        @Override
        public void call() {
        }

        @Override
        public CompletableFuture<?> callAsync() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
        }
    }
}
