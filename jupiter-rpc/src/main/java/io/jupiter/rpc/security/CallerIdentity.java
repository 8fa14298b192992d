package io.jupiter.rpc.security;

import io.jupiter.common.Requires;

/**
 * Who is on the other end of a provider's connection, established once when the connection opens (by a
 * {@link CallerIdentifier}, or by the caller token the client presents first to a {@link TokenAuthenticator}) and the
 * same for every request it carries. Authorization ({@link Authorizer}) decides by
 * it, and provider interceptors see it as {@link io.jupiter.rpc.filter.Invocation#caller()}.
 *
 * <p>A 1.3.1 consumer presents nothing, so without an identifier every caller is {@link #ANONYMOUS}. An identifier
 * may name callers by what the transport proved about them (the subject of a client certificate under mutual TLS),
 * or by anything else it trusts; a token authenticator names them by their token. Immutable.
 */
public final class CallerIdentity {

    /** A caller nothing is known about. */
    public static final CallerIdentity ANONYMOUS = new CallerIdentity("");

    private final String name;

    private CallerIdentity(String name) {
        this.name = name;
    }

    /**
     * A caller named {@code name}, e.g. a certificate's subject or a service account.
     *
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public static CallerIdentity of(String name) {
        return new CallerIdentity(Requires.notBlank(name, "name").trim());
    }

    /** The name; empty for {@link #ANONYMOUS}. */
    public String name() {
        return name;
    }

    public boolean isAnonymous() {
        return name.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CallerIdentity && name.equals(((CallerIdentity) o).name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return isAnonymous() ? "anonymous" : name;
    }
}
