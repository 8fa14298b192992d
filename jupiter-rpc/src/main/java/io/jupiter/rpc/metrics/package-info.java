/**
 * RPC metrics on Dropwizard metrics-core: the names and descriptions ({@link io.jupiter.rpc.metrics.MetricNames})
 * and the recorder a server or client owns ({@link io.jupiter.rpc.metrics.RpcMetrics}).
 */
package io.jupiter.rpc.metrics;
