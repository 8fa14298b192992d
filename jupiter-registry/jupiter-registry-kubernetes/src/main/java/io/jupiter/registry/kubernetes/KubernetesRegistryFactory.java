package io.jupiter.registry.kubernetes;

import io.jupiter.registry.RegistryService;
import io.jupiter.registry.TargetRegistryFactory;
import io.jupiter.registry.kubernetes.internal.KubernetesRegistryService;

/**
 * Scheme {@code kubernetes}: {@code kubernetes://NAMESPACE[?portName=NAME][&apiServer=URL]} (see
 * {@link KubernetesTarget}). Consumers follow the ready endpoints of the EndpointSlices that carry a service key's
 * {@link ServiceLabels labels}; providers publish nothing, Kubernetes does. The Kubernetes client is only made when a
 * consumer first subscribes, so a provider needs neither API access nor rights.
 */
public final class KubernetesRegistryFactory extends TargetRegistryFactory<KubernetesTarget> {

    /** The scheme. */
    public static final String SCHEME = KubernetesTarget.SCHEME;

    /** The factory the service loader finds. */
    public KubernetesRegistryFactory() {
        super(SCHEME, KubernetesTarget::parse, KubernetesRegistryFactory::connect);
    }

    /** A registry following the EndpointSlices of {@code target}'s namespace. */
    public static RegistryService connect(KubernetesTarget target) {
        return new KubernetesRegistryService(target);
    }
}
