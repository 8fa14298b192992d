package vectors;

import io.jupiter.serialization.ClassAllowList;

/** What the vector tests share that is not a vector: the allow-list for the capture's model classes. */
public final class Vectors {

    private Vectors() {
    }

    /**
     * A strict allow-list trusting the vectors' model classes ({@code vectors.model}, the names 1.3.1's capture
     * wrote): they travel in {@code Object}-typed slots here, and no service interface is registered that would
     * make them trusted.
     */
    public static ClassAllowList allowList() {
        return ClassAllowList.create(ClassAllowList.Mode.STRICT).trustPackage("vectors.model");
    }
}
