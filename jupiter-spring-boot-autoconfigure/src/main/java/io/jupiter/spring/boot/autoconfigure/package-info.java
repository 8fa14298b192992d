/**
 * Spring Boot auto-configuration of Jupiter ({@link io.jupiter.spring.boot.autoconfigure.JupiterAutoConfiguration})
 * and its parts: the {@code jupiter.*} properties, the server's lifecycle, {@code @JupiterReference} injection,
 * the Actuator health indicator and info contributor.
 */
package io.jupiter.spring.boot.autoconfigure;
