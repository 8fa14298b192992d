package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.PortableValues;
import io.jupiter.rpc.internal.balance.Endpoint;
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
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The invocation handler behind a client proxy: serializes the call on the caller's thread, sends it on the next
 * connection, and waits (sync) or returns a future (async, or a method returning a future).
 */
final class ServiceInvoker implements InvocationHandler {

    private static final Object[] NO_ARGS = new Object[0];

    private final ProxySettings settings;
    private final ServiceMetadata metadata;
    private final Serializer serializer;
    private final byte requestSign;
    private final ConnectionSelector selector;
    private final ClusterInvoker cluster;
    private final Method[] methods;
    private final MethodInfo[] infos;
    private final InFlightCalls calls;
    private final Timer timer;
    private final Executor executor;

    ServiceInvoker(ProxySettings settings, Serializer serializer, ConnectionSelector selector, InFlightCalls calls,
                   Timer timer, Executor executor) {
        this.settings = settings;
        this.metadata = new ServiceMetadata(settings.key.group(), settings.key.name(), settings.key.version());
        this.serializer = serializer;
        this.requestSign = ProtocolHeader.toSign(serializer.type().code(), ProtocolHeader.REQUEST);
        this.selector = selector;
        this.cluster = new ClusterInvoker(this);
        this.calls = calls;
        this.timer = timer;
        this.executor = executor;
        Method[] declared = settings.serviceInterface.getMethods();
        this.methods = declared;
        this.infos = new MethodInfo[declared.length];
        for (int i = 0; i < declared.length; i++) {
            infos[i] = new MethodInfo(declared[i], settings.timeoutFor(declared[i].getName()));
            infos[i].cluster = settings.clusterFor(declared[i].getName());
            infos[i].idempotent = settings.idempotentMethods.contains(declared[i].getName());
        }
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        MethodInfo info = find(method);
        if (info == null) {
            return invokeObjectMethod(proxy, method, args);
        }
        Object[] arguments = args == null ? NO_ARGS : args;
        PortableValues.replaceInternalCollections(arguments);
        if (settings.invokeType == InvokeType.ASYNC) {
            InvokeFutureContext.set(cluster.invokeAsync(info, arguments));
            return info.defaultValue;
        }
        if (info.returnsFuture) {
            return cluster.invokeAsync(info, arguments);
        }
        return cluster.invokeSync(info, arguments);
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
            send(call, arguments);
            return call.await();
        }
        endpoint.active().incrementAndGet();
        try {
            send(call, arguments);
            return call.await();
        } finally {
            endpoint.active().decrementAndGet();
        }
    }

    /** One asynchronous attempt; see {@link #syncOnce}. */
    InvokeFuture<Object> asyncOnce(MethodInfo info, Object[] arguments, Endpoint excluded, Endpoint[] used) {
        long id = InvokeIds.next();
        InvokeFuture<Object> future = new InvokeFuture<>(id);
        try {
            Endpoint endpoint = selector.select(info, excluded);
            if (used != null) {
                used[0] = endpoint;
            }
            Connection connection = connectionOf(endpoint, info);
            PendingCall call = PendingCall.async(id, info, connection, calls, future, executor);
            if (selector.countsActive()) {
                endpoint.active().incrementAndGet();
                future.whenComplete((value, error) -> endpoint.active().decrementAndGet());
            }
            send(call, arguments);
            // Armed after sending: a response that wins the race leaves a timer that finds nothing to do.
            call.timeout(timer.newTimeout(call, info.timeoutMillis, TimeUnit.MILLISECONDS));
        } catch (RpcException e) {
            future.completeExceptionally(e);
        }
        return future;
    }

    private void send(PendingCall call, Object[] arguments) {
        MethodInfo info = call.method;
        Connection connection = call.connection;
        MessageWrapper message = new MessageWrapper(settings.appName, metadata, info.name, arguments, null);
        ByteBuf frame = Frames.newFrame(connection.alloc(), info.lastBodySize);
        try {
            serializer.write(frame, message);
        } catch (RuntimeException e) {
            frame.release();
            throw new SerializationFailedException(Status.CLIENT_ERROR, "cannot write the request of " + info
                    + " with " + serializer.type().id() + ": " + e.getMessage(), e);
        }
        info.lastBodySize = frame.readableBytes() - ProtocolHeader.HEADER_SIZE;
        Frames.fillHeader(frame, requestSign, (byte) 0, call.id);
        calls.add(call);
        connection.write(frame, call);
    }

    private Connection connectionOf(Endpoint endpoint, MethodInfo info) {
        Connection connection = ConnectionSelector.connectionOf(endpoint);
        if (connection == null) {
            throw new RequestNotSentException("no connection to " + endpoint.address() + " for " + info
                    + " (it closed just now)", null);
        }
        return connection;
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
