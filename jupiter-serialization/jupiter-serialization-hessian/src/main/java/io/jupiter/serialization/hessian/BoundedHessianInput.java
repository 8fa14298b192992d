package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.HessianProtocolException;
import io.jupiter.serialization.LengthBudget;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import java.io.IOException;

/**
 * Hessian 2 input with the {@link ReadLimits}: the nesting of {@code readObject} calls (every value a deserializer
 * reads goes through them), the number of objects registered for back-references ({@link #addRef}), and a
 * {@link LengthBudget} of the body's size that {@link BoundedDeserializer} charges with the lengths of fixed-length
 * lists and arrays and the field counts of object definitions before Hessian allocates for them. Hessian 4.0.66 has
 * none of these limits. Strings, byte arrays and maps need none: Hessian reads them in chunks of at most 64 KiB and
 * grows them with what actually arrives.
 */
final class BoundedHessianInput extends Hessian2Input {

    /** The input of the body this thread is reading, for the lengths Hessian passes without it. */
    private static final ThreadLocal<BoundedHessianInput> CURRENT = new ThreadLocal<>();

    private final LengthBudget budget = new LengthBudget(0);
    private ReadLimits readLimits;
    private int depth;
    private int references;
    /** The request read envelope first, or {@code null} for any other read. */
    private RequestRead request;

    BoundedHessianInput() {
        super(null);
    }

    /** Starts a body of {@code bytes} bytes read with {@code limits}: a full budget, no depth, no references. */
    void limits(int bytes, ReadLimits limits) {
        readLimits = limits;
        budget.reset(bytes);
        depth = 0;
        references = 0;
        CURRENT.set(this);
    }

    /** The body is read (or failed): lengths without an input are no longer charged to it. */
    void done() {
        CURRENT.remove();
        request = null;
    }

    /** Reads this body as a request envelope first ({@code null}: a plain read). */
    void request(RequestRead read) {
        this.request = read;
    }

    RequestRead request() {
        return request;
    }

    /** How many {@code readObject} calls are under way. */
    int depth() {
        return depth;
    }

    /** The input of the body this thread is reading, or {@code null}. */
    static BoundedHessianInput current() {
        return CURRENT.get();
    }

    /** Charges {@code length} to the budget of the body this thread is reading, if any. */
    static void charge(int length, String what) {
        BoundedHessianInput current = CURRENT.get();
        if (current != null) {
            current.budget.charge(length, what);
        }
    }

    /** Charges {@code length} to the budget of {@code in} if it is one of ours. */
    static void charge(AbstractHessianInput in, int length, String what) {
        if (in instanceof BoundedHessianInput) {
            ((BoundedHessianInput) in).budget.charge(length, what);
        }
    }

    @Override
    public Object readObject() throws IOException {
        enter();
        try {
            return super.readObject();
        } finally {
            depth--;
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Object readObject(Class cl) throws IOException {
        if (cl == null || cl == Object.class) {
            return readObject(); // what Hessian does first; counted there, not twice
        }
        enter();
        try {
            return super.readObject(cl);
        } finally {
            depth--;
        }
    }

    private void enter() {
        if (++depth > readLimits.maxDepth()) {
            depth--;
            throw new ReadLimitException(readLimits.tooDeep());
        }
    }

    /**
     * The error for a value of another type than expected, without reading that value: Hessian's own reads it whole
     * to describe it, which would read whatever a peer put there (a list nested to the depth limit, say).
     */
    @Override
    protected IOException expect(String expect, int ch) {
        return new HessianProtocolException("expected " + expect + " at 0x" + Integer.toHexString(ch & 0xff));
    }

    @Override
    public int addRef(Object ref) {
        if (++references > readLimits.maxReferences()) {
            throw new ReadLimitException(readLimits.tooManyReferences());
        }
        return super.addRef(ref);
    }
}
