package io.jupiter.rpc.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Status;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** Records what its producers did, so tests can check the provider's side. */
public final class TickServiceImpl implements TickService {

    /** How many messages an "endless" stream sends at most. */
    static final long ENDLESS = 100_000;

    final Topic<String> quotes = new Topic<>();
    /** The latest endless producer's record. */
    final AtomicReference<Run> latest = new AtomicReference<>();
    final ConcurrentLinkedQueue<String> calls = new ConcurrentLinkedQueue<>();

    @Override
    public Flow.Publisher<Long> count(int n) {
        calls.add("count");
        return Streams.produce(sink -> {
            for (long i = 0; i < n; i++) {
                sink.send(i);
            }
        });
    }

    @Override
    public Flow.Publisher<Long> endless(String policy, int buffer) {
        calls.add("endless");
        Run run = new Run();
        latest.set(run);
        StreamOptions options = StreamOptions.builder().policy(SlowConsumerPolicy.valueOf(policy))
                .bufferMessages(buffer).build();
        return Streams.produce(options, sink -> {
            try {
                // Bounded: a test stream never needs more than this.
                for (long i = 0; i < ENDLESS; i++) {
                    sink.send(i);
                    run.sends.incrementAndGet();
                }
            } catch (StreamException e) {
                run.end.set(e);
                throw e;
            } finally {
                run.stopped.countDown();
            }
        });
    }

    @Override
    public Flow.Publisher<Integer> submitted(int n) {
        SubmissionPublisher<Integer> publisher = new SubmissionPublisher<>();
        Thread feeder = new Thread(() -> {
            try {
                // A SubmissionPublisher drops what is submitted before it has a subscriber.
                Await.until("the stream subscribed to the publisher", Duration.ofSeconds(10),
                        () -> publisher.getNumberOfSubscribers() > 0);
                // Blocks while the bridge's demand (the receiver's credit) is used up: back-pressure end to end.
                for (int i = 0; i < n; i++) {
                    publisher.submit(i);
                }
                publisher.close();
            } catch (IllegalStateException e) {
                // closed by a cancel
            }
        }, "test-submission-feeder");
        feeder.setDaemon(true);
        feeder.start();
        return publisher;
    }

    @Override
    public Flow.Publisher<Long> failing(int before) {
        return Streams.produce(sink -> {
            for (long i = 0; i < before; i++) {
                sink.send(i);
            }
            throw new IllegalStateException("the producer broke after " + before);
        });
    }

    @Override
    public Flow.Publisher<String> quotes(String policy, int buffer) {
        return quotes.subscriber(StreamOptions.builder().policy(SlowConsumerPolicy.valueOf(policy))
                .bufferMessages(buffer).build());
    }

    @Override
    public Flow.Publisher<Long> paced(int n, int pauseMillis) {
        Run run = new Run();
        latest.set(run);
        return Streams.produce(sink -> {
            run.started.countDown();
            try {
                for (long i = 0; i < n; i++) {
                    Thread.sleep(pauseMillis);
                    sink.send(i);
                    run.sends.incrementAndGet();
                }
            } catch (StreamException e) {
                run.end.set(e);
                throw e;
            } catch (InterruptedException e) {
                // the stream ended while the producer slept: it is interrupted
                run.end.set(new StreamException(Status.STREAM_CANCELLED, "interrupted"));
                throw e;
            } finally {
                run.stopped.countDown();
            }
        });
    }

    @Override
    public String hello(String name) {
        return "hello, " + name;
    }

    /** What one endless producer did. */
    static final class Run {
        /** Sends that returned (sent, buffered or dropped). */
        final AtomicLong sends = new AtomicLong();
        /** Counted down when a paced producer's body starts (after the consumer's first credit arrived). */
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch stopped = new CountDownLatch(1);
        /** How the producer learned its stream was over, if it did. */
        final AtomicReference<StreamException> end = new AtomicReference<>();

        boolean awaitStopped() throws InterruptedException {
            return stopped.await(10, TimeUnit.SECONDS);
        }
    }
}
