package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.PortableValues;
import io.jupiter.rpc.internal.Throwables;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;

/** Writes response frames: a result or an error, in the serializer the request came in. */
final class ResponseWriter {

    /** A larger response grows its buffer rather than make every next one of its method reserve as much. */
    private static final int MAX_SIZE_HINT = 64 * 1024;

    private ResponseWriter() {
    }

    /**
     * Writes {@code result} with {@code status} as the answer to {@code request}, in the request's serializer (the
     * accepted one, else any known one with its code; with none the body is empty), and records it in the metrics.
     * If the result cannot be serialized, answers {@link Status#SERVER_ERROR} with a message saying so instead.
     *
     * @param close whether to close the connection after the response is written
     */
    static void write(ProviderRequest request, Status status, Object result, boolean close) {
        Connection connection = request.connection;
        Serializer serializer = request.serializer != null ? request.serializer
                : Serializers.find(request.serializerCode);
        if (result instanceof Throwable error && !request.pipeline.sendsStackTraces()) {
            Throwables.clearStackTraces(error);
        }
        MethodEntry method = request.method;
        ByteBuf frame = Frames.newFrame(connection.alloc(), method != null ? method.lastResponseBodySize : 64);
        Status sent = status;
        if (serializer != null) {
            String what = status == Status.OK ? "result" : "error";
            String failure = null;
            try {
                serializer.write(frame, new ResultWrapper(PortableValues.portable(result)));
                int bodySize = frame.readableBytes() - ProtocolHeader.HEADER_SIZE;
                if (method != null && status == Status.OK) {
                    method.lastResponseBodySize = Math.min(bodySize, MAX_SIZE_HINT);
                }
                if (bodySize > connection.maxBodySize()) {
                    failure = "the " + what + " is " + bodySize + " bytes, above the " + connection.maxBodySize()
                            + "-byte body cap";
                }
            } catch (RuntimeException e) {
                failure = "the provider cannot serialize the " + what + " with " + serializer.type().id() + ": "
                        + e.getMessage();
            }
            if (failure != null) {
                frame.writerIndex(ProtocolHeader.HEADER_SIZE);
                IllegalStateException error = new IllegalStateException(failure);
                sent = ProviderFailures.statusOf(error, ProviderFailures.Where.RESPONSE, method);
                error.setStackTrace(new StackTraceElement[0]);
                try {
                    serializer.write(frame, new ResultWrapper(error));
                } catch (RuntimeException again) {
                    frame.writerIndex(ProtocolHeader.HEADER_SIZE);
                }
            }
        }
        Frames.fillHeader(frame, ProtocolHeader.toSign(request.serializerCode, ProtocolHeader.RESPONSE), sent.value(),
                request.id);
        request.pipeline.metrics().response(sent.value(), frame.readableBytes() - ProtocolHeader.HEADER_SIZE,
                request.receivedNanos);
        if (close) {
            connection.writeAndClose(frame);
        } else {
            // No listener: a response write fails only when the connection closes, which the transport reports.
            connection.write(frame);
        }
    }
}
