package io.jupiter.rpc;

import io.jupiter.common.Requires;

/**
 * The coordinates of a service: group, name and version. Immutable.
 *
 * @param group   the group, e.g. {@code "Jupiter"}
 * @param name    the service name, by default the interface's fully qualified name
 * @param version the version, e.g. {@code "1.0.0"}
 */
public record ServiceKey(String group, String name, String version) {

    /** Group used when {@link ServiceProvider#group()} is not given. */
    public static final String DEFAULT_GROUP = "Jupiter";
    /** Version used when none is given. */
    public static final String DEFAULT_VERSION = "1.0.0";

    public ServiceKey {
        Requires.notBlank(group, "group");
        Requires.notBlank(name, "name");
        Requires.notBlank(version, "version");
    }

    /**
     * The key of a service interface: group and name from its {@link ServiceProvider} annotation (defaults when the
     * annotation is absent), with the given version.
     */
    public static ServiceKey of(Class<?> serviceInterface, String version) {
        Requires.notNull(serviceInterface, "serviceInterface");
        Requires.argument(serviceInterface.isInterface(), serviceInterface.getName() + " is not an interface");
        ServiceProvider annotation = serviceInterface.getAnnotation(ServiceProvider.class);
        String group = annotation == null ? DEFAULT_GROUP : annotation.group();
        String name = annotation == null || annotation.name().isEmpty() ? serviceInterface.getName()
                : annotation.name();
        return new ServiceKey(group, name, version);
    }

    /** {@code group-name-version}, the string providers are looked up by (as in 1.3.1). */
    public String directory() {
        return group + '-' + name + '-' + version;
    }

    @Override
    public String toString() {
        return directory();
    }
}
