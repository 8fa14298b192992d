package io.jupiter.spring.xml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.xml.AbstractSingleBeanDefinitionParser;
import org.springframework.beans.factory.xml.ParserContext;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * The common part of the four element parsers: 1.3.1 attributes with a counterpart become bean properties (values
 * are checked when the bean starts, after placeholders are resolved); those without one fail the parse, naming the
 * element, the attribute and what to use instead.
 */
abstract class JupiterElementParser extends AbstractSingleBeanDefinitionParser {

    @Override
    protected final void doParse(Element element, ParserContext context, BeanDefinitionBuilder bean) {
        bean.addPropertyValue("id", element.getAttribute("id"));
        parse(element, context, bean);
    }

    /** Fills {@code bean} from {@code element}. */
    abstract void parse(Element element, ParserContext context, BeanDefinitionBuilder bean);

    /** Copies each of {@code attributes} present on {@code element} to the bean property of the same name. */
    static void copy(Element element, BeanDefinitionBuilder bean, String... attributes) {
        for (String attribute : attributes) {
            if (element.hasAttribute(attribute)) {
                bean.addPropertyValue(attribute, element.getAttribute(attribute));
            }
        }
    }

    /** Copies each of {@code attributes} present on {@code element} as a reference to the bean it names. */
    static void reference(Element element, BeanDefinitionBuilder bean, String... attributes) {
        for (String attribute : attributes) {
            if (element.hasAttribute(attribute)) {
                bean.addPropertyReference(attribute, element.getAttribute(attribute).trim());
            }
        }
    }

    /** Fails if {@code element} has {@code attribute}, which has no counterpart here: {@code instead} says why. */
    static void refuse(Element element, ParserContext context, String attribute, String instead) {
        if (element.hasAttribute(attribute)) {
            Element owner = element.getParentNode() instanceof Element parent && element.getLocalName().equals(
                    "property") ? parent : element;
            context.getReaderContext().error("<jupiter:" + owner.getLocalName() + " id=\"" + owner.getAttribute("id")
                    + "\">: " + attribute + "=\"" + element.getAttribute(attribute) + "\" has no counterpart here; "
                    + instead, element);
        }
    }

    /** The child elements of {@code element} named {@code localName}. */
    static List<Element> children(Element element, String localName) {
        List<Element> found = new ArrayList<>();
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child && localName.equals(child.getLocalName())) {
                found.add(child);
            }
        }
        return found;
    }

    /**
     * The options of the {@code <jupiter:netOptions>} children named {@code optionElement}, by name; the transport
     * checks them when the bean starts.
     */
    static Map<String, String> netOptions(Element element, String optionElement) {
        Map<String, String> options = new LinkedHashMap<>();
        for (Element netOptions : children(element, "netOptions")) {
            for (Element option : children(netOptions, optionElement)) {
                NamedNodeMap attributes = option.getAttributes();
                for (int i = 0; i < attributes.getLength(); i++) {
                    Attr attribute = (Attr) attributes.item(i);
                    options.put(attribute.getLocalName() != null ? attribute.getLocalName() : attribute.getName(),
                            attribute.getValue());
                }
            }
        }
        return options;
    }
}
