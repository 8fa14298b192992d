/**
 * Wire forms of Jupiter 1.3.1's exception classes ({@code org.jupiter.rpc.exception.*}), written and read under the
 * 1.3.1 names by every serializer that carries class names. Not thrown to callers; the RPC layer maps them.
 */
package io.jupiter.serialization.wire.legacy;
