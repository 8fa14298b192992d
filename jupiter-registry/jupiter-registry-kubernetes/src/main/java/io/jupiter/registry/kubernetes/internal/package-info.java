/** Implementation of the Kubernetes registry; not API. */
package io.jupiter.registry.kubernetes.internal;
