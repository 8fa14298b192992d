package io.jupiter.spring.xml;

import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.ManagedList;
import org.springframework.beans.factory.xml.ParserContext;
import org.w3c.dom.Element;

/** {@code <jupiter:consumer>} to an {@link XmlConsumer}, a bean of type {@code interfaceClass}. */
final class ConsumerParser extends JupiterElementParser {

    @Override
    protected Class<?> getBeanClass(Element element) {
        return XmlConsumer.class;
    }

    @Override
    void parse(Element element, ParserContext context, BeanDefinitionBuilder bean) {
        reference(element, bean, "client");
        copy(element, bean, "interfaceClass");
        for (Element property : children(element, "property")) {
            refuse(property, context, "extLoadBalancerName", "there are no load balancer plug-ins here: use "
                    + "loadBalancerType round_robin, random or least_active");
            copy(property, bean, "version", "serializerType", "loadBalancerType", "waitForAvailableTimeoutMillis",
                    "invokeType", "dispatchType", "timeoutMillis", "consumerInterceptors", "providerAddresses",
                    "clusterStrategy", "failoverRetries");
        }
        ManagedList<Object> specials = new ManagedList<>();
        for (Element group : children(element, "methodSpecials")) {
            for (Element special : children(group, "methodSpecial")) {
                BeanDefinitionBuilder one = BeanDefinitionBuilder.genericBeanDefinition(XmlMethodSpecial.class);
                copy(special, one, "methodName", "timeoutMillis", "clusterStrategy", "failoverRetries");
                specials.add(one.getBeanDefinition());
            }
        }
        bean.addPropertyValue("methodSpecials", specials);
    }
}
