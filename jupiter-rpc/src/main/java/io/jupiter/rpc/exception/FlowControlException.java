package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/**
 * The provider's flow control refused the call without running it ({@code APP_FLOW_CONTROL} or
 * {@code PROVIDER_FLOW_CONTROL}); safe to retry.
 */
public class FlowControlException extends RpcException {

    private static final long serialVersionUID = 1L;

    public FlowControlException(Status status, String message) {
        super(status, message);
    }

    public FlowControlException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
