/**
 * Flow control: {@link io.jupiter.rpc.flow.FlowLimiter limiters} (built-in: max concurrent calls and a token bucket,
 * see {@link io.jupiter.rpc.flow.FlowLimiters}), applied application-wide before a request is read
 * ({@code APP_FLOW_CONTROL}) or per service and method by the {@link io.jupiter.rpc.flow.FlowControlFilter}
 * ({@code PROVIDER_FLOW_CONTROL}).
 */
package io.jupiter.rpc.flow;
