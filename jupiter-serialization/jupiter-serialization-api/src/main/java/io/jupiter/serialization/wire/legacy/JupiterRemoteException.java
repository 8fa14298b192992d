package io.jupiter.serialization.wire.legacy;

import java.net.SocketAddress;

/**
 * The wire form of Jupiter 1.3.1's {@code org.jupiter.rpc.exception.JupiterRemoteException}: same simple name,
 * serialVersionUID and fields, so every serializer can read and write it under the 1.3.1 name. It and its
 * subclasses here are body classes, like {@code ResultWrapper}: the RPC layer maps them to its own exceptions and
 * never throws them to a caller.
 */
public class JupiterRemoteException extends RuntimeException {

    private static final long serialVersionUID = -6516335527982400712L;

    /** Always null when we send it, as in 1.3.1; kept for the field layout (protostuff field #5). */
    private final SocketAddress remoteAddress;

    // setStackTrace is overridable, but no subclass overrides it: nothing sees this object half-built (JDK 21+'s
    // javac warns of the call).
    @SuppressWarnings("this-escape")
    public JupiterRemoteException(String message) {
        super(message);
        this.remoteAddress = null;
        setStackTrace(new StackTraceElement[0]);
    }

    /** The remote address the peer filled in, or null. */
    public SocketAddress remoteAddress() {
        return remoteAddress;
    }
}
