package io.jupiter.serialization.protostuff;

import io.protostuff.Schema;
import io.protostuff.runtime.DefaultIdStrategy;
import io.protostuff.runtime.ObjectSchema;
import io.protostuff.runtime.RuntimeEnv;
import java.util.AbstractCollection;
import java.util.Iterator;

/**
 * The request's {@code args} array as {@link LegacyNameInput} fills it, element after element, in place of the
 * {@code ArrayWrapper} protostuff makes for every array it reads into an {@code Object} slot: the same
 * {@code add}, which fails past the array's end as that one does. A thread's own input reuses its one
 * ({@link #start} to {@link #release}).
 */
final class ArgumentArray extends AbstractCollection<Object> {

    /**
     * The schema of one element, protostuff's polymorphic schema of an {@code Object} slot adding what it read here,
     * as protostuff's element schema of such an array adds it to its wrapper.
     */
    static final Schema<Object> ELEMENT = new ObjectSchema(RuntimeEnv.ID_STRATEGY) {
        @Override
        protected void setValue(Object value, Object owner) {
            ((ArgumentArray) owner).add(value);
        }
    };

    /**
     * Whether protostuff resolves an array's component class by its name alone, as its default id strategy does:
     * else the array is left to protostuff.
     */
    static final boolean DEFAULT_IDS = RuntimeEnv.ID_STRATEGY.getClass() == DefaultIdStrategy.class;

    private Object[] array;
    private int offset;

    /** Fills {@code array} from its first element. */
    void start(Object[] array) {
        this.array = array;
        this.offset = 0;
    }

    /** Lets go of the array (a reused one must not keep it reachable). */
    void release() {
        start(null);
    }

    @Override
    public boolean add(Object value) {
        array[offset++] = value;
        return true;
    }

    @Override
    public Iterator<Object> iterator() {
        throw new UnsupportedOperationException("adding only");
    }

    @Override
    public int size() {
        throw new UnsupportedOperationException("adding only");
    }
}
