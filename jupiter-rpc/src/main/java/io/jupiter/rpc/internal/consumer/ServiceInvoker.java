package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.filter.Side;
import io.jupiter.rpc.generic.GenericInvoker;
import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.rpc.internal.PortableValues;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.rpc.internal.stream.ConsumerStreams;
import io.jupiter.serialization.Serializer;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The invocation handler behind a client proxy: finds the method's {@link CallStage pipeline} (built once per method
 * when the proxy is built) and runs it synchronously, or asynchronously for a method returning a future or an
 * {@link InvokeType#ASYNC} proxy. Every call, with or without interceptors, context or deadline, takes that one path;
 * it is dispatched by the {@link Dispatch} at its end.
 */
final class ServiceInvoker implements InvocationHandler {

    private static final Object[] NO_ARGS = new Object[0];

    private final ProxySettings settings;
    private final Dispatch dispatch;
    /** The proxy's client-side throttling, shared by its methods; {@code null} when it is off. */
    private final AdaptiveThrottle throttle;
    private final Method[] methods;
    private final MethodInfo[] infos;
    /** The interceptors and filters of this proxy; {@code null} when there are none. */
    private final InterceptorChain chain;
    /**
     * Only for a {@link GenericInvoker}, whose method name and arguments come as arguments: the infos made per name,
     * for {@code $invoke} and {@code $invokeAsync}.
     */
    private final ConcurrentHashMap<String, MethodInfo> genericMethods;
    private final ConcurrentHashMap<String, MethodInfo> genericAsyncMethods;

    ServiceInvoker(ProxySettings settings, Dispatch dispatch) {
        this(settings, dispatch, null, null);
    }

    /** @param streams the client's streams, for stream methods; {@code null}: none here (they fail when called) */
    ServiceInvoker(ProxySettings settings, Dispatch dispatch, ConsumerStreams streams, Serializer serializer) {
        this.settings = settings;
        this.dispatch = dispatch;
        this.throttle = settings.clientThrottling.enabled()
                ? new AdaptiveThrottle(settings.clientThrottling, settings.serviceInterface.getName()) : null;
        this.chain = InterceptorChain.of(Side.CONSUMER, settings.interceptors, List.of());
        Method[] declared = settings.serviceInterface.getMethods();
        this.methods = declared;
        this.infos = new MethodInfo[declared.length];
        for (int i = 0; i < declared.length; i++) {
            infos[i] = configure(new MethodInfo(declared[i], settings.timeoutFor(declared[i].getName())));
            if (streams != null && StreamCallStage.isStreamMethod(declared[i])) {
                infos[i].pipeline = new StreamCallStage(settings, infos[i], dispatch.selector(), serializer, streams,
                        chain);
                infos[i].stream = true;
            }
        }
        boolean generic = settings.serviceInterface == GenericInvoker.class;
        this.genericMethods = generic ? new ConcurrentHashMap<>() : null;
        this.genericAsyncMethods = generic ? new ConcurrentHashMap<>() : null;
    }

    private MethodInfo configure(MethodInfo info) {
        info.cluster = settings.clusterFor(info.name);
        info.idempotent = settings.idempotentMethods.contains(info.name);
        info.hedging = settings.hedgingFor(info.name);
        info.hedgeDelay = info.hedging == null ? null : new HedgeDelay(info.hedging);
        info.pipeline = CallStage.pipeline(info, chain, dispatch, throttle);
        info.serializerCode = dispatch.serializerCode();
        info.serializer = dispatch.serializer();
        info.completions = AdaptiveDispatch.completions(settings.serviceInterface.getName() + "." + info.name,
                dispatch.learnsCompletions);
        return info;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        MethodInfo info = find(method);
        if (info == null) {
            return invokeObjectMethod(proxy, method, args);
        }
        Object[] arguments = args == null ? NO_ARGS : args;
        if (info.stream) {
            return info.returnsFuture ? info.pipeline.invokeAsync(arguments, null)
                    : info.pipeline.invokeSync(arguments, null);
        }
        if (genericMethods != null) {
            info = genericMethod(info, (String) arguments[0]);
            arguments = arguments[1] == null ? NO_ARGS : (Object[]) arguments[1];
        }
        PortableValues.replaceInternalCollections(arguments);
        if (settings.invokeType == InvokeType.ASYNC) {
            InvokeFutureContext.set(info.pipeline.invokeAsync(arguments, null));
            return info.defaultValue;
        }
        if (info.returnsFuture) {
            return info.pipeline.invokeAsync(arguments, null);
        }
        return info.pipeline.invokeSync(arguments, null);
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
                return "JupiterProxy{" + settings.key + " -> " + dispatch.selector().directory() + '}';
            default:
                throw new UnsupportedOperationException(method + " (args " + Arrays.toString(args) + ")");
        }
    }
}
