package io.jupiter.rpc.stream;

import io.jupiter.rpc.exception.StreamException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/** Records what its methods read and sent, so tests can check the provider's side. */
public final class IntakeServiceImpl implements IntakeService {

    /** How many messages an endless producer sends at most. */
    static final long ENDLESS = 100_000;

    /** The latest stream's record. */
    final AtomicReference<Run> latest = new AtomicReference<>();
    /** What the consumer's producer has sent, for {@link #slowCount}; set by the test. */
    volatile LongSupplier senderProgress = () -> 0;
    /** {@link #sum} calls running now: each waits in its iterator until the consumer's stream ends. */
    private final AtomicInteger summing = new AtomicInteger();

    /** How many {@link #sum} calls are running now. */
    public int summing() {
        return summing.get();
    }

    @Override
    public long sum(Flow.Publisher<Long> numbers) {
        summing.incrementAndGet();
        long sum = 0;
        try (StreamIterator<Long> it = Streams.iterate(numbers)) {
            while (it.hasNext()) {
                sum += it.next();
            }
        } finally {
            summing.decrementAndGet();
        }
        return sum;
    }

    @Override
    public CompletableFuture<String> join(Flow.Publisher<String> items) {
        CompletableFuture<String> joined = new CompletableFuture<>();
        items.subscribe(new Flow.Subscriber<>() {
            private final List<String> got = new ArrayList<>();
            private Flow.Subscription subscription;

            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription = s;
                s.request(4);
            }

            @Override
            public void onNext(String item) {
                got.add(item);
                if (got.size() % 4 == 0) {
                    subscription.request(4);
                }
            }

            @Override
            public void onError(Throwable error) {
                joined.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                joined.complete(String.join(",", got));
            }
        });
        return joined;
    }

    @Override
    public CompletableFuture<Integer> stall(Flow.Publisher<Long> numbers, int read) {
        Run run = start();
        CompletableFuture<Integer> answer = new CompletableFuture<>();
        numbers.subscribe(run.reader(read, () -> answer.complete((int) run.reads.get())));
        return answer;
    }

    @Override
    public CompletableFuture<Long> slowCount(Flow.Publisher<Long> numbers, int pauseMillis) {
        Run run = start();
        CompletableFuture<Long> answer = new CompletableFuture<>();
        numbers.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(Long item) {
                long delivered = run.reads.incrementAndGet();
                // Nothing else delivers while this runs: what the sender sent beyond what arrived is exact here.
                run.maxAhead.accumulateAndGet(senderProgress.getAsLong() - delivered, Math::max);
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void onError(Throwable error) {
                run.inboundEnded(error);
                answer.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                run.inboundEnded(null);
                answer.complete(run.reads.get());
            }
        });
        return answer;
    }

    @Override
    public String firstOf(Flow.Publisher<String> items, int n) {
        List<String> got = new ArrayList<>();
        try (StreamIterator<String> it = Streams.iterate(items, 2)) {
            while (got.size() < n && it.hasNext()) {
                got.add(it.next());
            }
        }
        return String.join(",", got);
    }

    @Override
    public Flow.Publisher<String> shout(Flow.Publisher<String> words) {
        return Streams.produce(sink -> {
            try (StreamIterator<String> it = Streams.iterate(words)) {
                while (it.hasNext()) {
                    sink.send(it.next().toUpperCase());
                }
            }
        });
    }

    @Override
    public Flow.Publisher<Long> doubled(Flow.Publisher<Long> numbers) {
        return new Doubling(numbers);
    }

    @Override
    public Flow.Publisher<Long> halfClose(Flow.Publisher<Long> numbers, int read, int send) {
        Run run = start();
        return Streams.produce(sink -> {
            try (StreamIterator<Long> it = Streams.iterate(numbers, 2)) {
                while (run.reads.get() < read && it.hasNext()) {
                    it.next();
                    run.reads.incrementAndGet();
                }
            }
            for (long i = 0; i < send; i++) {
                sink.send(i);
            }
        });
    }

    @Override
    public Flow.Publisher<Long> both(Flow.Publisher<Long> numbers, int read) {
        Run run = start();
        numbers.subscribe(run.reader(read, () -> { }));
        StreamOptions options = StreamOptions.builder().bufferMessages(4).build();
        return Streams.produce(options, sink -> {
            try {
                for (long i = 0; i < ENDLESS; i++) {
                    sink.send(i);
                    run.sends.incrementAndGet();
                }
            } catch (StreamException e) {
                run.producerEnd.set(e);
                throw e;
            } finally {
                run.producerStopped.countDown();
            }
        });
    }

    @Override
    public String hello(String name) {
        return "hello, " + name;
    }

    private Run start() {
        Run run = new Run();
        latest.set(run);
        return run;
    }

    /** What one stream's provider side did. */
    static final class Run {
        /** The consumer's messages read. */
        final AtomicLong reads = new AtomicLong();
        /** The largest count of messages the consumer had sent beyond those read, seen as each was read. */
        final AtomicLong maxAhead = new AtomicLong();
        /** The provider's sends that returned. */
        final AtomicLong sends = new AtomicLong();
        final CountDownLatch inboundEnded = new CountDownLatch(1);
        /** How the reader of the consumer's messages ended: {@code null} if it completed. */
        final AtomicReference<Throwable> inboundEnd = new AtomicReference<>();
        final CountDownLatch producerStopped = new CountDownLatch(1);
        final AtomicReference<StreamException> producerEnd = new AtomicReference<>();

        void inboundEnded(Throwable error) {
            inboundEnd.set(error);
            inboundEnded.countDown();
        }

        boolean awaitInboundEnded() throws InterruptedException {
            return inboundEnded.await(10, TimeUnit.SECONDS);
        }

        boolean awaitProducerStopped() throws InterruptedException {
            return producerStopped.await(10, TimeUnit.SECONDS);
        }

        /** A reader that asks for exactly {@code read} messages and runs {@code ended} once the stream ends. */
        Flow.Subscriber<Long> reader(int read, Runnable ended) {
            return new Flow.Subscriber<>() {
                @Override
                public void onSubscribe(Flow.Subscription s) {
                    s.request(read);
                }

                @Override
                public void onNext(Long item) {
                    reads.incrementAndGet();
                }

                @Override
                public void onError(Throwable error) {
                    inboundEnded(error);
                    ended.run();
                }

                @Override
                public void onComplete() {
                    inboundEnded(null);
                    ended.run();
                }
            };
        }
    }

    /** Doubles each number, passing its subscriber's demand and cancel straight to the numbers' subscription. */
    private static final class Doubling implements Flow.Publisher<Long> {
        private final Flow.Publisher<Long> numbers;

        Doubling(Flow.Publisher<Long> numbers) {
            this.numbers = numbers;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super Long> downstream) {
            numbers.subscribe(new Flow.Subscriber<>() {
                @Override
                public void onSubscribe(Flow.Subscription s) {
                    downstream.onSubscribe(s);
                }

                @Override
                public void onNext(Long item) {
                    downstream.onNext(item * 2);
                }

                @Override
                public void onError(Throwable error) {
                    downstream.onError(error);
                }

                @Override
                public void onComplete() {
                    downstream.onComplete();
                }
            });
        }
    }
}
