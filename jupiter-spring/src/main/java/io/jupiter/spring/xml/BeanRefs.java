package io.jupiter.spring.xml;

import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.BeanFactory;

/** Beans named in a 1.3.1 attribute (one name, or several separated by commas), checked for their type. */
final class BeanRefs {

    private BeanRefs() {
    }

    /** The beans named in {@code names}, in order; none if it is null or blank. */
    static <T> List<T> list(BeanFactory beans, String names, Class<T> type, String attribute) {
        List<T> found = new ArrayList<>();
        if (names == null || names.isBlank()) {
            return found;
        }
        for (String raw : names.split(",")) {
            String name = raw.trim();
            if (!name.isEmpty()) {
                found.add(one(beans, name, type, attribute));
            }
        }
        return found;
    }

    /** The bean named {@code name}, which must be a {@code type}. */
    static <T> T one(BeanFactory beans, String name, Class<T> type, String attribute) {
        Object bean = beans.getBean(name);
        if (!type.isInstance(bean)) {
            throw new IllegalArgumentException(attribute + ": bean '" + name + "' is a " + bean.getClass().getName()
                    + " (expected: " + type.getName() + ')');
        }
        return type.cast(bean);
    }
}
