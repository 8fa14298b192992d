package io.jupiter.testkit.suites.serialization.model;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** A POJO of the samples: a primitive, a string and a list of strings, with value equality. */
public class User implements Serializable {

    private static final long serialVersionUID = 1L;

    private int id;
    private String name;
    private List<String> tags;

    public User() {
    }

    public User(int id, String name, List<String> tags) {
        this.id = id;
        this.name = name;
        this.tags = tags;
    }

    public int getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public List<String> getTags() {
        return tags;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof User)) {
            return false;
        }
        User that = (User) o;
        return id == that.id && Objects.equals(name, that.name) && Objects.equals(tags, that.tags);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, tags);
    }

    @Override
    public String toString() {
        return "User{id=" + id + ", name=" + name + ", tags=" + tags + '}';
    }
}
