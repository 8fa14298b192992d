package io.jupiter.registry.dns;

import io.jupiter.registry.RegistryService;
import io.jupiter.registry.TargetRegistryFactory;
import io.jupiter.registry.dns.internal.DnsRegistryService;

/**
 * Scheme {@code dns}: {@code dns://NAME:PORT[?refreshMillis=MS][&nameServer=HOST:PORT]} (see {@link DnsTarget}).
 * Every service subscribed through it is served by every A and AAAA address of the name, on the port; the name is
 * resolved again every {@code refreshMillis}. Providers publish nothing.
 *
 * <p>Limits: no weights (every address gets the default weight), no readiness beyond what the DNS server answers
 * (a headless Kubernetes Service answers ready pods only; Consul healthy ones), one name for every service of the
 * registry, changes seen up to {@code refreshMillis} late. A failed or empty answer keeps the last list.
 */
public final class DnsRegistryFactory extends TargetRegistryFactory<DnsTarget> {

    /** The scheme. */
    public static final String SCHEME = DnsTarget.SCHEME;

    /** The factory the service loader finds. */
    public DnsRegistryFactory() {
        super(SCHEME, DnsTarget::parse, DnsRegistryFactory::connect);
    }

    /** A registry resolving {@code target}. */
    public static RegistryService connect(DnsTarget target) {
        return new DnsRegistryService(target);
    }
}
