package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/**
 * The business method threw an exception it does not declare ({@code SERVICE_UNEXPECTED_ERROR}), or a declared one
 * that could not be rethrown as itself. Keeps the remote exception's class name and message; the remote exception
 * itself is the cause when its class exists here.
 */
public class RemoteServiceException extends RpcException {

    private static final long serialVersionUID = 1L;

    private final String remoteClassName;
    private final String remoteMessage;

    public RemoteServiceException(Status status, String remoteClassName, String remoteMessage, Throwable cause) {
        super(status, remoteMessage == null ? remoteClassName : remoteClassName + ": " + remoteMessage, cause);
        this.remoteClassName = remoteClassName;
        this.remoteMessage = remoteMessage;
    }

    /** The fully qualified class name of the exception thrown on the provider. */
    public String remoteClassName() {
        return remoteClassName;
    }

    /** Its message, or {@code null}. */
    public String remoteMessage() {
        return remoteMessage;
    }
}
