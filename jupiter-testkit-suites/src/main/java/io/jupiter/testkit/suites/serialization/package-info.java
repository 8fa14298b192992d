/**
 * The suites a {@link io.jupiter.serialization.Serializer} passes: {@link
 * io.jupiter.testkit.suites.serialization.SerializerSuite} (round trips of every argument kind through pooled
 * buffers, malformed and random bodies, envelope-first reads) and {@link
 * io.jupiter.testkit.suites.serialization.GadgetSuite} (untrusted class names are refused before any instance is
 * made). Extend them in a test of your serializer; {@link io.jupiter.testkit.suites.serialization.Samples} holds the
 * values they send and the allow-list your serializer needs for them.
 */
package io.jupiter.testkit.suites.serialization;
