package io.jupiter.testkit.suites.serialization.gadget;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Set by {@link Gadget}'s static initializer and constructor. Kept in a class of its own: reading a static field of
 * {@code Gadget} itself would initialize it.
 */
public final class GadgetFlags {

    public static final AtomicBoolean INITIALIZED = new AtomicBoolean();
    public static final AtomicBoolean CONSTRUCTED = new AtomicBoolean();

    private GadgetFlags() {
    }
}
