package io.jupiter.serialization.wire.legacy;

/**
 * The wire form of Jupiter 1.3.1's {@code org.jupiter.rpc.exception.JupiterServerBusyException}:
 * the provider refused the request (0x51 SERVER_BUSY).
 */
public class JupiterServerBusyException extends JupiterRemoteException {

    private static final long serialVersionUID = 4812626729436624336L;

    public JupiterServerBusyException(String message) {
        super(message);
    }
}
