package io.jupiter.serialization;

import io.jupiter.common.SystemProperties;

/**
 * The limits every serializer applies while reading a body, so that a few hostile bytes cannot make it allocate
 * gigabytes or recurse until the stack overflows. A breach fails the read with {@link ReadLimitException}.
 *
 * <ul>
 *   <li><b>Lengths</b> (arrays, collections, maps, strings, byte and primitive arrays) are charged, before anything
 *       is allocated, against a budget of the body's own size in bytes ({@link LengthBudget}): every element takes
 *       at least one byte on the wire, so a valid body never declares more elements than it has bytes. Not
 *       configurable; legitimate messages up to the body cap are read as before. Java serialization gets
 *       {@link #JAVA_LENGTH_FACTOR} times the body (hash tables declare their capacity, not their size).</li>
 *   <li><b>Depth</b> of nested values: {@value #DEFAULT_MAX_DEPTH} by default,
 *       {@code -D}{@value #MAX_DEPTH_PROPERTY}.</li>
 *   <li><b>References</b> (objects a later back-reference may point at) in one Java or Hessian body:
 *       {@value #DEFAULT_MAX_REFERENCES} by default, {@code -D}{@value #MAX_REFERENCES_PROPERTY}.</li>
 * </ul>
 * The properties are read once, when this class loads.
 */
public final class ReadLimits {

    /** System property for {@link #maxDepth()}. */
    public static final String MAX_DEPTH_PROPERTY = "jupiter.serialization.maxDepth";
    /** System property for {@link #maxReferences()}. */
    public static final String MAX_REFERENCES_PROPERTY = "jupiter.serialization.maxReferences";
    /** Default nesting depth: far above any RPC argument, far below what overflows a 512 KiB thread stack. */
    public static final int DEFAULT_MAX_DEPTH = 100;
    /** Default number of references in one body. */
    public static final int DEFAULT_MAX_REFERENCES = 1_000_000;
    /** Java serialization's length budget, in elements per body byte. */
    public static final int JAVA_LENGTH_FACTOR = 4;

    private static final int MAX_DEPTH = positive(MAX_DEPTH_PROPERTY, DEFAULT_MAX_DEPTH);
    private static final int MAX_REFERENCES = positive(MAX_REFERENCES_PROPERTY, DEFAULT_MAX_REFERENCES);

    private ReadLimits() {
    }

    /** How deep values may nest in one body. */
    public static int maxDepth() {
        return MAX_DEPTH;
    }

    /** How many objects one Java or Hessian body may register for back-references. */
    public static int maxReferences() {
        return MAX_REFERENCES;
    }

    private static int positive(String key, int defaultValue) {
        int value = SystemProperties.getInt(key, defaultValue);
        if (value <= 0) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: > 0)");
        }
        return value;
    }
}
