package io.jupiter.spring.xml;

import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.filter.Interceptor;
import java.util.List;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.InitializingBean;

/**
 * {@code <jupiter:consumer>}: the client proxy of {@code interfaceClass}, as a bean of that type. It calls
 * {@code providerAddresses}, else its client's {@code providerServerAddresses}, else the client's registry.
 */
public final class XmlConsumer implements FactoryBean<Object>, InitializingBean, BeanFactoryAware {

    private BeanFactory beanFactory;
    private String id;
    private XmlClient client;
    private Class<?> interfaceClass;
    private String version;
    private String serializerType;
    private String loadBalancerType;
    private String waitForAvailableTimeoutMillis;
    private String invokeType;
    private String dispatchType;
    private String timeoutMillis;
    private String consumerInterceptors;
    private String providerAddresses;
    private String clusterStrategy;
    private String failoverRetries;
    private List<XmlMethodSpecial> methodSpecials = List.of();
    private Object proxy;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void afterPropertiesSet() throws InterruptedException {
        try {
            proxy = build();
            if (waitForAvailableTimeoutMillis != null) {
                awaitConnection(LegacyValues.number("waitForAvailableTimeoutMillis", waitForAvailableTimeoutMillis));
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalStateException("<jupiter:consumer id=\"" + id + "\">: " + e.getMessage(), e);
        }
    }

    private Object build() {
        JupiterClient jupiter = client.client();
        ProxyBuilder<?> builder = jupiter.proxy(interfaceClass);
        String addresses = providerAddresses != null && !providerAddresses.isBlank() ? providerAddresses
                : client.providerServerAddresses();
        if (addresses != null) {
            builder.address(addresses);
        }
        if (version != null) {
            builder.version(version);
        }
        if (serializerType != null) {
            builder.serializer(LegacyValues.serializer(serializerType));
        }
        if (loadBalancerType != null) {
            builder.loadBalancer(LegacyValues.loadBalancer(loadBalancerType));
        }
        if (invokeType != null) {
            builder.invokeType(LegacyValues.invokeType(invokeType));
        }
        if (timeoutMillis != null) {
            builder.timeoutMillis(LegacyValues.number("timeoutMillis", timeoutMillis));
        }
        Integer retries = failoverRetries == null ? null
                : Math.toIntExact(LegacyValues.number("failoverRetries", failoverRetries));
        if (clusterStrategy != null) {
            builder.cluster(LegacyValues.cluster(clusterStrategy, retries, "clusterStrategy"));
        }
        if (dispatchType != null && LegacyValues.broadcast(dispatchType)) {
            builder.cluster(ClusterStrategy.broadcast());
        }
        for (Interceptor interceptor : BeanRefs.list(beanFactory, consumerInterceptors, Interceptor.class,
                "consumerInterceptors")) {
            builder.interceptor(interceptor);
        }
        for (XmlMethodSpecial special : methodSpecials) {
            String method = special.methodName();
            if (special.timeoutMillis() != null) {
                builder.methodTimeoutMillis(method, LegacyValues.number("methodSpecial " + method + " timeoutMillis",
                        special.timeoutMillis()));
            }
            if (special.clusterStrategy() != null) {
                Integer own = special.failoverRetries() == null ? retries : Math.toIntExact(LegacyValues.number(
                        "methodSpecial " + method + " failoverRetries", special.failoverRetries()));
                builder.methodCluster(method, LegacyValues.cluster(special.clusterStrategy(), own,
                        "methodSpecial " + method + " clusterStrategy"));
            }
        }
        return builder.build();
    }

    /** 1.3.1's {@code waitForAvailableTimeoutMillis}: the start fails unless a provider is connected in time. */
    private void awaitConnection(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!connected()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("waitForAvailableTimeoutMillis=\"" + timeoutMillis + "\": no "
                        + "provider of " + interfaceClass.getName() + " connected in time");
            }
            Thread.sleep(10); // polling the proxy's connections; bounded by the deadline
        }
    }

    private boolean connected() {
        List<ConsumedService> consumed = client.client().consumedServices();
        for (int i = consumed.size() - 1; i >= 0; i--) {
            ConsumedService service = consumed.get(i);
            if (service.serviceInterface().equals(interfaceClass.getName())) {
                return service.targets().stream().anyMatch(t -> t.activeConnections() > 0);
            }
        }
        return false;
    }

    @Override
    public Object getObject() {
        return proxy;
    }

    @Override
    public Class<?> getObjectType() {
        return interfaceClass;
    }

    public void setId(String id) {
        this.id = id;
    }

    public void setClient(XmlClient client) {
        this.client = client;
    }

    public void setInterfaceClass(Class<?> interfaceClass) {
        this.interfaceClass = interfaceClass;
    }

    public void setVersion(String version) {
        this.version = version;
    }

    public void setSerializerType(String serializerType) {
        this.serializerType = serializerType;
    }

    public void setLoadBalancerType(String loadBalancerType) {
        this.loadBalancerType = loadBalancerType;
    }

    public void setWaitForAvailableTimeoutMillis(String waitForAvailableTimeoutMillis) {
        this.waitForAvailableTimeoutMillis = waitForAvailableTimeoutMillis;
    }

    public void setInvokeType(String invokeType) {
        this.invokeType = invokeType;
    }

    public void setDispatchType(String dispatchType) {
        this.dispatchType = dispatchType;
    }

    public void setTimeoutMillis(String timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    public void setConsumerInterceptors(String consumerInterceptors) {
        this.consumerInterceptors = consumerInterceptors;
    }

    public void setProviderAddresses(String providerAddresses) {
        this.providerAddresses = providerAddresses;
    }

    public void setClusterStrategy(String clusterStrategy) {
        this.clusterStrategy = clusterStrategy;
    }

    public void setFailoverRetries(String failoverRetries) {
        this.failoverRetries = failoverRetries;
    }

    public void setMethodSpecials(List<XmlMethodSpecial> methodSpecials) {
        this.methodSpecials = methodSpecials;
    }
}
