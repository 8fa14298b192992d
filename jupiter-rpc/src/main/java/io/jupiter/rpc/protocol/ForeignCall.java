package io.jupiter.rpc.protocol;

import io.jupiter.rpc.ServiceKey;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * One attempt of a consumer call as a {@link ClientProtocol} sends it.
 *
 * @param service       the proxy's service (its {@link ServiceKey#name()} names the service on the wire)
 * @param method        the interface method called
 * @param arguments     the call's arguments
 * @param attachments   the call's attachments, {@code null} for none; the deadline attachment
 *                      ({@code jupiter.timeout}) is already folded into {@code timeoutMillis}
 * @param timeoutMillis how long this attempt may take: the method's timeout, or less when an inherited deadline
 *                      comes first
 * @param callbackExecutor where the caller's callbacks run (the client's {@code callbackExecutor}, for a stream's
 *                      messages the protocol delivers itself); {@code null}: the protocol's IO thread
 */
public record ForeignCall(ServiceKey service, Method method, Object[] arguments, Map<String, String> attachments,
                          long timeoutMillis, Executor callbackExecutor) {
}
