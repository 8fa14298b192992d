package io.jupiter.serialization.protostuff;

import java.io.Serializable;
import java.util.AbstractCollection;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The map a request's attachments are read into: its entries in the order read, the first in two fields of its own
 * and the others side by side in one array, made for the second. A request carries a few (a default client sends
 * one, its deadline), where a {@code HashMap} would cost a table and a node per entry besides itself, and an array
 * from the first entry on 24 bytes more. Lookups compare every key, which for a few is as fast as hashing. A full
 * {@link Map}: it can be changed, and equals any map of the same entries.
 *
 * <p>Past {@value #LINEAR_MAX} entries it keeps them in a {@code LinkedHashMap} instead (the same order): comparing
 * every key on every put would make a body of many entries, which a peer may send, cost their number squared.
 *
 * <p>Not an {@code AbstractMap}: that would add its two fields (the cached key and value views), 8 bytes to every
 * request's map. What it would give is here instead, as {@code AbstractMap} does it: views over {@link #entrySet}
 * made when asked for, {@link #equals}, {@link #hashCode} and {@link #toString} by the {@link Map} contract.
 */
final class AttachmentMap implements Map<String, String>, Serializable {

    private static final long serialVersionUID = 3L;
    /** The most entries kept in the fields and the array; more are kept in {@link #large}. */
    static final int LINEAR_MAX = 8;

    /** Entry 0. */
    private String firstKey;
    private String firstValue;
    /** Entries 1, 2, ...: key, value, key, value, ...; the first {@code 2 * (size - 1)} slots are used. */
    private String[] more;
    private int size;
    /** All the entries once there are more than {@link #LINEAR_MAX} (the fields above are then unused). */
    private LinkedHashMap<String, String> large;

    @Override
    public int size() {
        return large != null ? large.size() : size;
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public boolean containsKey(Object key) {
        return large != null ? large.containsKey(key) : indexOf(key) >= 0;
    }

    @Override
    public String get(Object key) {
        if (large != null) {
            return large.get(key);
        }
        int i = indexOf(key);
        return i < 0 ? null : valueAt(i);
    }

    @Override
    public String put(String key, String value) {
        if (large != null) {
            return large.put(key, value);
        }
        int i = indexOf(key);
        if (i >= 0) {
            return setValueAt(i, value);
        }
        if (size == LINEAR_MAX) {
            large = new LinkedHashMap<>(4 * LINEAR_MAX);
            for (int j = 0; j < size; j++) {
                large.put(keyAt(j), valueAt(j));
            }
            firstKey = null;
            firstValue = null;
            more = null;
            size = 0;
            return large.put(key, value);
        }
        if (size > 0) {
            int slot = 2 * (size - 1);
            if (more == null) {
                more = new String[2];
            } else if (slot == more.length) {
                more = Arrays.copyOf(more, more.length * 2);
            }
        }
        set(size, key, value);
        size++;
        return null;
    }

    @Override
    public String remove(Object key) {
        if (large != null) {
            return large.remove(key);
        }
        int i = indexOf(key);
        if (i < 0) {
            return null;
        }
        String old = valueAt(i);
        removeAt(i);
        return old;
    }

    @Override
    public void clear() {
        large = null;
        firstKey = null;
        firstValue = null;
        if (more != null) {
            Arrays.fill(more, null);
        }
        size = 0;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return large != null ? large.entrySet() : new Entries();
    }

    @Override
    public boolean containsValue(Object value) {
        for (Entry<String, String> e : entrySet()) {
            if (Objects.equals(e.getValue(), value)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void putAll(Map<? extends String, ? extends String> entries) {
        for (Entry<? extends String, ? extends String> e : entries.entrySet()) {
            put(e.getKey(), e.getValue());
        }
    }

    /** The keys, a view: removing one removes its entry. */
    @Override
    public Set<String> keySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<String> iterator() {
                Iterator<Entry<String, String>> entries = entrySet().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return entries.hasNext();
                    }

                    @Override
                    public String next() {
                        return entries.next().getKey();
                    }

                    @Override
                    public void remove() {
                        entries.remove();
                    }
                };
            }

            @Override
            public int size() {
                return AttachmentMap.this.size();
            }

            @Override
            public boolean contains(Object key) {
                return containsKey(key);
            }

            @Override
            public void clear() {
                AttachmentMap.this.clear();
            }
        };
    }

    /** The values, a view: removing one removes its entry. */
    @Override
    public Collection<String> values() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<String> iterator() {
                Iterator<Entry<String, String>> entries = entrySet().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return entries.hasNext();
                    }

                    @Override
                    public String next() {
                        return entries.next().getValue();
                    }

                    @Override
                    public void remove() {
                        entries.remove();
                    }
                };
            }

            @Override
            public int size() {
                return AttachmentMap.this.size();
            }

            @Override
            public boolean contains(Object value) {
                return containsValue(value);
            }

            @Override
            public void clear() {
                AttachmentMap.this.clear();
            }
        };
    }

    /** Whether {@code o} is a map of the same entries ({@link Map#equals}). */
    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Map<?, ?> other) || other.size() != size()) {
            return false;
        }
        try {
            for (Entry<String, String> e : entrySet()) {
                String key = e.getKey();
                String value = e.getValue();
                if (value == null ? other.get(key) != null || !other.containsKey(key)
                        : !value.equals(other.get(key))) {
                    return false;
                }
            }
        } catch (ClassCastException | NullPointerException unusedKey) {
            return false; // the other map takes no such key
        }
        return true;
    }

    /** The sum of the entries' hash codes ({@link Map#hashCode}). */
    @Override
    public int hashCode() {
        int hash = 0;
        for (Entry<String, String> e : entrySet()) {
            hash += e.hashCode();
        }
        return hash;
    }

    /** {@code {key=value, key=value}}, in order. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        for (Entry<String, String> e : entrySet()) {
            if (text.length() > 1) {
                text.append(", ");
            }
            text.append(e.getKey()).append('=').append(e.getValue());
        }
        return text.append('}').toString();
    }

    /** The entry of {@code key}, or -1. */
    private int indexOf(Object key) {
        for (int i = 0; i < size; i++) {
            if (Objects.equals(keyAt(i), key)) {
                return i;
            }
        }
        return -1;
    }

    private String keyAt(int i) {
        return i == 0 ? firstKey : more[2 * (i - 1)];
    }

    private String valueAt(int i) {
        return i == 0 ? firstValue : more[2 * (i - 1) + 1];
    }

    /** Sets entry {@code i}'s value; the value it had. */
    private String setValueAt(int i, String value) {
        String old = valueAt(i);
        if (i == 0) {
            firstValue = value;
        } else {
            more[2 * (i - 1) + 1] = value;
        }
        return old;
    }

    private void set(int i, String key, String value) {
        if (i == 0) {
            firstKey = key;
            firstValue = value;
        } else {
            more[2 * (i - 1)] = key;
            more[2 * (i - 1) + 1] = value;
        }
    }

    /** Removes entry {@code i}; the later ones move up, keeping their order. */
    private void removeAt(int i) {
        for (int j = i; j < size - 1; j++) {
            set(j, keyAt(j + 1), valueAt(j + 1));
        }
        size--;
        set(size, null, null);
    }

    private final class Entries extends AbstractSet<Entry<String, String>> {

        @Override
        public int size() {
            return size;
        }

        @Override
        public Iterator<Entry<String, String>> iterator() {
            return new Iterator<>() {
                /** The next entry. */
                private int next;
                /** The entry last returned, or -1. */
                private int last = -1;

                @Override
                public boolean hasNext() {
                    return next < size;
                }

                @Override
                public Entry<String, String> next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    last = next++;
                    return new IndexedEntry(last);
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

    /** An entry that reads and writes the map's entry at its index (valid until the map is changed otherwise). */
    private final class IndexedEntry implements Entry<String, String> {

        private final int index;

        IndexedEntry(int index) {
            this.index = index;
        }

        @Override
        public String getKey() {
            return keyAt(index);
        }

        @Override
        public String getValue() {
            return valueAt(index);
        }

        @Override
        public String setValue(String value) {
            return setValueAt(index, value);
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
