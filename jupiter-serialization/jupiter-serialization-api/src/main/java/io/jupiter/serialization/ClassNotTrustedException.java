package io.jupiter.serialization;

/**
 * A serializer met a class name from the wire that the {@link ClassAllowList} does not trust, and refused it before
 * loading the class. The message names the class and says how to trust it.
 */
public final class ClassNotTrustedException extends SerializationException {

    private static final long serialVersionUID = 1L;

    private final String serializer;
    private final String className;

    public ClassNotTrustedException(String serializer, String className) {
        this(serializer, className, serializer + ": " + detail(className), null);
    }

    private ClassNotTrustedException(String serializer, String className, String message, Throwable cause) {
        super(message, cause);
        this.serializer = serializer;
        this.className = className;
    }

    /** The same refusal, with a message that also says what was being read. */
    public ClassNotTrustedException reading(Class<?> type) {
        return new ClassNotTrustedException(serializer, className, serializer + ": cannot read " + type.getName()
                + ": " + detail(className), this);
    }

    private static String detail(String className) {
        return "class '" + className + "' is not trusted for deserialization; if it is yours, trust it with"
                + " ClassAllowList.global().trust(" + simpleName(className) + ".class) or trustPackage(\""
                + packageName(className) + "\") on both sides (or run with -D" + ClassAllowList.MODE_PROPERTY
                + "=warn to only log)";
    }

    /** The refused class name, as read from the wire. */
    public String className() {
        return className;
    }

    /** The first {@code ClassNotTrustedException} in {@code t}'s cause chain, or {@code null}. */
    public static ClassNotTrustedException findIn(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof ClassNotTrustedException) {
                return (ClassNotTrustedException) t;
            }
        }
        return null;
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    private static String packageName(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }
}
