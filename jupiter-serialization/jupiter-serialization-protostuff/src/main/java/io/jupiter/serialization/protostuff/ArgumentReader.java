package io.jupiter.serialization.protostuff;

import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.internal.EnvelopeRead;
import io.jupiter.serialization.wire.MessageWrapper;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Follows a request body as {@link LegacyNameInput} reads it, to read the envelope before the arguments and the
 * arguments against what the called method declares.
 *
 * <p>A {@code MessageWrapper} body is its fields in number order: 1 appName, 2 metadata, 3 methodName, 4 args,
 * 5 attachments. When the root reads field 4, 5 or its end, the envelope is complete and the
 * {@link EnvelopeListener} is asked for the {@link ArgumentTypes}; {@code null} stops the read there
 * ({@link #STOP}). The {@code args} array is a polymorphic value: its wrapper is merged one level down (component
 * class name under field 15, length under 3, dimensions under 2), and each element one level further, where the
 * element's first field says its kind. The length is checked against the method's parameter count, and the class
 * an element names (a POJO, enum, throwable, collection, map, or the component of an array) is loaded without
 * initialisation and checked against the parameter type at its position, before protostuff creates anything of
 * it. Values without a class name (strings, numbers, dates, scalar arrays) are checked once read
 * ({@link ArgumentTypes#checkValues}).
 *
 * <p>The root's fields 1 to 4 may each come once, and fields 1 to 3 only before the listener is asked: the
 * listener authorizes the service and method it is given, so a second name, or one after it, would be a method
 * that was never authorized ({@link EnvelopeException}).
 *
 * <p>An element's position is counted from the elements on the wire, which is where protostuff puts it with its
 * default {@code allow_null_array_element=false} (nulls are not written and the rest move up). With that property
 * set, nulls are written as markers between the elements, so positions are not counted and class names are not
 * checked before the values; the values are still checked once read.
 *
 * <p>A reader lives for one read ({@link #of} to {@link #done}, both in {@link ProtostuffSerializer#readRequest}):
 * nothing keeps it past that but its thread, whose own reader is reused for the thread's next read.
 */
final class ArgumentReader extends EnvelopeRead {

    /** Ends a read the listener stopped; carries nothing, costs nothing to throw. */
    static final RuntimeException STOP = new RuntimeException("stop reading", null, false, false) {
        private static final long serialVersionUID = 1L;
    };

    /** Whether {@code t} is, or was caused by, {@link #STOP}. */
    static boolean stopped(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t == STOP) {
                return true;
            }
        }
        return false;
    }

    /** Whether protostuff writes null array elements (set by {@link ProtostuffSerializer} before this loads). */
    private static final boolean NULLS_WRITTEN = Boolean.getBoolean("protostuff.runtime.allow_null_array_element");

    private static final int METHOD_NAME = 3;
    private static final int ARGS = 4;
    private static final int ATTACHMENTS = 5;
    /** Where the {@code args} wrapper's fields are read, and where each element's are. */
    private static final int WRAPPER_DEPTH = 1;
    private static final int ELEMENT_DEPTH = 2;

    private static final int ENVELOPE = 0;
    private static final int HEADER = 1;
    private static final int ELEMENTS = 2;
    private static final int DONE = 3;

    /** Classes of names already checked by the allow-list; bounded, so names from the wire cannot fill it. */
    private static final ConcurrentHashMap<String, Class<?>> CLASSES = new ConcurrentHashMap<>();
    private static final int MAX_CLASSES = 4096;

    /** The listener of a thread's own reader until its first read. */
    private static final EnvelopeListener NO_LISTENER = (appName, service, methodName) -> null;
    /**
     * Each Jupiter thread's own reader, restarted for every read rather than made anew: a read on such a thread
     * allocates none unless one read starts inside another ({@link #inUse}; a listener may read another body).
     */
    private static final FastThreadLocal<ArgumentReader> OWN = new FastThreadLocal<>() {
        @Override
        protected ArgumentReader initialValue() {
            return new ArgumentReader();
        }
    };

    /** Whether this is a thread's own reader ({@link #OWN}). */
    private final boolean own;
    /** Whether a thread's own reader is reading now ({@link #of} to {@link #done}). */
    private boolean inUse;
    // Not final, nor the listener: a thread's own reader is restarted for each read.
    private MessageWrapper message;
    private int state = ENVELOPE;
    /** The root's fields 1 to 4 read so far, one bit each. */
    private int rootFieldsSeen;
    private int count = -1;
    private int index = -1;
    /** The next field read is an element's first (its kind). */
    private boolean elementStarts;
    /** The element's kind is followed by a class name, which is checked. */
    private boolean nameExpected;
    /** The component class of an array element, checked once its dimensions are read. */
    private Class<?> arrayComponent;

    private ArgumentReader(MessageWrapper message, EnvelopeListener listener) {
        super(listener);
        this.message = message;
        this.own = false;
    }

    /** A thread's own reader, restarted with a listener before every read. */
    private ArgumentReader() {
        super(NO_LISTENER);
        this.own = true;
    }

    /**
     * A reader of one request body into {@code message}, as {@code new ArgumentReader(...)} would: this thread's own
     * one on a Jupiter thread when it is free. Hand it back with {@link #done} once the read is over.
     */
    static ArgumentReader of(MessageWrapper message, EnvelopeListener listener) {
        if (!(Thread.currentThread() instanceof FastThreadLocalThread)) {
            return new ArgumentReader(message, listener);
        }
        ArgumentReader reader = OWN.get();
        if (reader.inUse) {
            return new ArgumentReader(message, listener); // a read inside a read
        }
        reader.inUse = true;
        reader.restart(listener);
        reader.message = message;
        reader.state = ENVELOPE;
        reader.rootFieldsSeen = 0;
        reader.count = -1;
        reader.index = -1;
        reader.elementStarts = false;
        reader.nameExpected = false;
        reader.arrayComponent = null;
        return reader;
    }

    /** The read is over: a thread's own reader lets go of the message and the listener and is free again. */
    void done() {
        if (own) {
            restart(null);
            message = null;
            arrayComponent = null;
            inUse = false;
        }
    }

    /** The message the body is read into. */
    MessageWrapper message() {
        return message;
    }

    void fieldRead(int depth, int field) {
        if (depth == 0) {
            checkOnce(field);
            if (state == ENVELOPE && (field == ARGS || field == ATTACHMENTS || field == 0)) {
                ArgumentTypes types = envelopeRead(message.getAppName(), message.getMetadata(),
                        message.getMethodName());
                if (types == null) {
                    throw STOP;
                }
                state = field == ARGS && !types.isAny() ? HEADER : DONE;
            } else if (state != ENVELOPE) {
                state = DONE;
            }
        } else if (elementStarts && depth == ELEMENT_DEPTH) {
            elementStarts = false;
            nameExpected = true;
        }
    }

    private void checkOnce(int field) {
        if (field < 1 || field > ARGS) {
            return;
        }
        int bit = 1 << field;
        if ((rootFieldsSeen & bit) != 0) {
            throw new EnvelopeException("protostuff: the request names its field " + field + " ("
                    + FIELD_NAMES[field] + ") twice (expected: once)");
        }
        if (field <= METHOD_NAME && state != ENVELOPE) {
            throw new EnvelopeException("protostuff: the request's field " + field + " (" + FIELD_NAMES[field]
                    + ") comes after its arguments or attachments (expected: before them)");
        }
        rootFieldsSeen |= bit;
    }

    private static final String[] FIELD_NAMES = {"", "appName", "metadata", "methodName", "args"};

    void valueStarts(int parentDepth) {
        if (state == ELEMENTS && parentDepth == WRAPPER_DEPTH && !NULLS_WRITTEN) {
            index++;
            elementStarts = true;
            nameExpected = false;
            arrayComponent = null;
        }
    }

    void classNamed(int depth, int field, String className) {
        if (!nameExpected || depth != ELEMENT_DEPTH || state != ELEMENTS) {
            return;
        }
        nameExpected = false;
        Class<?> type = load(className);
        if (type == null) {
            return; // protostuff fails on it in a moment
        }
        if (field == 15 || field == 17) {
            arrayComponent = type;
        } else if (index < count) {
            types().checkClass(count, index, type);
        }
    }

    void arrayLength(int depth, int length) {
        if (state == HEADER && depth == WRAPPER_DEPTH) {
            types().checkCount(length);
            count = length;
            state = ELEMENTS;
        }
    }

    void arrayDimensions(int depth, int dimensions) {
        if (arrayComponent != null && depth == ELEMENT_DEPTH && state == ELEMENTS && index < count) {
            Class<?> array = arrayComponent;
            for (int i = 0; i < dimensions; i++) {
                array = array.arrayType();
            }
            arrayComponent = null;
            types().checkClass(count, index, array);
        }
    }

    private static Class<?> load(String className) {
        Class<?> known = CLASSES.get(className);
        if (known != null) {
            return known;
        }
        Class<?> type = primitive(className);
        try {
            type = type != null ? type : Class.forName(className, false, ArgumentReader.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        if (CLASSES.size() < MAX_CLASSES) {
            CLASSES.put(className, type);
        }
        return type;
    }

    /** Protostuff names the component type of arrays of arrays of primitives by the primitive's name. */
    private static Class<?> primitive(String name) {
        switch (name) {
            case "boolean": return boolean.class;
            case "byte": return byte.class;
            case "char": return char.class;
            case "short": return short.class;
            case "int": return int.class;
            case "long": return long.class;
            case "float": return float.class;
            case "double": return double.class;
            default: return null;
        }
    }
}
