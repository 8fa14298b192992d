package io.jupiter.testkit.suites.serialization.model;

import java.io.Serializable;

/** A trusted POJO whose one field is declared {@code Object}, so its content carries its own class name. */
public class Box implements Serializable {

    private static final long serialVersionUID = 1L;

    private Object content;

    public Box() {
    }

    public Box(Object content) {
        this.content = content;
    }

    public Object getContent() {
        return content;
    }
}
