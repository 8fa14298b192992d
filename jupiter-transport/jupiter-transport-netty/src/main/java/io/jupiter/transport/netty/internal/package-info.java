/**
 * Internals of the Netty transport (not API): the frame decoder, the pipeline handlers and initializers, the
 * {@link io.jupiter.transport.Connection} and {@link io.jupiter.transport.ConnectionGroup} implementations.
 */
package io.jupiter.transport.netty.internal;
