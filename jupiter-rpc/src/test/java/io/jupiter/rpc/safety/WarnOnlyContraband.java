package io.jupiter.rpc.safety;

import java.io.Serializable;

/** Not trusted either; used only by the WARN-mode test, since WARN mode logs each class name once per process. */
public final class WarnOnlyContraband implements Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String toString() {
        return "WarnOnlyContraband";
    }
}
