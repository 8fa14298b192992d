package io.jupiter.serialization.java;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.internal.LimitingInputFilter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Objects;

/**
 * JDK serialization (code 4), byte-compatible with Jupiter 1.3.1.
 *
 * <p>Like 1.3.1, every body is a complete serialization stream of its own ({@code ac ed 00 05} first). Our
 * {@code MessageWrapper}, {@code ServiceMetadata} and {@code ResultWrapper} carry 1.3.1's serialVersionUIDs and
 * field names; their class descriptors are written under the names {@code org.jupiter.rpc.model.metadata.*} (also
 * inside field type signatures) and those names are read back as our classes, so re-encoding a decoded 1.3.1 body
 * gives the same bytes.
 *
 * <p>Reading deserializes classes named by the peer, so every class name in the stream (classes, superclasses,
 * array types, proxy interfaces) is checked against a {@link ClassAllowList} before the class is loaded; a refused
 * one fails the read with {@link ClassNotTrustedException}. On top of that every stream gets an
 * {@link ObjectInputFilter} (which the JDK consults after loading a class): the one given to the constructor, or
 * {@link #DEFAULT_FILTER}. Before that filter, each stream applies the {@link ReadLimits} (a
 * {@link LimitingInputFilter}): array and table lengths against the body's size, depth, references and bytes; a
 * breach fails the read with {@link ReadLimitException}. Providers refuse this serializer unless it is enabled.
 * The JDK needs a fresh object stream per message (its
 * handle table must start empty), so each call allocates one; bytes still go straight to and from the
 * {@code ByteBuf}.
 */
public final class JavaSerializer implements Serializer {

    /**
     * The default filter: the JVM-wide filter ({@code jdk.serialFilter}) if one is configured, otherwise undecided.
     * Which classes may be read is the allow-list's job, checked before loading.
     */
    public static final ObjectInputFilter DEFAULT_FILTER = info -> {
        ObjectInputFilter global = ObjectInputFilter.Config.getSerialFilter();
        return global == null ? ObjectInputFilter.Status.UNDECIDED : global.checkInput(info);
    };

    private final ObjectInputFilter filter;
    private final ClassAllowList allowList;
    private final ReadLimits readLimits;
    private final ClassLoader loader = JavaSerializer.class.getClassLoader();

    /** With {@link ClassAllowList#global()} and {@link #DEFAULT_FILTER}. */
    public JavaSerializer() {
        this(ClassAllowList.global(), DEFAULT_FILTER);
    }

    /** With {@link ClassAllowList#global()} and {@code filter} applied to every class, array and reference read. */
    public JavaSerializer(ObjectInputFilter filter) {
        this(ClassAllowList.global(), filter);
    }

    /** With {@code allowList} deciding which class names may be read, and {@link #DEFAULT_FILTER}. */
    public JavaSerializer(ClassAllowList allowList) {
        this(allowList, DEFAULT_FILTER);
    }

    /** With {@code allowList} deciding which class names may be read, and {@code filter} on top. */
    public JavaSerializer(ClassAllowList allowList, ObjectInputFilter filter) {
        this(allowList, ReadLimits.defaults(), filter);
    }

    /**
     * With {@code allowList} deciding which class names may be read, {@code limits} on every stream, and
     * {@code filter} on top.
     */
    public JavaSerializer(ClassAllowList allowList, ReadLimits limits, ObjectInputFilter filter) {
        this.allowList = Objects.requireNonNull(allowList, "allowList");
        this.readLimits = Objects.requireNonNull(limits, "limits");
        this.filter = Objects.requireNonNull(filter, "filter");
    }

    @Override
    public Serializer with(ClassAllowList allowList, ReadLimits limits) {
        return new JavaSerializer(allowList, limits, filter);
    }

    @Override
    public SerializerType type() {
        return SerializerType.JAVA;
    }

    @Override
    public void write(ByteBuf out, Object value) {
        int start = out.writerIndex();
        try (ObjectOutputStream output = new LegacyObjectOutputStream(new ByteBufOutputStream(out))) {
            output.writeObject(value);
            output.flush();
        } catch (Exception | StackOverflowError e) {
            out.writerIndex(start);
            throw new SerializationException("java: cannot write "
                    + (value == null ? "null" : value.getClass().getName()) + ": " + e, e);
        }
    }

    @Override
    public <T> T read(ByteBuf in, Class<T> type) {
        int readable = in.readableBytes();
        Object value;
        LimitingInputFilter limits = new LimitingInputFilter(readable, readLimits, filter);
        try (ObjectInputStream input = new LegacyObjectInputStream(new ByteBufInputStream(in), limits, allowList,
                loader)) {
            value = input.readObject();
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            ClassNotTrustedException refused = ClassNotTrustedException.findIn(e);
            if (refused != null) {
                throw refused.reading(type);
            }
            if (limits.breach() != null) {
                throw limits.breach().reading("java", type);
            }
            if (e instanceof VirtualMachineError) {
                throw ReadLimitException.exhausted("java", type, (VirtualMachineError) e);
            }
            throw new SerializationException("java: cannot read " + type.getName() + " from " + readable
                    + " bytes: " + e, e);
        } finally {
            in.skipBytes(in.readableBytes());
        }
        if (value != null && !type.isInstance(value)) {
            throw new SerializationException("java: cannot read " + type.getName() + ": found "
                    + value.getClass().getName());
        }
        return type.cast(value);
    }
}
