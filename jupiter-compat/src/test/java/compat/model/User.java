package compat.model;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** A user POJO with the same class name on both sides. */
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

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof User)) {
            return false;
        }
        User u = (User) o;
        return id == u.id && Objects.equals(name, u.name) && Objects.equals(tags, u.tags);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, tags);
    }

    @Override
    public String toString() {
        return "User{" + id + ", " + name + ", " + tags + "}";
    }
}
