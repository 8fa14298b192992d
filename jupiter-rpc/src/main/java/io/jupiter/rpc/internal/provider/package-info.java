/** The provider side: service registry, method resolution, request tasks. Not API. */
package io.jupiter.rpc.internal.provider;
