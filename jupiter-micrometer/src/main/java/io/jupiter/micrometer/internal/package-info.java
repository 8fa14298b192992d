/** Not API: the meters of one side, fed by an {@link io.jupiter.rpc.metrics.RpcMetrics.Listener}. */
package io.jupiter.micrometer.internal;
