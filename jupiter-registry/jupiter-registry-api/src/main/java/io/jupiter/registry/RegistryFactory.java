package io.jupiter.registry;

/**
 * Creates {@link RegistryService}s of one kind. Implementations are listed in
 * {@code META-INF/services/io.jupiter.registry.RegistryFactory} and chosen by {@link #scheme()}.
 */
public interface RegistryFactory {

    /** The scheme this factory serves, e.g. {@code default}. */
    String scheme();

    /**
     * A registry client for {@code addresses} ({@code host:port}, several separated by commas). It connects in the
     * background.
     */
    RegistryService connect(String addresses);
}
