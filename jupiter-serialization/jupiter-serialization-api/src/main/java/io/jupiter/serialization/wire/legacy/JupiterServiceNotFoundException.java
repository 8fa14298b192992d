package io.jupiter.serialization.wire.legacy;

/**
 * The wire form of Jupiter 1.3.1's {@code org.jupiter.rpc.exception.JupiterServiceNotFoundException}:
 * no such service (0x44 SERVICE_NOT_FOUND).
 */
public class JupiterServiceNotFoundException extends JupiterRemoteException {

    private static final long serialVersionUID = -2277731243490443074L;

    public JupiterServiceNotFoundException(String message) {
        super(message);
    }
}
