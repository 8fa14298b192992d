package io.jupiter.rpc.security;

import io.jupiter.common.Requires;
import io.jupiter.rpc.ServiceKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The built-in {@link Authorizer}: per service and method, which callers may call. A service no rule names is open
 * to every caller (as in 1.3.1); once a rule names a service, only the callers some rule allows for the method
 * called (or for {@link #ANY_METHOD}) may call it, every other caller and method of that service being refused.
 *
 * <pre>{@code
 * AuthorizationRules rules = AuthorizationRules.builder()
 *         .allow(orders, "place", "CN=shop")              // shop may place orders
 *         .allow(orders, AuthorizationRules.ANY_METHOD, "CN=admin")
 *         .build();
 * JupiterServer.builder().callerIdentifier(fromCertificates).authorizer(rules)...
 * }</pre>
 *
 * <p>Callers are matched by {@link CallerIdentity#name()}; {@link CallerIdentity#ANONYMOUS} matches no rule.
 * Immutable; a decision is two hash lookups.
 */
public final class AuthorizationRules implements Authorizer {

    /** Stands for every method of a service in {@link Builder#allow}. */
    public static final String ANY_METHOD = "*";

    /** Service directory, then method name (or {@link #ANY_METHOD}), then the caller names allowed. */
    private final Map<String, Map<String, Set<String>>> allowed;

    private AuthorizationRules(Map<String, Map<String, Set<String>>> allowed) {
        this.allowed = allowed;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public boolean permits(CallerIdentity caller, ServiceKey service, String methodName) {
        Map<String, Set<String>> methods = allowed.get(service.directory());
        if (methods == null) {
            return true;
        }
        if (caller.isAnonymous()) {
            return false;
        }
        Set<String> callers = methods.get(methodName);
        if (callers != null && callers.contains(caller.name())) {
            return true;
        }
        Set<String> anyMethod = methods.get(ANY_METHOD);
        return anyMethod != null && anyMethod.contains(caller.name());
    }

    @Override
    public String toString() {
        return "AuthorizationRules" + allowed;
    }

    /** Collects rules; {@link #build()} freezes them. */
    public static final class Builder {

        private final Map<String, Map<String, Set<String>>> allowed = new HashMap<>();

        private Builder() {
        }

        /**
         * Allows {@code callers} (by {@link CallerIdentity#name()}) to call {@code methodName} of {@code service}, or
         * every method of it with {@link #ANY_METHOD}. From then on the service is closed to everyone else.
         */
        public Builder allow(ServiceKey service, String methodName, String... callers) {
            Requires.notNull(service, "service");
            Requires.notBlank(methodName, "methodName");
            Requires.argument(callers.length > 0, "callers: none (expected: at least one caller name)");
            Set<String> names = allowed.computeIfAbsent(service.directory(), k -> new HashMap<>())
                    .computeIfAbsent(methodName, k -> new HashSet<>());
            for (String caller : callers) {
                names.add(Requires.notBlank(caller, "caller").trim());
            }
            return this;
        }

        public AuthorizationRules build() {
            Map<String, Map<String, Set<String>>> frozen = new HashMap<>();
            allowed.forEach((service, methods) -> {
                Map<String, Set<String>> copy = new HashMap<>();
                methods.forEach((method, callers) -> copy.put(method, Set.copyOf(callers)));
                frozen.put(service, Map.copyOf(copy));
            });
            return new AuthorizationRules(Map.copyOf(frozen));
        }
    }
}
