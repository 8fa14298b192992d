package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.LegacyExceptions;
import io.jupiter.rpc.internal.WorkerPool;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Status;

/**
 * One request on its way through the {@link ProviderPipeline}: where it came from and how to answer it. It is also
 * the task the provider pool runs.
 */
final class ProviderRequest implements WorkerPool.Task {

    final ProviderPipeline pipeline;
    final Connection connection;
    final Frame frame;
    final long id;
    final byte serializerCode;
    final long receivedNanos;
    /** The request's serializer once the read stage accepted it; answers are written with it. */
    Serializer serializer;
    int requestBytes;

    ProviderRequest(ProviderPipeline pipeline, Connection connection, Frame frame) {
        this.pipeline = pipeline;
        this.connection = connection;
        this.frame = frame;
        this.id = frame.id();
        this.serializerCode = frame.serializerCode();
        this.receivedNanos = frame.receivedNanos();
    }

    @Override
    public long queuedNanos() {
        return receivedNanos;
    }

    @Override
    public void run() {
        pipeline.serve(this);
    }

    /** This request will not be served (the pool was stopped): releases its frame and its admission. */
    void discard() {
        frame.release();
        pipeline.ended();
    }

    /** Answers with {@code status} and {@code result}: the method's value, or the error to send. */
    void respond(Status status, Object result) {
        ResponseWriter.write(this, status, result, false);
    }

    /**
     * Answers a failure outside the method with 1.3.1's exception class for {@code status} and {@code why} as its
     * message; then closes the connection if {@code close}.
     */
    void refuse(Status status, String why, boolean close) {
        ResponseWriter.write(this, status, LegacyExceptions.body(status, why), close);
    }
}
