package io.jupiter.serialization.wire.legacy;

/**
 * The wire form of Jupiter 1.3.1's {@code org.jupiter.rpc.exception.JupiterBizException}:
 * a business failure reported by a 1.3.1 consumer.
 */
public class JupiterBizException extends JupiterRemoteException {

    private static final long serialVersionUID = -3996155413840689423L;

    public JupiterBizException(String message) {
        super(message);
    }
}
