package io.jupiter.serialization;

import io.jupiter.common.config.JupiterSettings;

/**
 * The limits a serializer applies while reading a body, so that a few hostile bytes cannot make it allocate
 * gigabytes or recurse until the stack overflows. A breach fails the read with {@link ReadLimitException}.
 *
 * <ul>
 *   <li><b>Lengths</b> (arrays, collections, maps, strings, byte and primitive arrays) are charged, before anything
 *       is allocated, against a budget of the body's own size in bytes ({@link LengthBudget}): every element takes
 *       at least one byte on the wire, so a valid body never declares more elements than it has bytes. Not
 *       configurable; legitimate messages up to the body cap are read as before. Java serialization gets
 *       {@link #JAVA_LENGTH_FACTOR} times the body (hash tables declare their capacity, not their size).</li>
 *   <li><b>Depth</b> of nested values: {@link #maxDepth()}.</li>
 *   <li><b>References</b> (objects a later back-reference may point at) in one Java or Hessian body:
 *       {@link #maxReferences()}.</li>
 * </ul>
 *
 * <p>An immutable value: each server and client has its own ({@code JupiterServer.Builder.readLimits},
 * {@code JupiterClient.Builder.readLimits}) and reads with serializers made for it
 * ({@link Serializer#with(ClassAllowList, ReadLimits)}), so two servers in one JVM can differ.
 */
public final class ReadLimits {

    /** System property for the default {@link #maxDepth()}. */
    public static final String MAX_DEPTH_PROPERTY = JupiterSettings.MAX_DEPTH.property();
    /** System property for the default {@link #maxReferences()}. */
    public static final String MAX_REFERENCES_PROPERTY = JupiterSettings.MAX_REFERENCES.property();
    /** Java serialization's length budget, in elements per body byte. */
    public static final int JAVA_LENGTH_FACTOR = 4;

    private final int maxDepth;
    private final int maxReferences;

    private ReadLimits(int maxDepth, int maxReferences) {
        this.maxDepth = JupiterSettings.MAX_DEPTH.check(maxDepth);
        this.maxReferences = JupiterSettings.MAX_REFERENCES.check(maxReferences);
    }

    /** The limits of the settings ({@link #MAX_DEPTH_PROPERTY}, {@link #MAX_REFERENCES_PROPERTY}), read now. */
    public static ReadLimits defaults() {
        return new ReadLimits(JupiterSettings.MAX_DEPTH.get(), JupiterSettings.MAX_REFERENCES.get());
    }

    /**
     * These limits.
     *
     * @throws IllegalArgumentException if either is not positive
     */
    public static ReadLimits of(int maxDepth, int maxReferences) {
        return new ReadLimits(maxDepth, maxReferences);
    }

    /** How deep values may nest in one body. */
    public int maxDepth() {
        return maxDepth;
    }

    /** How many objects one Java or Hessian body may register for back-references. */
    public int maxReferences() {
        return maxReferences;
    }

    /** The message of a body nested deeper than {@link #maxDepth()}. */
    public String tooDeep() {
        return "values nested deeper than " + maxDepth + " (maxDepth: readLimits on the server or client builder, "
                + "or -D" + MAX_DEPTH_PROPERTY + ")";
    }

    /** The message of a body with more than {@link #maxReferences()} references. */
    public String tooManyReferences() {
        return "more than " + maxReferences + " references (maxReferences: readLimits on the server or client "
                + "builder, or -D" + MAX_REFERENCES_PROPERTY + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadLimits other && other.maxDepth == maxDepth && other.maxReferences == maxReferences;
    }

    @Override
    public int hashCode() {
        return 31 * maxDepth + maxReferences;
    }

    @Override
    public String toString() {
        return "ReadLimits[maxDepth=" + maxDepth + ", maxReferences=" + maxReferences + "]";
    }
}
