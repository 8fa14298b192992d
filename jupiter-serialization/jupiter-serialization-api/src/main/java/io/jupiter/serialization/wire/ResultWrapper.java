package io.jupiter.serialization.wire;

import java.io.Serializable;

/**
 * The body of a response frame: the return value, or the throwable when the header's status says the call failed.
 *
 * <p>Same single field as Jupiter 1.3.1's {@code org.jupiter.rpc.model.metadata.ResultWrapper}.
 */
public final class ResultWrapper implements Serializable {

    private static final long serialVersionUID = -1126932930252953428L;

    private Object result;

    /** For serializers only. */
    public ResultWrapper() {
    }

    public ResultWrapper(Object result) {
        this.result = result;
    }

    /** The return value or the throwable. */
    public Object getResult() {
        return result;
    }

    @Override
    public String toString() {
        return "ResultWrapper{result=" + result + '}';
    }
}
