package io.jupiter.testkit.suites.serialization.gadget;

import java.io.Serializable;

/**
 * Stands for a deserialization gadget: its static initializer and constructor record that they ran. Same fields and
 * serialVersionUID as {@link Decoy}, so a body written for a decoy and renamed to this class would really make one.
 */
public class Gadget implements Serializable {

    private static final long serialVersionUID = 7L;

    static {
        GadgetFlags.INITIALIZED.set(true);
    }

    private String note;

    public Gadget() {
        GadgetFlags.CONSTRUCTED.set(true);
    }

    public String getNote() {
        return note;
    }
}
