package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.spring.boot.JupiterReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Member;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.DependencyDescriptor;
import org.springframework.beans.factory.support.AutowireCandidateResolver;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.annotation.ContextAnnotationAutowireCandidateResolver;
import org.springframework.core.MethodParameter;

/**
 * Supplies the proxy for a constructor or method parameter annotated {@link JupiterReference}, the way
 * {@code @Value} supplies a value: installed in place of the context's own resolver, whose behaviour it keeps for
 * everything else.
 */
public final class ReferenceCandidateResolver extends ContextAnnotationAutowireCandidateResolver {

    private final BeanFactory beanFactory;

    private ReferenceCandidateResolver(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
        setBeanFactory(beanFactory);
    }

    /**
     * Installs the resolver in every context whose resolver is Spring's annotation-driven one (what a Spring Boot
     * application and an annotation-config context have); another, customised resolver is left alone and then only
     * fields can be injected.
     */
    public static BeanFactoryPostProcessor installer() {
        return ReferenceCandidateResolver::install;
    }

    private static void install(ConfigurableListableBeanFactory beanFactory) {
        if (beanFactory instanceof DefaultListableBeanFactory listable) {
            AutowireCandidateResolver current = listable.getAutowireCandidateResolver();
            if (current.getClass() == ContextAnnotationAutowireCandidateResolver.class) {
                listable.setAutowireCandidateResolver(new ReferenceCandidateResolver(beanFactory));
            }
        }
    }

    @Override
    public Object getSuggestedValue(DependencyDescriptor descriptor) {
        JupiterReference reference = descriptor.getAnnotation(JupiterReference.class);
        if (reference == null) {
            return super.getSuggestedValue(descriptor);
        }
        Member member = descriptor.getMember();
        MethodParameter parameter = descriptor.getMethodParameter();
        String where = member.getDeclaringClass().getSimpleName()
                + (member instanceof Constructor<?> ? "" : "." + member.getName())
                + "(parameter " + (parameter == null ? "?" : parameter.getParameterIndex()) + ": "
                + descriptor.getDependencyType().getSimpleName() + ')';
        return beanFactory.getBean(ReferenceFactory.class).proxy(descriptor.getDependencyType(), reference, where);
    }

    @Override
    public AutowireCandidateResolver cloneIfNecessary() {
        return new ReferenceCandidateResolver(beanFactory);
    }
}
