package io.jupiter.serialization.protostuff;

import io.jupiter.serialization.wire.ServiceMetadata;
import java.util.Objects;

/**
 * The services one thread's requests named lately, so that a request naming one of them again is read into the same
 * {@link ServiceMetadata} rather than a new one (a provider's requests name a few services, whose strings come from
 * {@link RepeatedStrings}: the very same objects). A few slots, replaced in turn, so names from the wire cannot grow
 * it. Requests share an instance: nothing changes a {@code ServiceMetadata} once it is read (its only other field
 * caches a string made from the three names), and {@link LegacyNameInput} never merges into one.
 *
 * <p>One thread's only (a thread's own {@link LegacyNameInput}): its fields are not final, so an instance is not
 * handed from one thread to another through this table.
 */
final class RecentServices {

    private static final int SLOTS = 8;

    private final ServiceMetadata[] slots = new ServiceMetadata[SLOTS];
    /** The slot the next service not found replaces. */
    private int next;

    /** The service of these names: one read lately, or a new one, remembered. */
    ServiceMetadata of(String group, String name, String version) {
        for (ServiceMetadata known : slots) {
            if (known == null) {
                break; // the slots fill in order
            }
            if (Objects.equals(known.getServiceProviderName(), name) && Objects.equals(known.getGroup(), group)
                    && Objects.equals(known.getVersion(), version)) {
                return known;
            }
        }
        ServiceMetadata made = new ServiceMetadata(group, name, version);
        slots[next] = made;
        next = (next + 1) % SLOTS;
        return made;
    }
}
