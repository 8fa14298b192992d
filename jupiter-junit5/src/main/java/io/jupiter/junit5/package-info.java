/**
 * JUnit 5 support for testing Jupiter services: {@link io.jupiter.junit5.JupiterServerExtension} starts a server with
 * the given services (in process by default) and hands the test a client, and fails the test on what it leaves
 * behind.
 */
package io.jupiter.junit5;
