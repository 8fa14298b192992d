/**
 * The provider side. {@link io.jupiter.rpc.internal.provider.ProviderPipeline} is where every request is served,
 * stage by stage; {@link io.jupiter.rpc.internal.provider.ServerRuntime} owns the acceptor, the services and the pool.
 * Not API.
 */
package io.jupiter.rpc.internal.provider;
