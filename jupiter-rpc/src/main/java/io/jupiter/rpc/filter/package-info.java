/**
 * Extension points around calls: {@link io.jupiter.rpc.filter.Interceptor interceptors} registered in code and
 * {@link io.jupiter.rpc.filter.Filter filters} loaded with {@link java.util.ServiceLoader}, both seeing each call as an
 * {@link io.jupiter.rpc.filter.Invocation}. With none registered the call path creates no invocation at all.
 */
package io.jupiter.rpc.filter;
