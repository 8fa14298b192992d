package io.jupiter.transport;

import io.jupiter.common.Requires;
import java.net.SocketAddress;

/**
 * The address of an in-process acceptor: a name, unique within the JVM. A connector reaches it without a socket
 * (Netty's local channel), through the same framing, heartbeats and limits as over TCP; for tests and for services
 * that run in the same process as their callers. Written {@code inprocess:NAME} (see {@link TransportAddresses}).
 *
 * <pre>{@code
 * Acceptor acceptor = factory.newAcceptor(config, InProcessAddress.of("orders"), handler);
 * }</pre>
 *
 * @see TransportAddresses
 */
public final class InProcessAddress extends SocketAddress {

    private static final long serialVersionUID = 1L;

    private final String name;

    private InProcessAddress(String name) {
        this.name = name;
    }

    /**
     * The in-process address named {@code name}.
     *
     * @throws IllegalArgumentException if the name is blank
     */
    public static InProcessAddress of(String name) {
        return new InProcessAddress(Requires.notBlank(name, "name"));
    }

    /** The name. */
    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof InProcessAddress that && name.equals(that.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    /** {@code inprocess:NAME}. */
    @Override
    public String toString() {
        return TransportAddresses.IN_PROCESS_SCHEME + name;
    }
}
