package io.jupiter.spring.xml;

import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.xml.ParserContext;
import org.w3c.dom.Element;

/** {@code <jupiter:provider>} to an {@link XmlProvider}. */
final class ProviderParser extends JupiterElementParser {

    @Override
    protected Class<?> getBeanClass(Element element) {
        return XmlProvider.class;
    }

    @Override
    void parse(Element element, ParserContext context, BeanDefinitionBuilder bean) {
        reference(element, bean, "server", "providerImpl");
        for (Element property : children(element, "property")) {
            refuse(property, context, "executor", "requests run on the server's provider threads: remove it");
            refuse(property, context, "flowController", "use globalFlowController on the jupiter:server's "
                    + "property, or an io.jupiter.rpc.flow.FlowControlFilter bean in providerInterceptors");
            refuse(property, context, "providerInitializer", "initialise the bean with Spring (init-method, "
                    + "@PostConstruct) instead");
            refuse(property, context, "providerInitializerExecutor", "initialise the bean with Spring (init-method, "
                    + "@PostConstruct) instead");
            copy(property, bean, "weight", "providerInterceptors");
        }
    }
}
