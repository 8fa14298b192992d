package io.jupiter.spring.xml;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.filter.Interceptor;
import java.util.Map;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;

/** {@code <jupiter:client>}: a {@link JupiterClient}, closed with the context. */
public final class XmlClient implements InitializingBean, DisposableBean, BeanFactoryAware {

    private BeanFactory beanFactory;
    private String id;
    private String appName;
    private String registryType;
    private String registryServerAddresses;
    private String providerServerAddresses;
    private String globalConsumerInterceptors;
    private Map<String, String> childOptions = Map.of();
    private JupiterClient client;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void afterPropertiesSet() {
        try {
            LegacyValues.checkNetOptions("childOption", childOptions);
            JupiterClient.Builder builder = JupiterClient.builder();
            if (appName != null) {
                builder.appName(appName);
            }
            String registry = LegacyValues.registryUrl(registryType, registryServerAddresses);
            if (registry != null) {
                builder.registry(registry);
            } else if (registryType != null) {
                LegacyValues.registryScheme(registryType);
            }
            for (Interceptor interceptor : BeanRefs.list(beanFactory, globalConsumerInterceptors, Interceptor.class,
                    "globalConsumerInterceptors")) {
                builder.interceptor(interceptor);
            }
            client = builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalStateException("<jupiter:client id=\"" + id + "\">: " + e.getMessage(), e);
        }
    }

    @Override
    public void destroy() {
        client.close();
    }

    /** The client. */
    public JupiterClient client() {
        return client;
    }

    /** The addresses consumers of this client call when they name none and there is no registry, or null. */
    String providerServerAddresses() {
        return providerServerAddresses == null || providerServerAddresses.isBlank() ? null : providerServerAddresses;
    }

    public void setId(String id) {
        this.id = id;
    }

    public void setAppName(String appName) {
        this.appName = appName;
    }

    public void setRegistryType(String registryType) {
        this.registryType = registryType;
    }

    public void setRegistryServerAddresses(String registryServerAddresses) {
        this.registryServerAddresses = registryServerAddresses;
    }

    public void setProviderServerAddresses(String providerServerAddresses) {
        this.providerServerAddresses = providerServerAddresses;
    }

    public void setGlobalConsumerInterceptors(String globalConsumerInterceptors) {
        this.globalConsumerInterceptors = globalConsumerInterceptors;
    }

    public void setChildOptions(Map<String, String> childOptions) {
        this.childOptions = childOptions;
    }
}
