package io.jupiter.rpc.stream;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** Streams of large messages both ways, for the byte-window tests. */
@ServiceProvider(group = "test", name = "blobs")
public interface BlobService {

    /** Server stream: strings of {@code size} characters until the stream ends, under {@code WAIT}, a buffer of 4. */
    Flow.Publisher<String> blobs(int size);

    /** Server stream: strings of {@code size} characters until the stream ends, with the default options. */
    Flow.Publisher<String> blobsWithDefaults(int size);

    /**
     * Client stream: asks for every blob at once, reads {@code read} of them, then stops reading (its subscriber
     * waits in {@code onNext} until the stream ends) and answers how many it read.
     */
    CompletableFuture<Integer> readThenStall(Flow.Publisher<String> blobs, int read);

    /**
     * Client stream, blocking: reads {@code read} blobs with the default iterator, then stops reading (the iterator
     * still open) until the test lets it go, and answers how many it read.
     */
    int iterateThenStall(Flow.Publisher<String> blobs, int read);
}
