package io.jupiter.rpc.stream;

import io.jupiter.rpc.exception.StreamException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** A consumer's blocking producer of 0, 1, 2, ... (at most {@code count}) that records how far it got and why not. */
final class Sender {

    final AtomicLong sends = new AtomicLong();
    final AtomicBoolean started = new AtomicBoolean();
    final CountDownLatch stopped = new CountDownLatch(1);
    /** How the producer learned its stream was over, if it did. */
    final AtomicReference<StreamException> end = new AtomicReference<>();
    final Flow.Publisher<Long> publisher;

    Sender(long count, int buffer) {
        this.publisher = Streams.produce(StreamOptions.builder().bufferMessages(buffer).build(), sink -> {
            started.set(true);
            try {
                for (long i = 0; i < count; i++) {
                    sink.send(i);
                    sends.incrementAndGet();
                }
            } catch (StreamException e) {
                end.set(e);
                throw e;
            } finally {
                stopped.countDown();
            }
        });
    }

    boolean awaitStopped() throws InterruptedException {
        return stopped.await(10, TimeUnit.SECONDS);
    }
}
