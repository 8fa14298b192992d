package io.jupiter.rpc.safety;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** A service whose own types ({@link Parcel}, {@link Label}) must travel with no allow-list configuration. */
public interface ParcelService {

    Parcel send(Parcel parcel);

    List<Parcel> sendAll(List<Parcel> parcels);

    /** Takes anything: what arrives in {@code anything} is only as trusted as its class. */
    String describe(Object anything);

    /** Returns a {@link Contraband} for "contraband", else the text. */
    Object open(String what);

    /** A type of the interface. */
    final class Parcel implements Serializable {
        private static final long serialVersionUID = 1L;
        private String id;
        private Label label;
        private Object content;

        public Parcel() {
        }

        public Parcel(String id, Label label, Object content) {
            this.id = id;
            this.label = label;
            this.content = content;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Parcel && Objects.equals(((Parcel) o).id, id)
                    && Objects.equals(((Parcel) o).label, label) && Objects.equals(((Parcel) o).content, content);
        }

        @Override
        public int hashCode() {
            return Objects.hash(id, label, content);
        }
    }

    /** Reachable from the interface through a field of {@link Parcel}. */
    final class Label implements Serializable {
        private static final long serialVersionUID = 1L;
        private String text;

        public Label() {
        }

        public Label(String text) {
            this.text = text;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Label && Objects.equals(((Label) o).text, text);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(text);
        }
    }
}
