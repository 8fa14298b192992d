/** What the registry implementations share; not API. */
package io.jupiter.registry.internal;
