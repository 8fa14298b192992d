package io.jupiter.spring.xml;

import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.xml.ParserContext;
import org.w3c.dom.Element;

/** {@code <jupiter:client>} to an {@link XmlClient}. */
final class ClientParser extends JupiterElementParser {

    @Override
    protected Class<?> getBeanClass(Element element) {
        return XmlClient.class;
    }

    @Override
    void parse(Element element, ParserContext context, BeanDefinitionBuilder bean) {
        refuse(element, context, "connector", "1.3.1's connector beans do not exist here: remove it (the client's "
                + "transport is built in)");
        copy(element, bean, "appName", "registryType");
        for (Element property : children(element, "property")) {
            copy(property, bean, "registryServerAddresses", "providerServerAddresses", "globalConsumerInterceptors");
        }
        bean.addPropertyValue("childOptions", netOptions(element, "childOption"));
    }
}
