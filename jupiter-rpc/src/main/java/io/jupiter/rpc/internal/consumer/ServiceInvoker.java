package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.PayloadTooLargeException;
import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.rpc.filter.Side;
import io.jupiter.rpc.generic.GenericInvoker;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.PortableValues;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.util.Timer;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The invocation handler behind a client proxy: serializes the call on the caller's thread, sends it on a connection
 * the {@link ConnectionSelector} picks (with the proxy's cluster strategy around the attempts), and waits (sync) or
 * returns a future (async, or a method returning a future). With interceptors, a request context or deadline
 * propagation, the call goes through {@link ChainedInvoke} instead.
 */
final class ServiceInvoker implements InvocationHandler {

    private static final Object[] NO_ARGS = new Object[0];

    final ProxySettings settings;
    private final ServiceMetadata metadata;
    private final Serializer serializer;
    private final byte requestSign;
    private final ConnectionSelector selector;
    private final ClusterInvoker cluster;
    private final Method[] methods;
    private final MethodInfo[] infos;
    final InFlightCalls calls;
    final Timer timer;
    final Executor executor;
    final RpcMetrics metrics;
    /** The interceptors and filters of this proxy; {@code null} when there are none. */
    final InterceptorChain chain;
    /**
     * Only for a {@link GenericInvoker}, whose method name and arguments come as arguments: the infos made per name,
     * for {@code $invoke} and {@code $invokeAsync}.
     */
    private final ConcurrentHashMap<String, MethodInfo> genericMethods;
    private final ConcurrentHashMap<String, MethodInfo> genericAsyncMethods;

    ServiceInvoker(ProxySettings settings, Serializer serializer, ConnectionSelector selector, InFlightCalls calls,
                   Timer timer, Executor executor, RpcMetrics metrics) {
        this.settings = settings;
        this.metadata = new ServiceMetadata(settings.key.group(), settings.key.name(), settings.key.version());
        this.serializer = serializer;
        this.requestSign = ProtocolHeader.toSign(serializer.type().code(), ProtocolHeader.REQUEST);
        this.selector = selector;
        this.cluster = new ClusterInvoker(this);
        this.calls = calls;
        this.timer = timer;
        this.executor = executor;
        this.metrics = metrics;
        Method[] declared = settings.serviceInterface.getMethods();
        this.methods = declared;
        this.infos = new MethodInfo[declared.length];
        for (int i = 0; i < declared.length; i++) {
            infos[i] = configure(new MethodInfo(declared[i], settings.timeoutFor(declared[i].getName())));
        }
        this.chain = InterceptorChain.of(Side.CONSUMER, settings.interceptors, List.of());
        boolean generic = settings.serviceInterface == GenericInvoker.class;
        this.genericMethods = generic ? new ConcurrentHashMap<>() : null;
        this.genericAsyncMethods = generic ? new ConcurrentHashMap<>() : null;
    }

    private MethodInfo configure(MethodInfo info) {
        info.cluster = settings.clusterFor(info.name);
        info.idempotent = settings.idempotentMethods.contains(info.name);
        return info;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        MethodInfo info = find(method);
        if (info == null) {
            return invokeObjectMethod(proxy, method, args);
        }
        Object[] arguments = args == null ? NO_ARGS : args;
        if (genericMethods != null) {
            info = genericMethod(info, (String) arguments[0]);
            arguments = arguments[1] == null ? NO_ARGS : (Object[]) arguments[1];
        }
        PortableValues.replaceInternalCollections(arguments);
        ContextHolder context = ContextHolder.active();
        if (chain != null || context != null || settings.propagateDeadline) {
            return ChainedInvoke.invoke(this, info, arguments, context);
        }
        if (settings.invokeType == InvokeType.ASYNC) {
            InvokeFutureContext.set(cluster.invokeAsync(info, arguments));
            return info.defaultValue;
        }
        if (info.returnsFuture) {
            return cluster.invokeAsync(info, arguments);
        }
        long started = metrics.startNanos();
        try {
            return cluster.invokeSync(info, arguments);
        } finally {
            metrics.methodDone(info, settings.key, info.name, started);
        }
    }

    /**
     * An asynchronous attempt ended (each attempt of a retried call is timed on its own); {@code startNanos} from
     * {@code metrics.startNanos()}.
     */
    void asyncAttemptDone(MethodInfo info, long startNanos) {
        metrics.methodDone(info, settings.key, info.name, startNanos);
    }

    /**
     * One synchronous attempt on a provider other than {@code excluded} if possible; the provider used is stored in
     * {@code used[0]} when {@code used} is given.
     */
    Object syncOnce(MethodInfo info, Object[] arguments, Endpoint excluded, Endpoint[] used) throws Throwable {
        Endpoint endpoint = selector.select(info, excluded);
        if (used != null) {
            used[0] = endpoint;
        }
        Connection connection = connectionOf(endpoint, info);
        long id = InvokeIds.next();
        PendingCall call = PendingCall.sync(id, info, connection, calls);
        if (!selector.countsActive()) {
            send(call, arguments, null);
            return call.await();
        }
        endpoint.active().incrementAndGet();
        try {
            send(call, arguments, null);
            return call.await();
        } finally {
            endpoint.active().decrementAndGet();
        }
    }

    /** One asynchronous attempt; see {@link #syncOnce}. */
    InvokeFuture<Object> asyncOnce(MethodInfo info, Object[] arguments, Endpoint excluded, Endpoint[] used) {
        Endpoint endpoint;
        try {
            endpoint = selector.select(info, excluded);
        } catch (RpcException e) {
            InvokeFuture<Object> failed = new InvokeFuture<>(InvokeIds.next());
            failed.completeExceptionally(e);
            return failed;
        }
        if (used != null) {
            used[0] = endpoint;
        }
        return asyncOn(info, arguments, endpoint);
    }

    /** One asynchronous attempt on the given provider; failures to send complete the future. */
    InvokeFuture<Object> asyncOn(MethodInfo info, Object[] arguments, Endpoint endpoint) {
        long id = InvokeIds.next();
        InvokeFuture<Object> future = new InvokeFuture<>(id);
        try {
            Connection connection = connectionOf(endpoint, info);
            PendingCall call = PendingCall.async(id, info, connection, this, future);
            if (selector.countsActive()) {
                endpoint.active().incrementAndGet();
                future.whenComplete((value, error) -> endpoint.active().decrementAndGet());
            }
            send(call, arguments, null);
            // Armed after sending: a response that wins the race leaves a timer that finds nothing to do.
            call.timeout(timer.newTimeout(call, info.timeoutMillis, TimeUnit.MILLISECONDS));
        } catch (RpcException e) {
            future.completeExceptionally(e);
        }
        return future;
    }

    /** The targets of a broadcast: every provider, connected, in provider order. */
    Endpoint[] broadcastTargets(MethodInfo info) {
        return selector.allConnected(info);
    }

    /** Serializes and writes the request; returns the size of its body. */
    int send(PendingCall call, Object[] arguments, Map<String, String> attachments) {
        MethodInfo info = call.method;
        calls.acquire(info);
        boolean added = false;
        try {
            Connection connection = call.connection;
            MessageWrapper message = new MessageWrapper(settings.appName, metadata, info.name, arguments,
                    attachments);
            ByteBuf frame = Frames.newFrame(connection.alloc(), info.lastBodySize);
            try {
                serializer.write(frame, message);
            } catch (RuntimeException e) {
                frame.release();
                throw new SerializationFailedException(Status.CLIENT_ERROR, "cannot write the request of " + info
                        + " with " + serializer.type().id() + ": " + e.getMessage(), e);
            }
            int bodySize = frame.readableBytes() - ProtocolHeader.HEADER_SIZE;
            if (bodySize > connection.maxBodySize()) {
                frame.release();
                throw new PayloadTooLargeException(Status.CLIENT_ERROR, "the request of " + info + " is " + bodySize
                        + " bytes, above the " + connection.maxBodySize() + "-byte body cap: not sent");
            }
            info.lastBodySize = bodySize;
            metrics.request(bodySize);
            Frames.fillHeader(frame, requestSign, (byte) 0, call.id);
            calls.add(call);
            added = true;
            // No per-write listener (it costs a promise and a listener a call): a write fails only when the
            // connection closes, and a closing connection fails its calls (ConsumerFrameHandler.disconnected).
            connection.write(frame);
            call.failIfConnectionClosed();
            return bodySize;
        } finally {
            if (!added) {
                calls.release();
            }
        }
    }

    /** A connection for one attempt of a chained call (interceptors): the selector's choice, no retry. */
    Connection select(MethodInfo info) {
        return connectionOf(selector.select(info, null), info);
    }

    Connection connectionOf(Endpoint endpoint, MethodInfo info) {
        Connection connection = ConnectionSelector.connectionOf(endpoint);
        if (connection == null) {
            // Its last connection closed since it was chosen: choose again, waiting within the call's timeout while
            // nothing is connected (as for a call that finds nothing connected in the first place).
            connection = ConnectionSelector.connectionOf(selector.select(info, null));
        }
        if (connection == null) {
            throw new RequestNotSentException("no connection to " + endpoint.address() + " for " + info
                    + " (it closed just now)", null);
        }
        return connection;
    }

    private MethodInfo genericMethod(MethodInfo carrier, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(carrier.name + ": no method name");
        }
        if (!carrier.returnsFuture && settings.invokeType != InvokeType.ASYNC
                && settings.clusterFor(name).kind() == ClusterStrategy.Kind.BROADCAST) {
            throw new IllegalArgumentException("broadcast & sync unsupported: " + name
                    + " via $invoke; use $invokeAsync or invokeType(InvokeType.ASYNC)");
        }
        ConcurrentHashMap<String, MethodInfo> known = carrier.returnsFuture ? genericAsyncMethods : genericMethods;
        MethodInfo info = known.get(name);
        if (info == null) {
            info = known.computeIfAbsent(name,
                    n -> configure(new MethodInfo(carrier.method, n, settings.timeoutFor(n))));
        }
        return info;
    }

    private MethodInfo find(Method method) {
        Method[] all = methods;
        for (int i = 0; i < all.length; i++) {
            if (all[i] == method) {
                return infos[i];
            }
        }
        for (int i = 0; i < all.length; i++) {
            if (all[i].equals(method)) {
                // Remember the proxy's own instance, so the next call matches by identity.
                all[i] = method;
                return infos[i];
            }
        }
        return null;
    }

    private Object invokeObjectMethod(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "JupiterProxy{" + settings.key + " -> " + selector.directory() + '}';
            default:
                throw new UnsupportedOperationException(method + " (args " + Arrays.toString(args) + ")");
        }
    }
}
