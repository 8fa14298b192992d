/** Fault tolerance strategies for client proxies. */
package io.jupiter.rpc.cluster;
