package io.jupiter.serialization;

/**
 * How many more elements one body may declare. Starts at the body's size in bytes (every element, character or
 * byte takes at least one byte on the wire) and is charged with every length read, before anything of that length
 * is allocated. Charging the total rather than each length against what is left also stops nested declarations
 * (an array whose first element is another huge array, and so on) from adding up. One comparison and one
 * subtraction per length. Not thread-safe: one per read at a time ({@link #reset} starts the next). A reader
 * that is itself created per read may keep the count in a field of its own and use {@link #charge(long, int,
 * String)} instead, saving an object.
 */
public final class LengthBudget {

    private long left;

    /** A budget of {@code elements}. */
    public LengthBudget(long elements) {
        this.left = elements;
    }

    /**
     * Charges {@code length} elements of {@code what} and returns {@code length}.
     *
     * @throws ReadLimitException if {@code length} is negative or more than the budget has left
     */
    public int charge(int length, String what) {
        left = charge(left, length, what);
        return length;
    }

    /** Starts again with a budget of {@code elements}. */
    public void reset(long elements) {
        this.left = elements;
    }

    /**
     * Charges {@code length} elements of {@code what} to a budget that has {@code left}, and returns what is left.
     *
     * @throws ReadLimitException if {@code length} is negative or more than {@code left}
     */
    public static long charge(long left, int length, String what) {
        if (length < 0 || length > left) {
            throw new ReadLimitException(what + " of length " + length + " declared, with a budget of " + left
                    + " left for the rest of the body (expected: no more elements than the body has bytes)");
        }
        return left - length;
    }

    /** Elements still allowed. */
    public long left() {
        return left;
    }
}
