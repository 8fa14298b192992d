/** The consumer side: proxies, in-flight calls, response reading. Not API. */
package io.jupiter.rpc.internal.consumer;
