package io.jupiter.serialization.internal;

import io.jupiter.serialization.LengthBudget;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import java.io.ObjectInputFilter;

/**
 * The {@link ReadLimits} of one JDK object stream, as an {@link ObjectInputFilter}: array lengths charged against a
 * {@link LengthBudget} of {@link ReadLimits#JAVA_LENGTH_FACTOR} elements per byte of the stream (the JDK asks the
 * filter before it allocates an array, and {@code HashMap}, {@code ArrayList} and the like ask it about their
 * tables), depth, references, and no byte beyond the stream's length. Checked before the {@code next} filter, which
 * decides whatever these limits leave undecided. One per stream: it counts.
 *
 * <p>A breach is remembered so that the serializer can report it as a {@link ReadLimitException} (the JDK itself
 * throws a bare {@code InvalidClassException("filter status: REJECTED")}).
 */
public final class LimitingInputFilter implements ObjectInputFilter {

    private final LengthBudget budget;
    private final long maxBytes;
    private final ReadLimits limits;
    private final ObjectInputFilter next;
    private ReadLimitException breach;

    /**
     * For a stream of {@code bytes} bytes read with {@code limits}, with {@code next} (may be {@code null}) asked
     * after them.
     */
    public LimitingInputFilter(long bytes, ReadLimits limits, ObjectInputFilter next) {
        this.limits = limits;
        this.budget = new LengthBudget(bytes * ReadLimits.JAVA_LENGTH_FACTOR);
        this.maxBytes = bytes;
        this.next = next;
    }

    @Override
    public Status checkInput(FilterInfo info) {
        if (breach != null) {
            return Status.REJECTED;
        }
        try {
            long length = info.arrayLength();
            if (length >= 0) {
                budget.charge(length > Integer.MAX_VALUE ? -1 : (int) length, "array");
            }
            if (info.depth() > limits.maxDepth()) {
                throw new ReadLimitException(limits.tooDeep());
            }
            if (info.references() > limits.maxReferences()) {
                throw new ReadLimitException(limits.tooManyReferences());
            }
            if (info.streamBytes() > maxBytes) {
                throw new ReadLimitException("read " + info.streamBytes() + " bytes of a " + maxBytes
                        + "-byte body");
            }
        } catch (ReadLimitException e) {
            breach = e;
            return Status.REJECTED;
        }
        return next == null ? Status.UNDECIDED : next.checkInput(info);
    }

    /** The limit this stream broke, or {@code null}. */
    public ReadLimitException breach() {
        return breach;
    }
}
