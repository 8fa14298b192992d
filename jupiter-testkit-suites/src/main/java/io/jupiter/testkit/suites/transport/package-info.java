/**
 * The suite a transport passes: {@link io.jupiter.testkit.suites.transport.TransportSuite} drives an
 * {@link io.jupiter.transport.Acceptor} and a {@link io.jupiter.transport.Connector} of the transport under test with
 * {@link io.jupiter.testkit.suites.transport.EchoPeer}s at both ends (frames both ways, concurrency, large bodies,
 * heartbeats and idle closing, peer close, oversized frames, no thread or buffer left behind). Extend it with the
 * address your transport serves.
 */
package io.jupiter.testkit.suites.transport;
