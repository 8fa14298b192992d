package io.jupiter.benchmark.grpc;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.jupiter.benchmark.driver.StreamListener;

/**
 * The client side of one {@code upload} stream, with gRPC's outbound flow control used as its documentation asks: it
 * sends ticks only while {@link ClientCallStreamObserver#isReady()} is true and resumes from the on-ready handler,
 * telling the listener of each one; {@link #close()} completes the stream (the server then answers its count).
 */
final class TickUploader implements ClientResponseObserver<byte[], byte[]>, Runnable, AutoCloseable {

    private final byte[] tick;
    private final StreamListener listener;
    private ClientCallStreamObserver<byte[]> requests;
    private boolean closed;

    /** @param tick the bytes of every tick sent (a tick's send time is not read by the counting server) */
    TickUploader(byte[] tick, StreamListener listener) {
        this.tick = tick;
        this.listener = listener;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<byte[]> requestStream) {
        this.requests = requestStream;
        requestStream.setOnReadyHandler(this);
    }

    /** Sends while the stream is ready; gRPC runs it on its executor, one at a time. */
    @Override
    public synchronized void run() {
        while (!closed && requests.isReady()) {
            requests.onNext(tick);
            listener.onMessage(0);
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            requests.onCompleted();
        }
    }

    @Override
    public void onNext(byte[] count) {
    }

    @Override
    public void onError(Throwable error) {
        listener.onEnd(error);
    }

    @Override
    public void onCompleted() {
        listener.onEnd(null);
    }
}
