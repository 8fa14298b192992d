/**
 * The exceptions a call can end with. Each carries the {@link io.jupiter.transport.Status} that says why; see
 * {@link io.jupiter.rpc.exception.RpcException}.
 */
package io.jupiter.rpc.exception;
