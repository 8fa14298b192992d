package io.jupiter.rpc.safety;

import java.io.Serializable;

/** A harmless class no service interface mentions, so it is not trusted unless someone trusts it. */
public final class Contraband implements Serializable {

    private static final long serialVersionUID = 1L;

    private String note = "smuggled";

    @Override
    public String toString() {
        return "Contraband{" + note + '}';
    }
}
