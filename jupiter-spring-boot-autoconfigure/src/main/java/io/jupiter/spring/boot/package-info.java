/**
 * Jupiter on Spring Boot, for application code: {@link io.jupiter.spring.boot.JupiterReference} injects client
 * proxies. Service implementations are served when their class carries {@code @io.jupiter.rpc.ServiceProviderImpl}
 * and they are beans. The auto-configuration is in {@code io.jupiter.spring.boot.autoconfigure}.
 */
package io.jupiter.spring.boot;
