package io.jupiter.serialization;

import io.jupiter.common.config.JupiterSettings;

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
 *   <li><b>Depth</b> of nested values: {@link JupiterSettings#MAX_DEPTH}.</li>
 *   <li><b>References</b> (objects a later back-reference may point at) in one Java or Hessian body:
 *       {@link JupiterSettings#MAX_REFERENCES}.</li>
 * </ul>
 * The properties are read once, when this class loads.
 */
public final class ReadLimits {

    /** System property for {@link #maxDepth()}. */
    public static final String MAX_DEPTH_PROPERTY = JupiterSettings.MAX_DEPTH.property();
    /** System property for {@link #maxReferences()}. */
    public static final String MAX_REFERENCES_PROPERTY = JupiterSettings.MAX_REFERENCES.property();
    /** Default nesting depth: far above any RPC argument, far below what overflows a 512 KiB thread stack. */
    public static final int DEFAULT_MAX_DEPTH = JupiterSettings.MAX_DEPTH.defaultValue();
    /** Default number of references in one body. */
    public static final int DEFAULT_MAX_REFERENCES = JupiterSettings.MAX_REFERENCES.defaultValue();
    /** Java serialization's length budget, in elements per body byte. */
    public static final int JAVA_LENGTH_FACTOR = 4;

    private static final int MAX_DEPTH = JupiterSettings.MAX_DEPTH.get();
    private static final int MAX_REFERENCES = JupiterSettings.MAX_REFERENCES.get();

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
}
