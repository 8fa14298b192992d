/**
 * The machinery of streams. Not API.
 *
 * <p>Provider: {@link io.jupiter.rpc.internal.stream.ProviderStreams} routes stream frames by connection and id,
 * opens streams through a {@link io.jupiter.rpc.internal.stream.StreamOpener} (the provider's chain, as calls), and
 * feeds each {@link io.jupiter.rpc.internal.stream.OutboundStream} (credit, bounded buffer, slow-consumer policy)
 * from a sink producer, a topic or any publisher. Consumer: {@link io.jupiter.rpc.internal.stream.ConsumerStreams}
 * knows which providers announced streams and routes frames to each
 * {@link io.jupiter.rpc.internal.stream.ClientStream}, which delivers them off the IO thread.
 */
package io.jupiter.rpc.internal.stream;
