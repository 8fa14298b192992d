package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.PortableValues;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
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
import java.util.concurrent.atomic.AtomicInteger;

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
    private final ConnectionGroup[] groups;
    private final Method[] methods;
    private final MethodInfo[] infos;
    private final InFlightCalls calls;
    private final Timer timer;
    private final Executor executor;
    private final RpcMetrics metrics;
    private final AtomicInteger nextGroup = new AtomicInteger();

    ServiceInvoker(ProxySettings settings, Serializer serializer, ConnectionGroup[] groups, InFlightCalls calls,
                   Timer timer, Executor executor, RpcMetrics metrics) {
        this.metrics = metrics;
        this.settings = settings;
        this.metadata = new ServiceMetadata(settings.key.group(), settings.key.name(), settings.key.version());
        this.serializer = serializer;
        this.requestSign = ProtocolHeader.toSign(serializer.type().code(), ProtocolHeader.REQUEST);
        this.groups = groups;
        this.calls = calls;
        this.timer = timer;
        this.executor = executor;
        Method[] declared = settings.serviceInterface.getMethods();
        this.methods = declared;
        this.infos = new MethodInfo[declared.length];
        for (int i = 0; i < declared.length; i++) {
            infos[i] = new MethodInfo(declared[i], settings.timeoutFor(declared[i].getName()));
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
            InvokeFutureContext.set(invokeAsync(info, arguments));
            return info.defaultValue;
        }
        if (info.returnsFuture) {
            return invokeAsync(info, arguments);
        }
        Connection connection = select(info);
        long id = InvokeIds.next();
        PendingCall call = PendingCall.sync(id, info, connection, calls);
        long started = metrics.startNanos();
        try {
            send(call, arguments);
            return call.await();
        } finally {
            metrics.methodDone(info, settings.key, info.name, started);
        }
    }

    private InvokeFuture<Object> invokeAsync(MethodInfo info, Object[] arguments) {
        long id = InvokeIds.next();
        InvokeFuture<Object> future = metrics.methodDoneWhenComplete(new InvokeFuture<>(id), info, settings.key,
                info.name, metrics.startNanos());
        try {
            Connection connection = select(info);
            PendingCall call = PendingCall.async(id, info, connection, calls, future, executor);
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
        metrics.request(info.lastBodySize);
        Frames.fillHeader(frame, requestSign, (byte) 0, call.id);
        calls.add(call);
        connection.write(frame, call);
    }

    private Connection select(MethodInfo info) {
        ConnectionGroup[] all = groups;
        int start = all.length == 1 ? 0 : (nextGroup.getAndIncrement() & Integer.MAX_VALUE) % all.length;
        for (int i = 0; i < all.length; i++) {
            Connection connection = all[(start + i) % all.length].next();
            if (connection != null) {
                return connection;
            }
        }
        // Nothing is connected yet (or right now): wait for a connection, within the call's timeout.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(info.timeoutMillis);
        for (ConnectionGroup group : all) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0 && group.awaitAvailable(left, TimeUnit.NANOSECONDS)) {
                    Connection connection = group.next();
                    if (connection != null) {
                        return connection;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new ConnectionException(Status.CLIENT_ERROR, "no connection to " + settings.addresses
                + " for " + info + " within " + info.timeoutMillis + " ms");
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
                return "JupiterProxy{" + settings.key + " -> " + settings.addresses + '}';
            default:
                throw new UnsupportedOperationException(method + " (args " + Arrays.toString(args) + ")");
        }
    }
}
