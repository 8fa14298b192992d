package io.jupiter.serialization.wire.legacy;

/**
 * The wire form of Jupiter 1.3.1's {@code org.jupiter.rpc.exception.JupiterBadRequestException}:
 * the request could not be read (0x40 BAD_REQUEST).
 */
public class JupiterBadRequestException extends JupiterRemoteException {

    private static final long serialVersionUID = -6603241073638657127L;

    public JupiterBadRequestException(String message) {
        super(message);
    }
}
