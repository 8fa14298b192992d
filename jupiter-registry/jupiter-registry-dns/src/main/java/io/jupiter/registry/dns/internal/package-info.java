/** Implementation of the DNS registry; not API. */
package io.jupiter.registry.dns.internal;
