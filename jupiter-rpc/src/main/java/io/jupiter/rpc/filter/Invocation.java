package io.jupiter.rpc.filter;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.transport.Status;
import java.net.SocketAddress;
import java.util.Map;

/**
 * One call as interceptors and filters see it, the same on both sides: the service, the method, the arguments, the
 * attachments and, once it ended, the outcome. An invocation exists only when some interceptor or filter (or an
 * attachment) asked for it; it belongs to one call and is not shared between threads while the call runs.
 */
public interface Invocation {

    /** {@link Side#CONSUMER} in a client proxy, {@link Side#PROVIDER} in a server. */
    Side side();

    /** The service called. */
    ServiceKey service();

    /** The method name (the wire carries no parameter types; overloads share a name). */
    String methodName();

    /** The arguments; an interceptor may replace elements in {@code beforeInvoke}. Never null. */
    Object[] args();

    /** The application name of the consumer (sent with every request). */
    String appName();

    /**
     * The peer: on the provider the consumer's address; on the consumer the provider's address once a connection was
     * chosen, that of the latest attempt when the call was retried ({@code null} in {@code beforeInvoke}, which runs
     * before that choice, and for a broadcast).
     */
    SocketAddress remoteAddress();

    /**
     * Who called: on the provider the identity of the connection the request came on, as its
     * {@link io.jupiter.rpc.security.CallerIdentifier} or the caller token's
     * {@link io.jupiter.rpc.security.TokenAuthenticator} established it ({@link CallerIdentity#ANONYMOUS} without);
     * on the consumer always {@link CallerIdentity#ANONYMOUS}.
     */
    CallerIdentity caller();

    /**
     * The invoke id of the request on the wire: on the provider the id of the request served; on the consumer that of
     * the latest attempt once it was sent ({@code 0} in {@code beforeInvoke}, which runs before, and for a broadcast).
     * Unique per connection only; for logs and traces, not as a key.
     */
    long invokeId();

    /** The attachment under {@code key}, or {@code null}. */
    String attachment(String key);

    /**
     * The attachments, read-only: on the consumer those that will be (or were) sent; on the provider those that
     * arrived plus those attached here. Never null.
     */
    Map<String, String> attachments();

    /**
     * Adds an attachment. On the consumer (in {@code beforeInvoke}) it is sent with the request; on the provider it
     * is visible to the method through {@link io.jupiter.rpc.context.RpcContext} and carried on to the calls the
     * method makes.
     */
    void attach(String key, String value);

    /** {@link System#nanoTime()} when the call started on this side. */
    long startNanos();

    /** Nanoseconds since {@link #startNanos()}. */
    long elapsedNanos();

    /**
     * Milliseconds left before the call's deadline, or {@link Long#MAX_VALUE} when it has none (a provider knows a
     * deadline only when the consumer sent one).
     */
    long remainingMillis();

    /**
     * In {@code afterInvoke}: how the call ended ({@link Status#OK}, or the status of the failure); {@code null}
     * before.
     */
    Status status();

    /**
     * Whether this is a stream (a method that returns or takes a {@code Flow.Publisher}) rather than a call: then
     * {@code beforeInvoke} runs at the stream's open and {@code afterInvoke} once when the whole stream ended, with
     * its final status. False by default.
     */
    default boolean isStream() {
        return false;
    }

    /** Size of the request body in bytes, or -1 while unknown (on the consumer, until it was serialized). */
    int requestBytes();

    /** A value an interceptor stored for this call with {@link #attribute(String, Object)}, or {@code null}. */
    Object attribute(String key);

    /** Stores a value for this call, e.g. a start time or a span; never sent. */
    void attribute(String key, Object value);
}
