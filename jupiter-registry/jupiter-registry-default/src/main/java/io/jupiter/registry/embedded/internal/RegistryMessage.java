package io.jupiter.registry.embedded.internal;

/**
 * The body of a registry frame (1.3.1's {@code org.jupiter.registry.Message}). The header id of these frames is
 * always 0: the message's own {@code sequence} is in the body, and an ACK carries it back in the header id.
 *
 * @param data a {@link io.jupiter.registry.ServiceMeta}, {@link io.jupiter.registry.RegisterMeta},
 *             {@link io.jupiter.registry.ProviderAddress} or {@link PushData}
 */
public record RegistryMessage(long sequence, byte serializerCode, byte messageCode, long version, Object data) {
}
