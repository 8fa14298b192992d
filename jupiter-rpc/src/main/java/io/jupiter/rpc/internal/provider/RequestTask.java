package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.LegacyExceptions;
import io.jupiter.rpc.internal.Throwables;
import io.jupiter.rpc.internal.WorkerPool;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Status;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one request on a provider thread: reads the body, finds the service and method, runs it and writes the
 * response. Each failure is answered with the status that says where it happened; infrastructure failures carry
 * Jupiter 1.3.1's exception classes ({@link LegacyExceptions}), so a 1.3.1 consumer reports them as its own.
 */
final class RequestTask implements WorkerPool.Task {

    private static final Logger log = LoggerFactory.getLogger(RequestTask.class);

    private final ServerRuntime runtime;
    private final Connection connection;
    private final Frame frame;
    private int requestBytes;

    RequestTask(ServerRuntime runtime, Connection connection, Frame frame) {
        this.runtime = runtime;
        this.connection = connection;
        this.frame = frame;
    }

    @Override
    public long queuedNanos() {
        return frame.receivedNanos();
    }

    /** This request will not be served: releases its frame and what it holds of the flow limits. */
    void discard() {
        frame.release();
        runtime.releaseAppFlow();
    }

    @Override
    public void run() {
        try {
            serve();
        } finally {
            runtime.releaseAppFlow();
        }
    }

    private void serve() {
        long id = frame.id();
        byte serializerCode = frame.serializerCode();
        Serializer serializer = runtime.acceptedSerializer(serializerCode);
        MessageWrapper message;
        try {
            if (serializer == null) {
                rejectSerializer(id, serializerCode);
                return;
            }
            requestBytes = frame.body().readableBytes();
            message = serializer.read(frame.body(), MessageWrapper.class);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            // A class refused by the allow-list, a broken read limit, or a read that ran out of memory or stack
            // leaves the framing intact: answer, but keep the connection.
            boolean close = !(e instanceof ClassNotTrustedException || e instanceof ReadLimitException
                    || e instanceof Error);
            log.warn("{}{}: cannot read request {}: {}", close ? "closing " : "", connection.remoteAddress(), id,
                    e.getMessage());
            ResponseWriter.write(connection, serializer, serializerCode, id, Status.BAD_REQUEST,
                    LegacyExceptions.body(Status.BAD_REQUEST, "the provider cannot read the request: "
                            + e.getMessage()), close, runtime.metrics(), frame.receivedNanos());
            return;
        } finally {
            frame.release();
        }
        if (message.getMetadata() == null) {
            ResponseWriter.write(connection, serializer, serializerCode, id, Status.BAD_REQUEST,
                    LegacyExceptions.body(Status.BAD_REQUEST, "the request names no service"), true,
                    runtime.metrics(), frame.receivedNanos());
            return;
        }
        ServiceEntry service = runtime.service(message.getMetadata());
        if (service == null) {
            ResponseWriter.write(connection, serializer, serializerCode, id, Status.SERVICE_NOT_FOUND,
                    LegacyExceptions.body(Status.SERVICE_NOT_FOUND, "service not found: "
                            + message.getMetadata().directory()), false, runtime.metrics(), frame.receivedNanos());
            return;
        }
        invoke(service, message, serializer, serializerCode, id);
    }

    private void invoke(ServiceEntry service, MessageWrapper message, Serializer serializer, byte serializerCode,
                        long id) {
        ProviderCall call = ProviderCall.startIfNeeded(service, message, connection, frame.receivedNanos(),
                requestBytes);
        if (call != null && !call.admit(connection, serializer, serializerCode, id, runtime.metrics(),
                frame.receivedNanos())) {
            return;
        }
        DefaultInvocation outer = call == null ? null : call.enter();
        MethodEntry method = null;
        Object result;
        long started = runtime.metrics().startNanos();
        try {
            method = service.resolve(message.getMethodName(), message.getArgs());
            result = method.invoke(message.getArgs());
            runtime.metrics().methodDone(method, service.key(), method.method.getName(), started);
        } catch (Throwable t) {
            if (call != null) {
                call.exit(outer);
            }
            if (method != null) {
                runtime.metrics().methodDone(method, service.key(), method.method.getName(), started);
            }
            Throwable cause = Throwables.unwrap(t);
            Status status = method != null && Throwables.isDeclaredBy(cause, method.exceptionTypes)
                    ? Status.SERVICE_EXPECTED_ERROR : Status.SERVICE_UNEXPECTED_ERROR;
            ResponseWriter.write(connection, serializer, serializerCode, id, status, cause, false,
                    runtime.metrics(), frame.receivedNanos());
            ProviderCall.end(call, status, null, cause);
            return;
        }
        if (call != null) {
            call.exit(outer);
        }
        if (method.returnsStage && result != null) {
            ((CompletionStage<?>) result).whenComplete((value, error) -> {
                if (error == null) {
                    ResponseWriter.write(connection, serializer, serializerCode, id, Status.OK, value, false,
                            runtime.metrics(), frame.receivedNanos());
                    ProviderCall.end(call, Status.OK, value, null);
                } else {
                    ResponseWriter.write(connection, serializer, serializerCode, id, Status.SERVER_ERROR,
                            Throwables.unwrap(error), false, runtime.metrics(), frame.receivedNanos());
                    ProviderCall.end(call, Status.SERVER_ERROR, null, Throwables.unwrap(error));
                }
            });
            return;
        }
        ResponseWriter.write(connection, serializer, serializerCode, id, Status.OK, result, false,
                runtime.metrics(), frame.receivedNanos());
        ProviderCall.end(call, Status.OK, result, null);
    }

    private void rejectSerializer(long id, byte serializerCode) {
        Serializer known = io.jupiter.serialization.Serializers.find(serializerCode);
        String why = known == null
                ? "the provider has no serializer with code " + serializerCode
                : "the provider does not accept the " + known.type().id() + " serializer"
                        + " (enable it with JupiterServer.Builder.serializers)";
        log.warn("closing {}: request {} refused: {}", connection.remoteAddress(), id, why);
        ResponseWriter.write(connection, known, serializerCode, id, Status.BAD_REQUEST,
                LegacyExceptions.body(Status.BAD_REQUEST, why), true, runtime.metrics(), frame.receivedNanos());
    }
}
