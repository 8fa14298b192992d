package io.jupiter.serialization.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.util.MapReferenceResolver;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * Kryo 5 (code 3).
 *
 * <p><b>Not byte-compatible with Jupiter 1.3.1</b>, which used Kryo 2.23 (with fixed-width ints and its own class
 * naming); a 1.3.1 peer cannot read these bodies and 1.3.1's kryo bodies cannot be read here. Use protostuff,
 * hessian or java to talk to 1.3.1.
 *
 * <p>Each thread has its own {@link Kryo}, configured as 1.3.1 configured Kryo 2: references off (no cyclic
 * graphs), objects created by their no-arg constructor if they have one and by Objenesis otherwise, throwables
 * written with Java serialization (length-prefixed, read through the allow-list: {@link ThrowableSerializer}). Our
 * body classes and common JDK types are registered with fixed ids ({@link #REGISTERED}; append only, never reorder).
 * Other classes travel by name, and every name read from the wire must pass the {@link ClassAllowList} before it is
 * loaded ({@link ResolvingClassResolver}): the allow-list plays the part of Kryo's "registration required", without
 * both peers having to register the same classes in the same order.
 * Output goes through the thread's 4 KiB Kryo buffer into the {@code ByteBuf}; input is read from a
 * {@code ByteBuffer} view of the {@code ByteBuf}.
 *
 * <p>Reading applies the {@link ReadLimits}: every length (strings, byte and primitive arrays, object arrays,
 * collections, maps) is charged to a budget of the body's size before anything of that length is allocated
 * ({@link BoundedInput}, {@link BoundedSerializers}), Kryo's maximum depth is set, and throwables' JDK streams get
 * the same limits as the java serializer. A breach fails the read with {@link ReadLimitException}.
 */
public final class KryoSerializer implements Serializer {

    static {
        KryoStart.withoutUnsafe(); // before any other Kryo class initialises
    }

    /** The first id of {@link #REGISTERED}; lower ids are Kryo's own (primitives and {@code String}). */
    static final int FIRST_ID = 20;

    /** Classes registered with ids {@code FIRST_ID}, {@code FIRST_ID + 1}, ... in this order. */
    static final List<Class<?>> REGISTERED = List.of(
            MessageWrapper.class, ServiceMetadata.class, ResultWrapper.class,
            Object[].class, String[].class, byte[].class, int[].class, long[].class, short[].class, char[].class,
            boolean[].class, float[].class, double[].class,
            ArrayList.class, LinkedList.class, HashMap.class, LinkedHashMap.class, TreeMap.class,
            HashSet.class, LinkedHashSet.class, TreeSet.class, ConcurrentHashMap.class,
            BigDecimal.class, BigInteger.class, Date.class,
            Collections.emptyList().getClass(), Collections.emptySet().getClass(),
            Collections.emptyMap().getClass(), Collections.singletonList(null).getClass(),
            Collections.singleton(null).getClass(), Collections.singletonMap(null, null).getClass());

    /** How Kryo's {@code KryoException} for {@link Kryo#setMaxDepth} begins. */
    private static final String MAX_DEPTH_MESSAGE = "Max depth exceeded";
    private static final int BUFFER_SIZE = 4096;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final ClassAllowList allowList;
    private final ReadLimits readLimits;
    private final FastThreadLocal<State> state = new FastThreadLocal<>() {
        @Override
        protected State initialValue() {
            return new State(allowList, readLimits);
        }
    };

    /** With {@link ClassAllowList#global()}. */
    public KryoSerializer() {
        this(ClassAllowList.global());
    }

    /** With {@code allowList} deciding which class names from the wire may be read. */
    public KryoSerializer(ClassAllowList allowList) {
        this(allowList, ReadLimits.defaults());
    }

    /** With {@code allowList} deciding which class names from the wire may be read, and {@code limits}. */
    public KryoSerializer(ClassAllowList allowList, ReadLimits limits) {
        this.allowList = Objects.requireNonNull(allowList, "allowList");
        this.readLimits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public Serializer with(ClassAllowList allowList, ReadLimits limits) {
        return new KryoSerializer(allowList, limits);
    }

    @Override
    public SerializerType type() {
        return SerializerType.KRYO;
    }

    @Override
    public void write(ByteBuf out, Object value) {
        if (value == null) {
            throw new SerializationException("kryo: cannot write null (expected: an object)");
        }
        State s = state.get();
        int start = out.writerIndex();
        s.sink.buf = out;
        try {
            s.output.setOutputStream(s.sink);
            s.kryo.writeObject(s.output, value);
            s.output.flush();
        } catch (Exception | StackOverflowError e) {
            out.writerIndex(start);
            s.kryo.reset();
            throw new SerializationException("kryo: cannot write " + value.getClass().getName() + ": " + e, e);
        } finally {
            s.output.setOutputStream(null);
            s.sink.buf = null;
        }
    }

    @Override
    public <T> T read(ByteBuf in, Class<T> type) {
        State s = state.get();
        int readable = in.readableBytes();
        ByteBuffer nio;
        if (in.nioBufferCount() == 1) {
            nio = in.nioBuffer(in.readerIndex(), readable);
        } else {
            byte[] copy = new byte[readable];
            in.getBytes(in.readerIndex(), copy);
            nio = ByteBuffer.wrap(copy);
        }
        try {
            s.input.setBuffer(nio);
            T value = s.kryo.readObject(s.input, type);
            in.skipBytes(readable);
            return value;
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            s.kryo.reset();
            ClassNotTrustedException refused = ClassNotTrustedException.findIn(e);
            if (refused != null) {
                throw refused.reading(type);
            }
            ReadLimitException breach = ReadLimitException.findIn(e);
            if (breach == null && e instanceof KryoException && e.getMessage() != null
                    && e.getMessage().startsWith(MAX_DEPTH_MESSAGE)) {
                breach = new ReadLimitException(readLimits.tooDeep());
            }
            if (breach != null) {
                throw breach.reading("kryo", type);
            }
            if (e instanceof VirtualMachineError) {
                throw ReadLimitException.exhausted("kryo", type, (VirtualMachineError) e);
            }
            throw new SerializationException("kryo: cannot read " + type.getName() + " from " + readable
                    + " bytes: " + e, e);
        } finally {
            s.input.setBuffer(EMPTY);
        }
    }

    /** A new {@link Kryo} configured as described in the class comment. */
    static Kryo newKryo(ClassAllowList allowList, ReadLimits limits) {
        Kryo kryo = new Kryo(new ResolvingClassResolver(allowList), new MapReferenceResolver()) {
            @Override
            @SuppressWarnings("rawtypes")
            // fully-qualified: Kryo's Serializer; the imported Serializer is Jupiter's
            public com.esotericsoftware.kryo.Serializer getDefaultSerializer(Class type) {
                return BoundedSerializers.bounded(this, type, super.getDefaultSerializer(type));
            }
        };
        kryo.setMaxDepth(limits.maxDepth());
        kryo.setReferences(false);
        kryo.setRegistrationRequired(false);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        kryo.addDefaultSerializer(Throwable.class, new ThrowableSerializer(allowList, limits));
        kryo.setClassLoader(KryoSerializer.class.getClassLoader());
        int id = FIRST_ID;
        for (Class<?> type : REGISTERED) {
            kryo.register(type, id++);
        }
        return kryo;
    }

    /** One thread's Kryo and streams. */
    private static final class State {
        final Kryo kryo;
        final Sink sink = new Sink();
        final Output output = new Output(BUFFER_SIZE, -1);
        final BoundedInput input = new BoundedInput(EMPTY);

        State(ClassAllowList allowList, ReadLimits limits) {
            kryo = newKryo(allowList, limits);
        }
    }

    /** Appends to the buffer of the current call. */
    private static final class Sink extends OutputStream {
        ByteBuf buf;

        @Override
        public void write(int b) {
            buf.writeByte(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            buf.writeBytes(b, off, len);
        }
    }
}
