/**
 * The RPC API: annotate a service interface with {@link io.jupiter.rpc.ServiceProvider}, serve an implementation
 * with {@link io.jupiter.rpc.JupiterServer}, and call it through a proxy from {@link io.jupiter.rpc.JupiterClient}.
 */
package io.jupiter.rpc;
