package io.jupiter.serialization.wire.legacy;

/**
 * The wire form of Jupiter 1.3.1's {@code org.jupiter.rpc.exception.JupiterFlowControlException}:
 * flow control refused the request (0x54 / 0x55).
 */
public class JupiterFlowControlException extends JupiterRemoteException {

    private static final long serialVersionUID = 3478741195763320940L;

    public JupiterFlowControlException(String message) {
        super(message);
    }
}
