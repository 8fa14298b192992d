package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/** The provider has no service with the requested group, name and version ({@code SERVICE_NOT_FOUND}). */
public class ServiceNotFoundException extends RpcException {

    private static final long serialVersionUID = 1L;

    public ServiceNotFoundException(Status status, String message) {
        super(status, message);
    }

    public ServiceNotFoundException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
