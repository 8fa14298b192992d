package io.jupiter.registry.embedded.internal;

import io.jupiter.registry.ServiceMeta;

/**
 * What the registry pushes to a subscriber (1.3.1's {@code org.jupiter.common.util.Pair}): the service, and either
 * one {@link io.jupiter.registry.RegisterMeta} (a change) or a {@code List} of them (the full list).
 */
public record PushData(ServiceMeta service, Object providers) {
}
