package io.jupiter.spring.xml;

import io.jupiter.rpc.filter.Interceptor;
import java.util.List;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.InitializingBean;

/**
 * {@code <jupiter:provider>}: a bean served by a {@code <jupiter:server>}, under the key of the one service interface
 * it implements and the version of its {@code @ServiceProviderImpl}; published when the context is refreshed.
 */
public final class XmlProvider implements InitializingBean, BeanFactoryAware {

    private BeanFactory beanFactory;
    private String id;
    private XmlServer server;
    private Object providerImpl;
    private Integer weight;
    private String providerInterceptors;
    private List<Interceptor> interceptors = List.of();

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void afterPropertiesSet() {
        interceptors = BeanRefs.list(beanFactory, providerInterceptors, Interceptor.class, "providerInterceptors");
        server.add(this);
    }

    Object implementation() {
        return providerImpl;
    }

    Integer weight() {
        return weight;
    }

    List<Interceptor> interceptors() {
        return interceptors;
    }

    /** The element's id, as errors name it. */
    String id() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public void setServer(XmlServer server) {
        this.server = server;
    }

    public void setProviderImpl(Object providerImpl) {
        this.providerImpl = providerImpl;
    }

    public void setWeight(Integer weight) {
        this.weight = weight;
    }

    public void setProviderInterceptors(String providerInterceptors) {
        this.providerInterceptors = providerInterceptors;
    }
}
