package io.jupiter.testkit.suites.serialization.gadget;

import java.io.Serializable;

/** A harmless class that is not trusted: bodies are written with it and its name is then replaced. */
public class Decoy implements Serializable {

    private static final long serialVersionUID = 7L;

    private String note;

    public Decoy() {
    }

    public Decoy(String note) {
        this.note = note;
    }

    public String getNote() {
        return note;
    }
}
