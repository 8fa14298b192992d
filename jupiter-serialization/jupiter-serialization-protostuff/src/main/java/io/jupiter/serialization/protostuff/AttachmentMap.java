package io.jupiter.serialization.protostuff;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The map a request's attachments are read into: keys and values side by side in one array, in the order read.
 * A request carries a few (a default client sends one, its deadline), where a {@code HashMap} would cost a table
 * and a node per entry besides itself. Lookups compare every key, which for a few is as fast as hashing. A full
 * {@link Map}: it can be changed, and equals any map of the same entries.
 */
final class AttachmentMap extends AbstractMap<String, String> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Key, value, key, value, ...; the first {@code 2 * size} slots are used. */
    private String[] slots = new String[2];
    private int size;

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public String get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : slots[i + 1];
    }

    @Override
    public String put(String key, String value) {
        int i = indexOf(key);
        if (i >= 0) {
            String old = slots[i + 1];
            slots[i + 1] = value;
            return old;
        }
        if (2 * size == slots.length) {
            slots = Arrays.copyOf(slots, slots.length * 2);
        }
        slots[2 * size] = key;
        slots[2 * size + 1] = value;
        size++;
        return null;
    }

    @Override
    public String remove(Object key) {
        int i = indexOf(key);
        if (i < 0) {
            return null;
        }
        String old = slots[i + 1];
        removeAt(i);
        return old;
    }

    @Override
    public void clear() {
        Arrays.fill(slots, 0, 2 * size, null);
        size = 0;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return new Entries();
    }

    /** The slot of {@code key}, or -1. */
    private int indexOf(Object key) {
        for (int i = 0; i < 2 * size; i += 2) {
            if (Objects.equals(slots[i], key)) {
                return i;
            }
        }
        return -1;
    }

    /** Removes the entry at slot {@code i}; the later ones move up, keeping their order. */
    private void removeAt(int i) {
        System.arraycopy(slots, i + 2, slots, i, 2 * size - i - 2);
        size--;
        slots[2 * size] = null;
        slots[2 * size + 1] = null;
    }

    private final class Entries extends AbstractSet<Entry<String, String>> {

        @Override
        public int size() {
            return size;
        }

        @Override
        public Iterator<Entry<String, String>> iterator() {
            return new Iterator<>() {
                /** The slot of the next entry. */
                private int next;
                /** The slot of the entry last returned, or -1. */
                private int last = -1;

                @Override
                public boolean hasNext() {
                    return next < 2 * size;
                }

                @Override
                public Entry<String, String> next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    last = next;
                    next += 2;
                    return new SlotEntry(last);
                }

                @Override
                public void remove() {
                    if (last < 0) {
                        throw new IllegalStateException("no entry to remove");
                    }
                    removeAt(last);
                    next = last;
                    last = -1;
                }
            };
        }
    }

    /** An entry that reads and writes the map's slots (valid until the map is changed otherwise). */
    private final class SlotEntry implements Entry<String, String> {

        private final int slot;

        SlotEntry(int slot) {
            this.slot = slot;
        }

        @Override
        public String getKey() {
            return slots[slot];
        }

        @Override
        public String getValue() {
            return slots[slot + 1];
        }

        @Override
        public String setValue(String value) {
            String old = slots[slot + 1];
            slots[slot + 1] = value;
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry<?, ?> e && Objects.equals(getKey(), e.getKey())
                    && Objects.equals(getValue(), e.getValue());
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(getKey()) ^ Objects.hashCode(getValue());
        }

        @Override
        public String toString() {
            return getKey() + "=" + getValue();
        }
    }
}
