/**
 * The classes the serializer suites' samples carry: trusted through
 * {@link io.jupiter.testkit.suites.serialization.Samples#allowList()}.
 */
package io.jupiter.testkit.suites.serialization.model;
