/**
 * Harmless stand-ins for deserialization gadgets, used by
 * {@link io.jupiter.testkit.suites.serialization.GadgetSuite}: never trusted by an allow-list that is not off.
 */
package io.jupiter.testkit.suites.serialization.gadget;
