package io.jupiter.common;

/**
 * The part of a server's builder that says where it listens: one TCP address, a host and a port, each checked as it
 * is set. The defaults are the server's (its builder's documentation names them).
 *
 * @param <B> the builder itself, so that the setters chain
 */
public abstract class BindingBuilder<B extends BindingBuilder<B>> {

    private String host;
    private int port;

    /** Starts from the server's default address. */
    protected BindingBuilder(String defaultHost, int defaultPort) {
        this.host = Requires.notBlank(defaultHost, "defaultHost");
        this.port = Requires.inRange(defaultPort, 0, 65535, "defaultPort");
    }

    /** The address to bind: a host name or an address literal, {@code 0.0.0.0} for every interface. */
    public final B host(String host) {
        this.host = Requires.notBlank(host, "host");
        return self();
    }

    /** The port to bind; 0 picks a free one. */
    public final B port(int port) {
        this.port = Requires.inRange(port, 0, 65535, "port");
        return self();
    }

    /** The host set (or the default). */
    public final String hostToBind() {
        return host;
    }

    /** The port set (or the default). */
    public final int portToBind() {
        return port;
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
