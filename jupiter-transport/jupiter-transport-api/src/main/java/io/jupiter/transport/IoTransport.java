package io.jupiter.transport;

import java.util.Locale;

/**
 * The IO transport of an acceptor or connector (the setting {@code transport}, property
 * {@code jupiter.io.transport}).
 *
 * <ul>
 * <li>{@link #AUTO} (default): native epoll where it loads (Linux), else NIO; with
 *     {@link TransportConfig.Builder#nativeTransport(boolean) nativeTransport(false)}, NIO.</li>
 * <li>{@link #NIO}: the JDK's selector, on every platform.</li>
 * <li>{@link #EPOLL}: native epoll; fails to start where it does not load.</li>
 * <li>{@link #IO_URING}: native io_uring (Linux 5.14 or newer, and a kernel that allows it to this process); fails
 *     to start, naming the cause, where it does not load.</li>
 * </ul>
 * Unix domain sockets need a native transport: epoll, or io_uring when chosen.
 */
public enum IoTransport {
    AUTO, NIO, EPOLL, IO_URING;

    /** The transport named as the setting spells it: {@code auto}, {@code nio}, {@code epoll} or {@code io_uring}. */
    public static IoTransport fromSetting(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    /** The name of this transport as the setting spells it. */
    public String settingName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
