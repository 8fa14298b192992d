package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/** The provider's executor was full and refused the call without running it ({@code SERVER_BUSY}); safe to retry. */
public class ServerBusyException extends RpcException {

    private static final long serialVersionUID = 1L;

    public ServerBusyException(Status status, String message) {
        super(status, message);
    }

    public ServerBusyException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
