package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.SerializerType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A registered service: its key, implementation and methods. A request names only the method, so the method is
 * chosen by name and, for overloads, by the runtime types of the arguments (as in 1.3.1); the choice for each
 * name and argument shape is made once and cached. What the arguments of each method name may be
 * ({@link ArgumentTypes}, read by the serializer before the arguments are) is resolved once, at registration.
 * A service may accept only some serializers ({@link #pinSerializers}).
 */
public final class ServiceEntry {

    private final ServiceKey key;
    private final Class<?> serviceInterface;
    private final Map<String, MethodEntry[]> byName;
    private final Map<String, ArgumentTypes> argumentTypes;
    /** What the opens of each stream method name may carry (without the consumer's stream), by name. */
    private final Map<String, ArgumentTypes> openTypes;
    /** Wire codes of the serializers this service accepts; {@code null}: every one the server accepts. */
    private volatile boolean[] pinned;
    /** Where the calls of each method name run. */
    private final Map<String, AdaptiveDispatch> dispatch;
    /** The methods' own adaptive concurrency limits ({@link io.jupiter.rpc.AdaptiveConcurrency}). */
    private final MethodConcurrencyLimits concurrencyLimits;
    private final ConcurrentHashMap<OverloadKey, MethodEntry> overloadCache = new ConcurrentHashMap<>();
    /** This service's own interceptors, and the chain it runs (filters, global, own); {@code null}: none. */
    private volatile List<Interceptor> interceptors = List.of();
    private volatile InterceptorChain chain;
    private volatile ProviderExecutor executor;

    /**
     * @param learnDispatch whether methods declared neither {@code @NonBlocking} nor {@code @NonBlocking(false)}
     *                      move to the IO threads once they prove fast ({@link AdaptiveDispatch})
     */
    public ServiceEntry(ServiceKey key, Class<?> serviceInterface, Object implementation, boolean learnDispatch) {
        this.key = key;
        this.serviceInterface = serviceInterface;
        Map<String, List<MethodEntry>> grouped = new HashMap<>();
        for (Method method : serviceInterface.getMethods()) {
            if (method.isDefault() || Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            grouped.computeIfAbsent(method.getName(), n -> new ArrayList<>())
                    .add(new MethodEntry(method, implementation));
        }
        Map<String, MethodEntry[]> frozen = new HashMap<>();
        Map<String, ArgumentTypes> types = new HashMap<>();
        grouped.forEach((name, list) -> {
            frozen.put(name, list.toArray(new MethodEntry[0]));
            List<Class<?>[]> overloads = new ArrayList<>();
            list.forEach(entry -> overloads.add(entry.parameterTypes));
            types.put(name, ArgumentTypes.of(name, overloads));
        });
        this.byName = frozen;
        this.argumentTypes = types;
        Map<String, ArgumentTypes> opens = new HashMap<>();
        grouped.forEach((name, list) -> {
            List<Class<?>[]> overloads = new ArrayList<>();
            list.stream().filter(entry -> entry.streams).forEach(entry -> overloads.add(entry.openParameterTypes));
            if (!overloads.isEmpty()) {
                opens.put(name, ArgumentTypes.of(name, overloads));
            }
        });
        this.openTypes = Map.copyOf(opens);
        Map<String, AdaptiveDispatch> dispatchByName = new HashMap<>();
        frozen.forEach((name, overloads) -> {
            // Overloads share a name on the wire, so they share a dispatch: any declared blocking keeps all on the
            // pool, all declared non-blocking puts all on the IO threads, anything else is learned.
            String what = serviceInterface.getName() + "." + name;
            AdaptiveDispatch chosen;
            if (Arrays.stream(overloads).anyMatch(m -> Boolean.FALSE.equals(m.declaredNonBlocking))) {
                chosen = AdaptiveDispatch.declared(what, false);
            } else if (Arrays.stream(overloads).allMatch(m -> Boolean.TRUE.equals(m.declaredNonBlocking))) {
                chosen = AdaptiveDispatch.declared(what, true);
            } else {
                chosen = AdaptiveDispatch.undeclared(what, learnDispatch);
            }
            dispatchByName.put(name, chosen);
        });
        this.dispatch = Map.copyOf(dispatchByName);
        this.concurrencyLimits = MethodConcurrencyLimits.of(Arrays.asList(serviceInterface.getMethods()),
                serviceInterface, implementation.getClass());
    }

    /** The adaptive concurrency limit of the method(s) named {@code methodName}, or {@code null}: none. */
    AdaptiveConcurrencyLimit concurrencyLimit(String methodName) {
        return concurrencyLimits.of(methodName);
    }

    /** Where calls of the method(s) named {@code methodName} run, or {@code null} if there is none. */
    AdaptiveDispatch dispatch(String methodName) {
        return methodName == null ? null : dispatch.get(methodName);
    }

    /** Whether any method of this service may run on an IO thread. */
    boolean mayRunOnIoThreads() {
        return dispatch.values().stream().anyMatch(AdaptiveDispatch::mayRunOnIoThread);
    }

    /** What the arguments of the method(s) named {@code name} may be, or {@code null} if there is none. */
    ArgumentTypes argumentTypes(String name) {
        return name == null ? null : argumentTypes.get(name);
    }

    /**
     * What the open of a stream method named {@code name} may carry (its arguments without the consumer's stream),
     * or {@code null} if no stream method has that name.
     */
    ArgumentTypes openArgumentTypes(String name) {
        return name == null ? null : openTypes.get(name);
    }

    /** Whether a method of this service returns or takes a {@code Flow.Publisher}. */
    boolean hasStreamMethod() {
        return !openTypes.isEmpty();
    }

    /** The methods named {@code name} (overloads), or {@code null} if there is none. */
    MethodEntry[] methods(String name) {
        return byName.get(name);
    }

    /** Accepts only requests written with one of {@code types} from now on. */
    void pinSerializers(Set<SerializerType> types) {
        boolean[] accepted = new boolean[SerializerType.MAX_CODE + 1];
        for (SerializerType type : types) {
            accepted[type.code()] = true;
        }
        this.pinned = accepted;
    }

    /** Whether this service accepts requests written with the serializer of wire code {@code code}. */
    boolean acceptsSerializer(byte code) {
        boolean[] accepted = pinned;
        return accepted == null || (code >= 0 && code < accepted.length && accepted[code]);
    }

    /** The serializers this service is pinned to, or {@code null} if it is not. */
    Set<SerializerType> pinnedSerializers() {
        boolean[] accepted = pinned;
        if (accepted == null) {
            return null;
        }
        Set<SerializerType> types = EnumSet.noneOf(SerializerType.class);
        for (SerializerType type : SerializerType.values()) {
            if (accepted[type.code()]) {
                types.add(type);
            }
        }
        return types;
    }

    /** The executor of this service's calls, or {@code null}: the server's. */
    ProviderExecutor executor() {
        return executor;
    }

    void executor(ProviderExecutor executor) {
        this.executor = executor;
    }

    public ServiceKey key() {
        return key;
    }

    public Class<?> serviceInterface() {
        return serviceInterface;
    }

    List<Interceptor> interceptors() {
        return interceptors;
    }

    void interceptors(List<Interceptor> interceptors) {
        this.interceptors = List.copyOf(interceptors);
    }

    InterceptorChain chain() {
        return chain;
    }

    void chain(InterceptorChain chain) {
        this.chain = chain;
    }

    /**
     * The method to run for {@code name} and {@code args}.
     *
     * @throws NoSuchMethodException if no method fits (answered as a service error, as in 1.3.1)
     */
    MethodEntry resolve(String name, Object[] args) throws NoSuchMethodException {
        MethodEntry[] candidates = byName.get(name);
        if (candidates == null) {
            throw new NoSuchMethodException(serviceInterface.getName() + "." + name);
        }
        if (candidates.length == 1) {
            return candidates[0];
        }
        Class<?>[] argTypes = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++) {
            argTypes[i] = args[i] == null ? null : args[i].getClass();
        }
        OverloadKey cacheKey = new OverloadKey(name, argTypes);
        MethodEntry cached = overloadCache.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        MethodEntry chosen = mostSpecific(candidates, argTypes);
        if (chosen == null) {
            throw new NoSuchMethodException(serviceInterface.getName() + "." + name + Arrays.toString(argTypes));
        }
        overloadCache.putIfAbsent(cacheKey, chosen);
        return chosen;
    }

    private static MethodEntry mostSpecific(MethodEntry[] candidates, Class<?>[] argTypes) {
        MethodEntry best = null;
        for (MethodEntry candidate : candidates) {
            if (!applicable(candidate.parameterTypes, argTypes)) {
                continue;
            }
            if (best == null || moreSpecific(candidate.parameterTypes, best.parameterTypes)) {
                best = candidate;
            }
        }
        return best;
    }

    private static boolean applicable(Class<?>[] parameters, Class<?>[] argTypes) {
        if (parameters.length != argTypes.length) {
            return false;
        }
        for (int i = 0; i < parameters.length; i++) {
            Class<?> arg = argTypes[i];
            Class<?> parameter = parameters[i];
            if (arg == null) {
                if (parameter.isPrimitive()) {
                    return false;
                }
            } else if (!ArgumentTypes.box(parameter).isAssignableFrom(arg)) {
                return false;
            }
        }
        return true;
    }

    private static boolean moreSpecific(Class<?>[] a, Class<?>[] b) {
        for (int i = 0; i < a.length; i++) {
            if (!ArgumentTypes.box(b[i]).isAssignableFrom(ArgumentTypes.box(a[i]))) {
                return false;
            }
        }
        return true;
    }

    private record OverloadKey(String name, Class<?>[] argTypes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof OverloadKey other && name.equals(other.name)
                    && Arrays.equals(argTypes, other.argTypes);
        }

        @Override
        public int hashCode() {
            return name.hashCode() * 31 + Arrays.hashCode(argTypes);
        }
    }
}
