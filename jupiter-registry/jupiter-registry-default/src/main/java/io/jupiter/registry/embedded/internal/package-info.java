/** Implementation of the embedded registry: the protocol codec, the server's logic and the client. Not API. */
package io.jupiter.registry.embedded.internal;
