package io.jupiter.registry;

import java.util.function.Function;

/**
 * A {@link RegistryFactory} whose addresses parse into a typed target, from which it connects: the parsing and the
 * connecting are the subclass's, named when it is made.
 *
 * @param <T> the parsed addresses (a DNS name and port, a Kubernetes namespace, ...)
 */
public abstract class TargetRegistryFactory<T> implements RegistryFactory {

    private final String scheme;
    private final Function<String, T> parser;
    private final Function<T, RegistryService> connector;

    /**
     * @param scheme    the scheme served
     * @param parser    parses the addresses of a registry URL; throws {@link IllegalArgumentException} naming what
     *                  is wrong
     * @param connector makes the registry for a parsed target
     */
    protected TargetRegistryFactory(String scheme, Function<String, T> parser,
                                    Function<T, RegistryService> connector) {
        this.scheme = scheme;
        this.parser = parser;
        this.connector = connector;
    }

    @Override
    public final String scheme() {
        return scheme;
    }

    @Override
    public final RegistryService connect(String addresses) {
        return connector.apply(parser.apply(addresses));
    }
}
