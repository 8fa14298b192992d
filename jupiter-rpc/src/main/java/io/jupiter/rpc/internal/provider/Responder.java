package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.PortableValues;
import io.jupiter.rpc.internal.Throwables;
import io.jupiter.rpc.internal.stream.OutboundStream;
import io.jupiter.rpc.internal.stream.StreamOpener;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.Serializers;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.Flow;

/**
 * The one place a request is answered: with the method's value or failure ({@link #answer}), or with a stage's
 * {@link Refusal} ({@link #refuse}). A call's answer is a response frame in the serializer the request came in, then
 * the interceptors' {@code afterInvoke}; a stream's open hears the same outcome as its stream's start or its
 * {@code STREAM_END} ({@link StreamOpener.Opening}).
 */
final class Responder {

    /** A larger response grows its buffer rather than make every next one of its method reserve as much. */
    private static final int MAX_SIZE_HINT = 64 * 1024;

    private final RpcMetrics metrics;
    private volatile boolean sendStackTraces;

    Responder(RpcMetrics metrics) {
        this.metrics = metrics;
    }

    /** Whether errors sent to callers keep their stack traces (off: a remote peer learns nothing of our code). */
    void sendStackTraces(boolean send) {
        this.sendStackTraces = send;
    }

    /**
     * Answers the method's outcome: {@code status} and {@code result} (its value, or the error to send), then runs
     * the {@code afterInvoke} of its interceptors, if any. For a stream's open the value is the method's publisher.
     *
     * @param nowNanos a clock read just taken (0: read it here if needed)
     */
    void answer(ProviderRequest request, Status status, Object result, long nowNanos) {
        DispatchTiming timing = request.timing;
        if (timing != null) {
            timing.answeringNanos = nowNanos != 0L ? nowNanos : System.nanoTime();
        }
        request.leave();
        ProviderCall call = request.call;
        if (request.opensStream()) {
            if (status == Status.OK) {
                request.stream().opened(new StreamOpener.Opened((Flow.Publisher<?>) result, request.serializer,
                        request.service.key() + "." + request.authorizedMethod, endListener(call)));
                return;
            }
            if (call != null) {
                call.end(status, null, (Throwable) result);
            }
            metrics.streamRefused(status);
            request.stream().refused(status, String.valueOf(result));
            return;
        }
        write(request, status, result, false);
        if (call != null) {
            call.end(status, status == Status.OK ? result : null, status == Status.OK ? null : (Throwable) result);
        }
    }

    /**
     * Answers a refusal: the method never ran, and no {@code afterInvoke} runs (the interceptors that ran already
     * had theirs). A call gets {@link Refusal#body()} with the refusal's status, then its connection closes if the
     * refusal says so; a stream's open gets a {@code STREAM_END} with the status and the reason.
     */
    void refuse(ProviderRequest request, Refusal refusal) {
        DispatchTiming timing = request.timing;
        if (timing != null) {
            timing.answeringNanos = System.nanoTime();
        }
        request.leave();
        if (request.opensStream()) {
            metrics.streamRefused(refusal.status());
            request.stream().refused(refusal.status(), String.valueOf(refusal.reason()));
            return;
        }
        write(request, refusal.status(), refusal.body(), refusal.close());
    }

    /** What runs the interceptors' {@code afterInvoke} when the stream ends. */
    private static OutboundStream.EndListener endListener(ProviderCall call) {
        if (call == null || call.chain == null) {
            return (status, reason) -> { };
        }
        return (status, reason) -> call.end(status, null,
                status == Status.OK ? null : new StreamException(status, reason));
    }

    /**
     * Writes {@code result} with {@code status} as the answer to {@code request}, in the request's serializer (the
     * accepted one, else any known one with its code; with none the body is empty), and records it in the metrics.
     * If the result cannot be serialized, answers {@link Status#SERVER_ERROR} with a message saying so instead.
     *
     * @param close whether to close the connection after the response is written
     */
    private void write(ProviderRequest request, Status status, Object result, boolean close) {
        Connection connection = request.connection();
        Serializer serializer = request.serializer != null ? request.serializer
                : Serializers.find(request.serializerCode());
        if (result instanceof Throwable error && !sendStackTraces) {
            Throwables.clearStackTraces(error);
        }
        if (request.decoded() != null) {
            answerDecoded(request, status, result, close);
            return;
        }
        MethodEntry method = request.method;
        ByteBuf frame = Frames.newFrame(connection.alloc(), method != null ? method.lastResponseBodySize : 64);
        Status sent = status;
        if (serializer != null) {
            String what = status == Status.OK ? "result" : "error";
            String failure = null;
            try {
                serializer.writeResult(frame, PortableValues.portable(result));
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
                    serializer.writeResult(frame, error);
                } catch (RuntimeException again) {
                    frame.writerIndex(ProtocolHeader.HEADER_SIZE);
                }
            }
        }
        Frames.fillHeader(frame, ProtocolHeader.toSign(request.serializerCode(), ProtocolHeader.RESPONSE), sent.value(),
                request.id());
        metrics.response(sent.value(), frame.readableBytes() - ProtocolHeader.HEADER_SIZE,
                request.receivedNanos());
        if (close) {
            connection.writeAndClose(frame);
        } else {
            // No listener: a response write fails only when the connection closes, which the transport reports.
            connection.write(frame);
        }
    }

    /**
     * The answer to a call a protocol of this process read already ({@link io.jupiter.rpc.internal.DecodedRequest}):
     * handed to it as the value it would have read back from a response frame (the same portable value), not
     * written. The protocol writes it in its own format, and checks its own size limit there; the metrics count no
     * response body bytes for it.
     */
    private void answerDecoded(ProviderRequest request, Status status, Object result, boolean close) {
        metrics.response(status.value(), 0, request.receivedNanos());
        request.decoded().answers().answer(request.id(), status, PortableValues.portable(result), close);
    }
}
