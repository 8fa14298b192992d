package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.spring.boot.JupiterReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.springframework.beans.PropertyValues;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/** Sets every field annotated {@link JupiterReference} of every bean to its proxy, before the bean's init methods. */
public final class ReferenceFieldInjector implements InstantiationAwareBeanPostProcessor {

    private final ObjectProvider<ReferenceFactory> factory;

    /** Takes the factory lazily: this post-processor is made before the beans the factory needs. */
    public ReferenceFieldInjector(ObjectProvider<ReferenceFactory> factory) {
        this.factory = factory;
    }

    @Override
    public PropertyValues postProcessProperties(PropertyValues values, Object bean, String beanName) {
        ReflectionUtils.doWithFields(ClassUtils.getUserClass(bean.getClass()), field -> inject(field, bean, beanName),
                field -> field.isAnnotationPresent(JupiterReference.class));
        return values;
    }

    private void inject(Field field, Object bean, String beanName) {
        String where = field.getDeclaringClass().getSimpleName() + '.' + field.getName();
        if (Modifier.isStatic(field.getModifiers()) || Modifier.isFinal(field.getModifiers())) {
            throw new BeanCreationException(beanName, "@JupiterReference on " + where
                    + ": the field is static or final (expected: an instance field Spring can set)");
        }
        Object proxy = factory.getObject().proxy(field.getType(), field.getAnnotation(JupiterReference.class), where);
        ReflectionUtils.makeAccessible(field);
        ReflectionUtils.setField(field, bean, proxy);
    }
}
