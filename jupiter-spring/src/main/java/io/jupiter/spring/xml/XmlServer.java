package io.jupiter.spring.xml;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.flow.FlowLimiter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * {@code <jupiter:server>}: a {@link JupiterServer} built, given its providers and started when the context has been
 * refreshed (so every {@code <jupiter:provider>} has been added), and shut down gracefully when it closes.
 */
public final class XmlServer implements SmartLifecycle, BeanFactoryAware, DisposableBean {

    /** The longest graceful shutdown when the context closes. */
    public static final long SHUTDOWN_TIMEOUT_MILLIS = 10_000;

    private final List<XmlProvider> providers = new CopyOnWriteArrayList<>();
    private BeanFactory beanFactory;
    private String id;
    private String registryType;
    private String registryServerAddresses;
    private String globalProviderInterceptors;
    private String globalFlowController;
    private Integer port;
    private String host;
    private Map<String, String> parentOptions = Map.of();
    private Map<String, String> childOptions = Map.of();
    private volatile JupiterServer server;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** Called by each {@code <jupiter:provider>} naming this server. */
    void add(XmlProvider provider) {
        providers.add(provider);
    }

    @Override
    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            LegacyValues.checkNetOptions("parentOption", parentOptions);
            LegacyValues.checkNetOptions("childOption", childOptions);
            JupiterServer.Builder builder = JupiterServer.builder();
            if (host != null) {
                builder.host(host);
            }
            if (port != null) {
                builder.port(port);
            }
            String registry = LegacyValues.registryUrl(registryType, registryServerAddresses);
            if (registry != null) {
                builder.registry(registry);
            } else if (registryType != null) {
                LegacyValues.registryScheme(registryType);
            }
            for (Interceptor interceptor : BeanRefs.list(beanFactory, globalProviderInterceptors, Interceptor.class,
                    "globalProviderInterceptors")) {
                builder.interceptor(interceptor);
            }
            if (globalFlowController != null && !globalFlowController.isBlank()) {
                builder.appFlowLimiter(BeanRefs.one(beanFactory, globalFlowController.trim(), FlowLimiter.class,
                        "globalFlowController"));
            }
            Integer weight = weightOfProviders();
            if (weight != null) {
                builder.weight(weight);
            }
            JupiterServer built = builder.build();
            for (XmlProvider provider : providers) {
                ServiceKey key = built.register(provider.implementation());
                List<Interceptor> own = provider.interceptors();
                if (!own.isEmpty()) {
                    built.intercept(key, own.toArray(Interceptor[]::new));
                }
            }
            built.start();
            server = built;
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalStateException("<jupiter:server id=\"" + id + "\">: " + e.getMessage(), e);
        }
    }

    /** 1.3.1 published a weight per service; here a server publishes one, so its providers must agree. */
    private Integer weightOfProviders() {
        Integer weight = null;
        String first = null;
        for (XmlProvider provider : providers) {
            Integer own = provider.weight();
            if (own != null && weight != null && !own.equals(weight)) {
                throw new IllegalArgumentException("weight: provider '" + first + "' has " + weight + ", provider '"
                        + provider.id() + "' " + own + " (expected: one weight per server here; run a server per "
                        + "weight)");
            }
            if (own != null && weight == null) {
                weight = own;
                first = provider.id();
            }
        }
        return weight;
    }

    @Override
    public synchronized void stop() {
        JupiterServer s = server;
        if (s != null) {
            server = null;
            s.shutdownGracefully(SHUTDOWN_TIMEOUT_MILLIS);
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    @Override
    public void destroy() {
        stop();
    }

    /** The running server, or {@code null} before the context was refreshed and after it closed. */
    public JupiterServer server() {
        return server;
    }

    public void setId(String id) {
        this.id = id;
    }

    public void setRegistryType(String registryType) {
        this.registryType = registryType;
    }

    public void setRegistryServerAddresses(String registryServerAddresses) {
        this.registryServerAddresses = registryServerAddresses;
    }

    public void setGlobalProviderInterceptors(String globalProviderInterceptors) {
        this.globalProviderInterceptors = globalProviderInterceptors;
    }

    public void setGlobalFlowController(String globalFlowController) {
        this.globalFlowController = globalFlowController;
    }

    public void setPort(Integer port) {
        this.port = port;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public void setParentOptions(Map<String, String> parentOptions) {
        this.parentOptions = parentOptions;
    }

    public void setChildOptions(Map<String, String> childOptions) {
        this.childOptions = childOptions;
    }
}
