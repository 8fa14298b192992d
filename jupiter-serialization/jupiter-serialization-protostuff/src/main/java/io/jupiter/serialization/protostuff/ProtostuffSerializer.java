package io.jupiter.serialization.protostuff;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.common.config.Setting;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.internal.ReadFailures;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.netty.buffer.ByteBuf;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;
import java.util.Objects;

/**
 * Protostuff (code 1, the default), producing and reading exactly Jupiter 1.3.1's bytes.
 *
 * <p>The value is written with the runtime schema of its class in protostuff's own format: protobuf wire types,
 * nested messages as groups, and no length prefix for the root, which ends with the body. Reading merges all
 * readable bytes into a new instance and checks that the last tag was 0. A {@code ResultWrapper} with a null result
 * is therefore an empty body. Bytes go straight to and from the buffer; no intermediate array is used.
 *
 * <p>As 1.3.1 did, the class sets two protostuff system properties before protostuff's {@code RuntimeEnv} loads,
 * unless they are already set:
 * <ul>
 *   <li>{@code protostuff.runtime.always_use_sun_reflection_factory} from
 *       {@code jupiter.serializer.protostuff.always_use_sun_reflection_factory} (default {@code true}: objects are
 *       created without running constructors);</li>
 *   <li>{@code protostuff.runtime.allow_null_array_element} from
 *       {@code jupiter.serializer.protostuff.allow_null_array_element} (default {@code false}).</li>
 * </ul>
 * With the default, <b>null array elements are compacted</b>, exactly as in 1.3.1: the array keeps its length but
 * the non-null elements move to the front, so {@code args = {"a", null, "c"}} arrives as {@code {"a", "c", null}}.
 * Setting the property to {@code true} keeps nulls in place but changes the wire format; both peers must agree.
 * If protostuff was loaded before this class, the properties have no effect.
 *
 * <p>Protostuff then starts without {@code sun.misc.Unsafe} (no warning on JDK 24 and later) where that gives the
 * same bytes: when the JVM opens the JDK packages whose private fields it writes (the {@code ProtostuffStart} class).
 *
 * <p>Values in {@code Object}-typed slots (arguments, results) carry their class name, so user POJOs, enums and
 * exceptions must exist under the same name on both sides. The one exception: 1.3.1's own exception classes
 * ({@code org.jupiter.rpc.exception.*}, sent with 0x40/0x44/0x51) are read as our classes of the same simple name in
 * {@code io.jupiter.serialization.wire.legacy}, and those are written under the 1.3.1 names
 * ({@link LegacyNameInput}, {@link ByteBufOutput}).
 *
 * <p>Reading charges every array length to a budget of the body's size before protostuff allocates the array
 * ({@link LegacyNameInput}), and nested messages may nest at most {@link ReadLimits#maxDepth()} deep; a breach
 * fails the read with {@link ReadLimitException}.
 */
public final class ProtostuffSerializer implements Serializer {

    static {
        copyProperty(JupiterSettings.PROTOSTUFF_SUN_REFLECTION_FACTORY,
                "protostuff.runtime.always_use_sun_reflection_factory");
        copyProperty(JupiterSettings.PROTOSTUFF_NULL_ARRAY_ELEMENTS, "protostuff.runtime.allow_null_array_element");
        ProtostuffStart.ensure();
    }

    private static void copyProperty(Setting<Boolean> setting, String protostuffKey) {
        if (System.getProperty(protostuffKey) == null) {
            System.setProperty(protostuffKey, Boolean.toString(setting.get()));
        }
    }

    /**
     * Protostuff's runtime schemas by class, found by identity: protostuff's own registry is a map keyed by class name,
     * looked up for every message read or written (a measurable share of a small call's time).
     */
    private static final ClassValue<Schema<?>> SCHEMAS = new ClassValue<>() {
        @Override
        protected Schema<?> computeValue(Class<?> type) {
            return RuntimeSchema.getSchema(type);
        }
    };

    private final ClassAllowList allowList;
    private final ReadLimits readLimits;

    /** With {@link ClassAllowList#global()}. */
    public ProtostuffSerializer() {
        this(ClassAllowList.global());
    }

    /** With {@code allowList} deciding which class names from the wire may be read. */
    public ProtostuffSerializer(ClassAllowList allowList) {
        this(allowList, ReadLimits.defaults());
    }

    /** With {@code allowList} deciding which class names from the wire may be read, and {@code limits}. */
    public ProtostuffSerializer(ClassAllowList allowList, ReadLimits limits) {
        this.allowList = Objects.requireNonNull(allowList, "allowList");
        this.readLimits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public Serializer with(ClassAllowList allowList, ReadLimits limits) {
        return new ProtostuffSerializer(allowList, limits);
    }

    @Override
    public SerializerType type() {
        return SerializerType.PROTOSTUFF;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void write(ByteBuf out, Object value) {
        if (value == null) {
            throw new SerializationException("protostuff: cannot write null (expected: an object)");
        }
        if (ResultWriter.writes(value)) {
            // A response is written without its schema's field iterator (ResultWriter).
            writeResult(out, ((ResultWrapper) value).getResult());
            return;
        }
        Schema<Object> schema = (Schema<Object>) schemaOf(value.getClass());
        int start = out.writerIndex();
        ByteBufOutput output = ByteBufOutput.of(out);
        try {
            schema.writeTo(output, value);
        } catch (Exception | StackOverflowError e) {
            out.writerIndex(start);
            throw new SerializationException("protostuff: cannot write " + value.getClass().getName() + ": " + e, e);
        } finally {
            output.done();
        }
    }

    /** The bytes of {@code new ResultWrapper(result)}, written without making the wrapper. */
    @Override
    public void writeResult(ByteBuf out, Object result) {
        if (!ResultWriter.ONE_FIELD) {
            write(out, new ResultWrapper(result));
            return;
        }
        int start = out.writerIndex();
        ByteBufOutput output = ByteBufOutput.of(out);
        try {
            ResultWriter.write(output, result);
        } catch (Exception | StackOverflowError e) {
            out.writerIndex(start);
            throw new SerializationException("protostuff: cannot write " + ResultWrapper.class.getName() + ": " + e,
                    e);
        } finally {
            output.done();
        }
    }

    @Override
    public <T> T read(ByteBuf in, Class<T> type) {
        return read(in, type, null);
    }

    /**
     * Reads the envelope (fields 1 to 3) first: the listener runs when the root reaches its field 4 ({@code args}),
     * and the arguments are then read against what it expects, their class names checked before protostuff
     * creates anything of them ({@link ArgumentReader}).
     */
    @Override
    public MessageWrapper readRequest(ByteBuf in, EnvelopeListener listener) {
        ArgumentReader arguments = ArgumentReader.of(new MessageWrapper(), Objects.requireNonNull(listener,
                "listener"));
        try {
            return arguments.checked(read(in, MessageWrapper.class, arguments));
        } finally {
            arguments.done();
        }
    }

    @Override
    public boolean readsEnvelopeFirst() {
        return true;
    }

    @SuppressWarnings("unchecked")
    private <T> T read(ByteBuf in, Class<T> type, ArgumentReader arguments) {
        Schema<T> schema = schemaOf(type);
        int readable = in.readableBytes();
        T message = arguments == null ? schema.newMessage() : (T) arguments.message();
        Thread thread = Thread.currentThread();
        ClassLoader contextLoader = thread.getContextClassLoader();
        if (contextLoader != null) {
            thread.setContextClassLoader(RememberingClassLoader.over(contextLoader));
        }
        LegacyNameInput input = null;
        try {
            input = LegacyNameInput.of(in, allowList, readLimits, arguments);
            schema.mergeFrom(input, message);
            input.checkLastTagWas(0);
            in.skipBytes(readable);
            return message;
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            if (ArgumentReader.stopped(e)) {
                in.skipBytes(readable);
                return message;
            }
            throw ReadFailures.of("protostuff", type, readable, e);
        } finally {
            if (input != null) {
                input.done();
            }
            if (contextLoader != null) {
                thread.setContextClassLoader(contextLoader);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Schema<T> schemaOf(Class<T> type) {
        try {
            return (Schema<T>) SCHEMAS.get(type);
        } catch (RuntimeException e) {
            throw new SerializationException("protostuff: no schema for " + type.getName() + ": " + e, e);
        }
    }
}
