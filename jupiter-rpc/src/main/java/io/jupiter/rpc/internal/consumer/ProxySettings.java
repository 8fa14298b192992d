package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.cluster.ClientThrottling;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.rpc.cluster.RetryBudget;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.protocol.ClientProtocol;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The validated settings of one client proxy. */
public final class ProxySettings {

    final Class<?> serviceInterface;
    final ServiceKey key;
    final String appName;
    final List<String> addresses;
    final InvokeType invokeType;
    final long timeoutMillis;
    final Map<String, Long> methodTimeoutMillis;
    List<Interceptor> interceptors = List.of();
    boolean propagateDeadline;
    final LoadBalancerType loadBalancer;
    final ClusterStrategy cluster;
    final Map<String, ClusterStrategy> methodClusters;
    final Set<String> idempotentMethods;
    OutlierEjection outlierEjection = OutlierEjection.defaults();
    ClientThrottling clientThrottling = ClientThrottling.defaults();
    RetryBudget retryBudget = RetryBudget.defaults();
    /** Hedging of the proxy's idempotent methods; {@code null}: none. */
    HedgingPolicy hedging;
    Map<String, HedgingPolicy> methodHedging = Map.of();
    /** The foreign protocol the providers speak; {@code null}: the 1.3.1 frame. */
    ClientProtocol protocol;

    public ProxySettings(Class<?> serviceInterface, ServiceKey key, String appName, List<String> addresses,
                         InvokeType invokeType, long timeoutMillis, Map<String, Long> methodTimeoutMillis) {
        this.serviceInterface = serviceInterface;
        this.key = key;
        this.appName = appName;
        this.addresses = List.copyOf(addresses);
        this.invokeType = invokeType;
        this.timeoutMillis = timeoutMillis;
        this.methodTimeoutMillis = Map.copyOf(methodTimeoutMillis);
        this.loadBalancer = null;
        this.cluster = ClusterStrategy.failFast();
        this.methodClusters = Map.of();
        this.idempotentMethods = Set.of();
    }

    /**
     * @param loadBalancer   {@code null} for the default ({@code LoadBalancerType.byDefault()})
     * @param cluster        the proxy's cluster strategy
     * @param methodClusters strategies of single methods, by name
     * @param idempotentMethods methods that may run twice (fail-over retries them after a timeout too)
     */
    public ProxySettings(Class<?> serviceInterface, ServiceKey key, String appName, List<String> addresses,
                         InvokeType invokeType, long timeoutMillis, Map<String, Long> methodTimeoutMillis,
                         LoadBalancerType loadBalancer, ClusterStrategy cluster,
                         Map<String, ClusterStrategy> methodClusters, Set<String> idempotentMethods) {
        this.serviceInterface = serviceInterface;
        this.key = key;
        this.appName = appName;
        this.addresses = List.copyOf(addresses);
        this.invokeType = invokeType;
        this.timeoutMillis = timeoutMillis;
        this.methodTimeoutMillis = Map.copyOf(methodTimeoutMillis);
        this.loadBalancer = loadBalancer;
        this.cluster = cluster;
        this.methodClusters = Map.copyOf(methodClusters);
        this.idempotentMethods = Set.copyOf(idempotentMethods);
    }

    ClusterStrategy clusterFor(String methodName) {
        ClusterStrategy special = methodClusters.get(methodName);
        return special != null ? special : cluster;
    }

    /** Sets the interceptors (global first, then this proxy's) and whether every call sends its deadline. */
    public ProxySettings extensions(List<Interceptor> interceptors, boolean propagateDeadline) {
        this.interceptors = List.copyOf(interceptors);
        this.propagateDeadline = propagateDeadline;
        return this;
    }

    /**
     * Sets the tail tolerance: outlier ejection, the retry budget, and hedging of the idempotent methods (the
     * proxy's policy, {@code null} for none, and single methods' policies by name).
     */
    public ProxySettings tailTolerance(OutlierEjection outlierEjection, RetryBudget retryBudget, HedgingPolicy hedging,
                                       Map<String, HedgingPolicy> methodHedging) {
        this.outlierEjection = outlierEjection;
        this.retryBudget = retryBudget;
        this.hedging = hedging;
        this.methodHedging = Map.copyOf(methodHedging);
        return this;
    }

    /** The proxy's client-side throttling ({@link ClientThrottling}). */
    public ProxySettings clientThrottling(ClientThrottling throttling) {
        this.clientThrottling = throttling;
        return this;
    }

    /** The foreign protocol the providers speak ({@link ClientProtocol}); {@code null}: the 1.3.1 frame. */
    public ProxySettings protocol(ClientProtocol protocol) {
        this.protocol = protocol;
        return this;
    }

    /** The hedging of a method: only an idempotent method is hedged; {@code null}: none. */
    HedgingPolicy hedgingFor(String methodName) {
        if (!idempotentMethods.contains(methodName)) {
            return null;
        }
        HedgingPolicy special = methodHedging.get(methodName);
        return special != null ? special : hedging;
    }

    long timeoutFor(String methodName) {
        Long special = methodTimeoutMillis.get(methodName);
        return special != null ? special : timeoutMillis;
    }
}
