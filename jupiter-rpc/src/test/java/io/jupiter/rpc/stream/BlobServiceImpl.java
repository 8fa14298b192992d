package io.jupiter.rpc.stream;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Counts what its server streams sent and what its client-stream method read. */
final class BlobServiceImpl implements BlobService {

    /** How many blobs a server stream sends at most. */
    static final int MOST = 10_000;

    /** Sends that returned, over every server stream. */
    final AtomicLong sends = new AtomicLong();
    /** Blobs the client-stream method read. */
    final AtomicInteger reads = new AtomicInteger();
    /** Opened once the stalled reader should let go. */
    final CountDownLatch release = new CountDownLatch(1);
    /** Blobs read by {@link #iterateThenStall}, over every call. */
    final AtomicLong iterated = new AtomicLong();
    /** Opened to let the next {@link #iterateThenStall} call go: a test sets a fresh one before each call. */
    volatile CountDownLatch letGo = new CountDownLatch(1);

    @Override
    public Flow.Publisher<String> blobs(int size) {
        return Streams.produce(StreamOptions.builder().bufferMessages(4).build(), sink -> {
            for (int i = 0; i < MOST; i++) {
                sink.send("x".repeat(size));
                sends.incrementAndGet();
            }
        });
    }

    @Override
    public Flow.Publisher<String> blobsWithDefaults(int size) {
        return Streams.produce(sink -> {
            for (int i = 0; i < MOST; i++) {
                sink.send("x".repeat(size));
                sends.incrementAndGet();
            }
        });
    }

    @Override
    public CompletableFuture<Integer> readThenStall(Flow.Publisher<String> blobs, int read) {
        CompletableFuture<Integer> answer = new CompletableFuture<>();
        blobs.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(String blob) {
                if (reads.incrementAndGet() > read) {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            @Override
            public void onError(Throwable error) {
                answer.complete(reads.get());
            }

            @Override
            public void onComplete() {
                answer.complete(reads.get());
            }
        });
        return answer;
    }

    @Override
    public int iterateThenStall(Flow.Publisher<String> blobs, int read) {
        CountDownLatch stall = letGo;
        int got = 0;
        try (StreamIterator<String> it = Streams.iterate(blobs)) {
            while (got < read && it.hasNext()) {
                it.next();
                got++;
                iterated.incrementAndGet();
            }
            stall.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return got;
    }
}
