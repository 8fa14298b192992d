package io.jupiter.spring.xml;

import org.springframework.beans.factory.xml.NamespaceHandlerSupport;

/**
 * The {@code http://jupiter.io/schema/jupiter} namespace (schema {@code http://jupiter.io/schema/jupiter/jupiter.xsd}):
 * Jupiter 1.3.1's {@code server}, {@code client}, {@code provider} and {@code consumer} elements on our classes.
 *
 * <pre>{@code
 * <beans xmlns:jupiter="http://jupiter.io/schema/jupiter"
 *        xsi:schemaLocation="... http://jupiter.io/schema/jupiter http://jupiter.io/schema/jupiter/jupiter.xsd">
 *     <jupiter:server id="server" registryType="default">
 *         <jupiter:property registryServerAddresses="127.0.0.1:20001"/>
 *     </jupiter:server>
 *     <bean id="greeterImpl" class="com.example.GreeterImpl"/>
 *     <jupiter:provider id="greeter" server="server" providerImpl="greeterImpl"/>
 * </beans>
 * }</pre>
 *
 * @see XmlServer
 * @see XmlClient
 * @see XmlProvider
 * @see XmlConsumer
 */
public final class JupiterNamespaceHandler extends NamespaceHandlerSupport {

    @Override
    public void init() {
        registerBeanDefinitionParser("server", new ServerParser());
        registerBeanDefinitionParser("client", new ClientParser());
        registerBeanDefinitionParser("provider", new ProviderParser());
        registerBeanDefinitionParser("consumer", new ConsumerParser());
    }
}
