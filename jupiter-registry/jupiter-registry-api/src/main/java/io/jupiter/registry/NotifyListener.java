package io.jupiter.registry;

import java.util.List;

/**
 * Told the live providers of a subscribed service: once when they are first known and again after every change.
 * Calls for one registry come from one thread, in order; an implementation must return quickly.
 */
@FunctionalInterface
public interface NotifyListener {

    /**
     * The full, current list of providers of {@code service} (immutable). A registry never reports an empty list
     * because it lost its connection: it keeps the last list it knew until it is told otherwise.
     */
    void providersChanged(ServiceMeta service, List<RegisterMeta> providers);
}
