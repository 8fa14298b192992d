/** Load balancer implementations over a snapshot of {@link io.jupiter.rpc.internal.balance.Endpoint}s. Not API. */
package io.jupiter.rpc.internal.balance;
