/**
 * DNS registry (scheme {@code dns}): consumers call every A/AAAA address of a name, resolved again on a period, for
 * headless Kubernetes Services, Consul's DNS interface or plain records. See
 * {@link io.jupiter.registry.dns.DnsRegistryFactory} for its limits.
 */
package io.jupiter.registry.dns;
