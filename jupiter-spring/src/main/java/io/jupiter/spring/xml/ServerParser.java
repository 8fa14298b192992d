package io.jupiter.spring.xml;

import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.xml.ParserContext;
import org.w3c.dom.Element;

/** {@code <jupiter:server>} to an {@link XmlServer}. */
final class ServerParser extends JupiterElementParser {

    @Override
    protected Class<?> getBeanClass(Element element) {
        return XmlServer.class;
    }

    @Override
    void parse(Element element, ParserContext context, BeanDefinitionBuilder bean) {
        refuse(element, context, "acceptor", "1.3.1's acceptor beans do not exist here: set port (and host) on "
                + "jupiter:server instead");
        copy(element, bean, "registryType", "port", "host");
        for (Element property : children(element, "property")) {
            copy(property, bean, "registryServerAddresses", "globalProviderInterceptors", "globalFlowController");
        }
        bean.addPropertyValue("parentOptions", netOptions(element, "parentOption"));
        bean.addPropertyValue("childOptions", netOptions(element, "childOption"));
    }
}
