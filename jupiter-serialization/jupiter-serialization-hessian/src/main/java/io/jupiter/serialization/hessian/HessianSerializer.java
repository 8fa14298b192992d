package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.internal.ReadFailures;
import io.jupiter.serialization.wire.MessageWrapper;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.Objects;

/**
 * Hessian 2 (code 2), compatible with Jupiter 1.3.1.
 *
 * <p>As in 1.3.1 the body is one {@code Hessian2Output.writeObject} without call/reply envelope. Hessian puts class
 * names on the wire, so our {@code MessageWrapper}, {@code ServiceMetadata} and {@code ResultWrapper} are written as
 * {@code org.jupiter.rpc.model.metadata.*} with 1.3.1's field order, and read back from those names or our own.
 * Re-encoding a decoded 1.3.1 body therefore gives the same bytes. Classes must be {@code Serializable}; a class name
 * that cannot be loaded fails the read.
 *
 * <p>Each thread keeps one {@code Hessian2Output} and one {@code Hessian2Input} (ours, bounded; with their buffers),
 * re-initialised per call; they write to and read from the {@code ByteBuf} directly.
 *
 * <p>Hessian 4.0.38 (1.3.1's) and 4.0.66 (ours) differ; this serializer keeps 4.0.38's wire where it matters:
 * {@code Byte} and {@code Short} are written as ints and {@code Float} as a double (all three arrive as
 * {@code Integer}/{@code Double}, as in 1.3.1). {@code BigDecimal} is written in 4.0.66's string form, which keeps
 * the value (4.0.38 wrote its fields and lost any value whose unscaled part fits in a long: 12345.6789 arrived as
 * 0.0000); both forms are read. A 1.3.1 peer cannot read our {@code BigDecimal} correctly either way.
 *
 * <p>Every class name read from the wire is checked against a {@link ClassAllowList} before Hessian loads the class;
 * a refused one fails the read with {@link ClassNotTrustedException}.
 *
 * <p>Reading applies the {@link ReadLimits} ({@link BoundedHessianInput}): list and array lengths and field counts
 * charged to a budget of the body's size before allocation, depth and references; a breach fails the read with
 * {@link ReadLimitException}.
 */
public final class HessianSerializer implements Serializer {

    static {
        HessianStart.ensure(); // before any Hessian class initialises
    }

    private final ReadLimits readLimits;
    private final SerializerFactory factory;
    private final FastThreadLocal<State> state = new FastThreadLocal<>() {
        @Override
        protected State initialValue() {
            return new State(factory);
        }
    };

    /** With {@link ClassAllowList#global()}. */
    public HessianSerializer() {
        this(ClassAllowList.global());
    }

    /** With {@code allowList} deciding which class names from the wire may be read. */
    public HessianSerializer(ClassAllowList allowList) {
        this(allowList, ReadLimits.defaults());
    }

    /** With {@code allowList} deciding which class names from the wire may be read, and {@code limits}. */
    public HessianSerializer(ClassAllowList allowList, ReadLimits limits) {
        this.readLimits = Objects.requireNonNull(limits, "limits");
        this.factory = new LegacyNameSerializerFactory(HessianSerializer.class.getClassLoader(),
                Objects.requireNonNull(allowList, "allowList"));
    }

    @Override
    public Serializer with(ClassAllowList allowList, ReadLimits limits) {
        return new HessianSerializer(allowList, limits);
    }

    @Override
    public SerializerType type() {
        return SerializerType.HESSIAN;
    }

    @Override
    public void write(ByteBuf out, Object value) {
        State s = state.get();
        Hessian2Output output = s.output;
        int start = out.writerIndex();
        s.sink.buf = out;
        try {
            output.init(s.sink);
            output.writeObject(value);
            output.flush();
        } catch (Exception | StackOverflowError e) {
            out.writerIndex(start);
            throw new SerializationException("hessian: cannot write " + typeName(value) + ": " + e, e);
        } finally {
            s.sink.buf = null;
        }
    }

    @Override
    public <T> T read(ByteBuf in, Class<T> type) {
        return read(in, type, null);
    }

    /**
     * Reads the envelope first: 1.3.1's class definition lists {@code appName, methodName, metadata} before
     * {@code args}, so the listener runs before any argument is read, and each argument's class name is checked
     * against its parameter's type before anything of it is created ({@link RequestRead}).
     */
    @Override
    public MessageWrapper readRequest(ByteBuf in, EnvelopeListener listener) {
        RequestRead request = new RequestRead(listener);
        return request.checked(read(in, MessageWrapper.class, request));
    }

    @Override
    public boolean readsEnvelopeFirst() {
        return true;
    }

    private <T> T read(ByteBuf in, Class<T> type, RequestRead request) {
        State s = state.get();
        BoundedHessianInput input = s.input;
        int readable = in.readableBytes();
        s.source.buf = in;
        Object value;
        try {
            input.init(s.source);
            input.limits(readable, readLimits);
            input.request(request);
            value = input.readObject(type);
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            s.input = State.newInput(factory); // its buffer and chunk state may be inconsistent now
            throw ReadFailures.of("hessian", type, readable, e);
        } finally {
            s.source.buf = null;
            input.done();
        }
        try {
            input.resetBuffer();
        } catch (IllegalStateException trailingBytes) {
            // Bytes after the object are ignored, as 1.3.1 did; resetBuffer() has dropped them.
        }
        in.skipBytes(in.readableBytes());
        if (value != null && !type.isInstance(value)) {
            throw new SerializationException("hessian: cannot read " + type.getName() + ": found "
                    + value.getClass().getName());
        }
        return type.cast(value);
    }

    private static String typeName(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    /** One thread's reusable streams. */
    private static final class State {
        final ByteBufStreams.Sink sink = new ByteBufStreams.Sink();
        final ByteBufStreams.Source source = new ByteBufStreams.Source();
        final Hessian2Output output;
        BoundedHessianInput input;

        State(SerializerFactory factory) {
            output = new Hessian2Output(null);
            output.setSerializerFactory(factory);
            input = newInput(factory);
        }

        static BoundedHessianInput newInput(SerializerFactory factory) {
            BoundedHessianInput input = new BoundedHessianInput();
            input.setSerializerFactory(factory);
            return input;
        }
    }
}
