package io.jupiter.protocol.http.client;

import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.Status;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A gRPC status a server answered with, in Jupiter's error model: the reverse of the provider's mapping
 * ({@code StatusCodes}), so a code our provider sends for a status comes back as that status, and the codes gRPC
 * services use for their own answers ({@code NOT_FOUND}, {@code FAILED_PRECONDITION}...) as the service's failure.
 * {@code PERMISSION_DENIED} and {@code UNAUTHENTICATED} are refusals of the caller, as our provider's
 * {@code BAD_REQUEST} for an unknown or forbidden caller is (which it sends as those codes): the method did not run.
 *
 * <pre>
 * gRPC code                                       status                    exception
 * 1  CANCELLED, 13 INTERNAL, 15 DATA_LOSS         SERVER_ERROR              ServerErrorException
 * 2  UNKNOWN                                      SERVICE_UNEXPECTED_ERROR  RemoteServiceException
 * 3  INVALID_ARGUMENT, 7 PERMISSION_DENIED,
 * 16 UNAUTHENTICATED                              BAD_REQUEST               BadRequestException
 * 4  DEADLINE_EXCEEDED                            SERVER_TIMEOUT            TimeoutException
 * 5, 6, 9, 10, 11 (the service's answers)         SERVICE_EXPECTED_ERROR    RemoteServiceException
 * 8  RESOURCE_EXHAUSTED                           PROVIDER_FLOW_CONTROL     FlowControlException
 * 12 UNIMPLEMENTED                                SERVICE_NOT_FOUND         ServiceNotFoundException
 * 14 UNAVAILABLE                                  SERVER_BUSY               ServerBusyException
 * any other                                       UNKNOWN                   RpcException
 * </pre>
 *
 * <p>The message names the code and carries the server's {@code grpc-message}; a {@link RemoteServiceException}'s
 * {@code remoteClassName()} is {@code grpc-status NAME} and its {@code remoteMessage()} the {@code grpc-message}.
 */
final class GrpcStatuses {

    static final int OK = 0;
    static final int CANCELLED = 1;
    static final int INTERNAL = 13;

    private static final String[] NAMES = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
        "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};

    private GrpcStatuses() {
    }

    /** gRPC's name of {@code code}. */
    static String name(int code) {
        return code >= 0 && code < NAMES.length ? NAMES[code] : "CODE_" + code;
    }

    /** The status a gRPC code is read as (the table above). */
    static Status status(int code) {
        return switch (code) {
            case 1, 13, 15 -> StatusTable.SERVER_ERROR.status();
            case 2 -> StatusTable.SERVICE_UNEXPECTED_ERROR.status();
            case 3, 7, 16 -> StatusTable.BAD_REQUEST.status();
            case 4 -> StatusTable.SERVER_TIMEOUT.status();
            case 5, 6, 9, 10, 11 -> StatusTable.SERVICE_EXPECTED_ERROR.status();
            case 8 -> StatusTable.PROVIDER_FLOW_CONTROL.status();
            case 12 -> StatusTable.SERVICE_NOT_FOUND.status();
            case 14 -> StatusTable.SERVER_BUSY.status();
            default -> StatusTable.UNKNOWN.status();
        };
    }

    /**
     * The exception of a call that ended with gRPC status {@code code} (not OK).
     *
     * @param where       the call, for the message
     * @param grpcMessage the server's {@code grpc-message}, decoded; {@code null} for none
     */
    static RpcException exception(int code, String grpcMessage, String where) {
        Status status = status(code);
        String named = "grpc-status " + code + " " + name(code);
        if (StatusTable.isMethodFailure(status)) {
            return new RemoteServiceException(status, named, grpcMessage == null ? where : where + ": " + grpcMessage,
                    null);
        }
        return StatusTable.exceptionOrGeneric(status, where + ": ",
                grpcMessage == null ? named : named + ": " + grpcMessage, null);
    }

    /**
     * The outcome the trailers (or trailers-only headers) of a call say: {@code null} for OK, else the failure
     * ({@link #exception}, or a server error when there is no valid {@code grpc-status}).
     */
    static RpcException outcome(Http2Headers trailers, String where) {
        CharSequence status = trailers.get("grpc-status");
        int code;
        try {
            code = status == null ? -1 : Integer.parseInt(status.toString());
        } catch (NumberFormatException e) {
            code = -1;
        }
        if (code < 0) {
            return new RpcException(StatusTable.SERVER_ERROR.status(), where + ": the answer has no valid grpc-status ("
                    + status + ")");
        }
        return code == OK ? null : exception(code, percentDecode(trailers.get("grpc-message")), where);
    }

    /** The text of a {@code grpc-message} header: its percent-encoding undone (a malformed escape is kept). */
    static String percentDecode(CharSequence encoded) {
        if (encoded == null) {
            return null;
        }
        String text = encoded.toString();
        if (text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int hex = c == '%' && i + 2 < text.length()
                    ? hexByte(text.charAt(i + 1), text.charAt(i + 2)) : -1;
            if (hex >= 0) {
                out.write(hex);
                i += 2;
            } else {
                byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(bytes, 0, bytes.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int hexByte(char high, char low) {
        int h = Character.digit(high, 16);
        int l = Character.digit(low, 16);
        return h < 0 || l < 0 ? -1 : h * 16 + l;
    }
}
