/** Implementation of the RPC layer; not API. */
package io.jupiter.rpc.internal;
