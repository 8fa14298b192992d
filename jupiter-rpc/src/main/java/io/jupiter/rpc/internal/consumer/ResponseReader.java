package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.Throwables;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Status;

/** Turns a response frame into the call's value, or into the exception the call ends with. Releases the frame. */
final class ResponseReader {

    private ResponseReader() {
    }

    static Object read(Frame frame, MethodInfo method, Connection connection) throws Throwable {
        Object result = null;
        RuntimeException decodeError = null;
        Status status = Status.fromByte(frame.status());
        try {
            if (frame.serializerCode() != method.serializerCode) {
                // Only the serializer the request was written with is read: a provider cannot pick another (Java
                // serialization, say, which a consumer reads only when its own requests use it).
                throw new SerializationFailedException(StatusTable.DESERIALIZATION_FAIL.status(),
                        "refused the answer to "
                        + method + " from " + connection.remoteAddress() + ": written with serializer "
                        + describe(frame.serializerCode()) + ", the request with " + describe(method.serializerCode)
                        + " (expected: the same)", null);
            }
            if (frame.body().isReadable()) {
                try {
                    result = method.serializer.read(frame.body(), ResultWrapper.class).getResult();
                } catch (RuntimeException e) {
                    decodeError = e;
                }
            }
        } finally {
            frame.release();
        }
        if (status == Status.OK || decodeError instanceof ClassNotTrustedException) {
            if (decodeError != null) {
                // A refused class ends the call here whatever the status: the message says how to trust it.
                throw new SerializationFailedException(StatusTable.DESERIALIZATION_FAIL.status(), "cannot read the "
                        + (status == Status.OK ? "result" : "answer (status " + status + ")") + " of " + method
                        + " from " + connection.remoteAddress() + ": " + decodeError.getMessage(), decodeError);
            }
            return result;
        }
        throw failure(status, result, decodeError, method, connection);
    }

    private static Throwable failure(Status status, Object result, RuntimeException decodeError, MethodInfo method,
                                     Connection connection) {
        Throwable remote = result instanceof Throwable ? (Throwable) result : null;
        String where = method + " on " + connection.remoteAddress() + ": ";
        if (remote instanceof JupiterRemoteException) {
            // 1.3.1's own exception classes (from a 1.3.1 provider, or ours answering 0x40/0x44/0x51).
            RpcException mapped = StatusTable.fromLegacyBody(status, remote, where);
            if (mapped != null) {
                return mapped;
            }
            result = LegacyClassNames.legacyName(remote.getClass().getName()) + ": " + remote.getMessage();
            remote = null;
        }
        if (StatusTable.SERVICE_EXPECTED_ERROR.is(status) && remote != null
                && (remote instanceof RuntimeException || remote instanceof Error
                || Throwables.isDeclaredBy(remote, method.exceptionTypes))) {
            return remote;
        }
        String detail = describe(remote, result, decodeError);
        if (StatusTable.isMethodFailure(status)) {
            return remote != null
                    ? new RemoteServiceException(status, remote.getClass().getName(), remote.getMessage(), remote)
                    : new RemoteServiceException(status, "unknown", detail, decodeError);
        }
        return StatusTable.exceptionOrGeneric(status, where, detail, remote);
    }

    private static String describe(byte serializerCode) {
        SerializerType type = SerializerType.fromCode(serializerCode);
        return type == null ? "code " + serializerCode : type.id();
    }

    private static String describe(Throwable remote, Object result, RuntimeException decodeError) {
        if (remote != null) {
            return remote.getMessage() != null ? remote.getMessage() : remote.getClass().getName();
        }
        if (decodeError != null) {
            return "(the error body could not be read: " + decodeError.getMessage() + ")";
        }
        return result == null ? "(no detail sent)" : String.valueOf(result);
    }
}
