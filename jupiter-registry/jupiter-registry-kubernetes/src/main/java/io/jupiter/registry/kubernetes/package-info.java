/**
 * Kubernetes registry (scheme {@code kubernetes}): a consumer lists, then watches, the EndpointSlices
 * ({@code discovery.k8s.io/v1}) of its namespace that carry Jupiter's
 * {@link io.jupiter.registry.kubernetes.ServiceLabels labels}, and calls only the endpoints that are ready and not
 * terminating. Providers in a pod publish nothing: their
 * Service does. See docs/kubernetes.md for the mapping, the RBAC and the drain sequence.
 */
package io.jupiter.registry.kubernetes;
