package io.jupiter.benchmark.grpc;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.jupiter.benchmark.driver.StreamListener;

/**
 * The client side of one {@code upload} or {@code echo} stream, with gRPC's outbound flow control used as its
 * documentation asks: it sends ticks only while {@link ClientCallStreamObserver#isReady()} is true and resumes from the
 * on-ready handler. An upload tells the listener of each tick sent, and {@link #close()} completes it (the server
 * then answers its count); an echo sends each tick with its send time and tells the listener of each one echoed back
 * (read with the stub's default inbound flow control), and {@link #close()} cancels it.
 */
final class ClientTicks implements ClientResponseObserver<byte[], byte[]>, Runnable, AutoCloseable {

    private final byte[] payload;
    private final boolean echo;
    private final StreamListener listener;
    private ClientCallStreamObserver<byte[]> requests;
    private boolean closed;

    private ClientTicks(byte[] payload, boolean echo, StreamListener listener) {
        this.payload = payload;
        this.echo = echo;
        this.listener = listener;
    }

    /** An upload of ticks of {@code payload} (the counting server reads no send time: one tick, sent again). */
    static ClientTicks upload(byte[] payload, StreamListener listener) {
        return new ClientTicks(BenchmarkMethods.tick(payload), false, listener);
    }

    /** An echo of ticks of {@code payload}, each made when sent. */
    static ClientTicks echo(byte[] payload, StreamListener listener) {
        return new ClientTicks(payload, true, listener);
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
            if (echo) {
                requests.onNext(BenchmarkMethods.tick(payload));
            } else {
                requests.onNext(payload);
                listener.onMessage(0);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            if (echo) {
                requests.cancel("the load is over", null);
            } else {
                requests.onCompleted();
            }
        }
    }

    @Override
    public void onNext(byte[] reply) {
        if (echo) {
            listener.onMessage(BenchmarkMethods.sentNanos(reply));
        }
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
