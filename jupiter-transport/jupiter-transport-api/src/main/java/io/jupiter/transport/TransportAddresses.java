package io.jupiter.transport;

import io.jupiter.common.Requires;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;

/**
 * The three kinds of address a transport serves and connects to, and their text form:
 *
 * <table>
 * <caption>Addresses</caption>
 * <tr><th>text</th><th>type</th><th>transport</th></tr>
 * <tr><td>{@code host:port}</td><td>{@link InetSocketAddress}</td><td>TCP (native epoll or NIO)</td></tr>
 * <tr><td>{@code unix:/path/to/socket}</td><td>{@link UnixDomainSocketAddress}</td><td>Unix domain socket (native
 * epoll only, Linux)</td></tr>
 * <tr><td>{@code inprocess:NAME}</td><td>{@link InProcessAddress}</td><td>in the same JVM, no socket</td></tr>
 * </table>
 *
 * <p>All three carry the same frames through the same pipeline. TLS is for TCP only: a Unix domain socket is guarded
 * by its file's permissions, an in-process connection never leaves the process.
 */
public final class TransportAddresses {

    /** Prefix of a Unix domain socket address in text form. */
    public static final String UNIX_SCHEME = "unix:";
    /** Prefix of an in-process address in text form. */
    public static final String IN_PROCESS_SCHEME = "inprocess:";

    private TransportAddresses() {
    }

    /**
     * The address written as {@code text}: {@code unix:PATH}, {@code inprocess:NAME} or {@code host:port} (a host
     * name is resolved now).
     *
     * @throws IllegalArgumentException if {@code text} is none of these, or its port is not in 1..65535
     */
    public static SocketAddress parse(String text) {
        Requires.notBlank(text, "address");
        if (text.startsWith(UNIX_SCHEME)) {
            String path = text.substring(UNIX_SCHEME.length());
            Requires.argument(!path.isBlank(), "address: '" + text + "' (expected: unix:PATH)");
            return UnixDomainSocketAddress.of(path);
        }
        if (text.startsWith(IN_PROCESS_SCHEME)) {
            String name = text.substring(IN_PROCESS_SCHEME.length());
            Requires.argument(!name.isBlank(), "address: '" + text + "' (expected: inprocess:NAME)");
            return InProcessAddress.of(name);
        }
        int colon = text.lastIndexOf(':');
        String expected = "address: '" + text + "' (expected: host:port, unix:PATH or inprocess:NAME)";
        Requires.argument(colon > 0 && colon < text.length() - 1, expected);
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(expected, e);
        }
        Requires.inRange(port, 1, 65535, "port");
        return new InetSocketAddress(text.substring(0, colon), port);
    }

    /** {@code address} in the text form {@link #parse} reads ({@code host:port} without the resolved IP). */
    public static String format(SocketAddress address) {
        Requires.notNull(address, "address");
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getHostString();
            return (host.indexOf(':') >= 0 ? '[' + host + ']' : host) + ':' + inet.getPort();
        }
        if (address instanceof UnixDomainSocketAddress unix) {
            return UNIX_SCHEME + unix.getPath();
        }
        return address.toString();
    }

    /**
     * The IP address of a TCP address, {@code null} for the other kinds (their peers are on this machine): the key
     * of per-peer limits and throttled warnings.
     */
    public static InetAddress ipOf(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }

    /** Whether {@code address} is a TCP address (the only kind TLS and per-IP limits apply to). */
    public static boolean isTcp(SocketAddress address) {
        return address instanceof InetSocketAddress;
    }
}
