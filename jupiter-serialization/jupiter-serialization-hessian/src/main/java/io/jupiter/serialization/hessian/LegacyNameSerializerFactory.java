package io.jupiter.serialization.hessian;

import com.caucho.hessian.HessianUnshared;
import com.caucho.hessian.io.CollectionSerializer;
import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.HessianProtocolException;
import com.caucho.hessian.io.MapSerializer;
import com.caucho.hessian.io.Serializer;
import com.caucho.hessian.io.SerializerFactory;
import io.jupiter.common.LogText;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import java.io.InputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A Hessian {@link SerializerFactory} that writes our body classes and our wire forms of 1.3.1's exceptions
 * ({@code io.jupiter.serialization.wire.legacy}) under Jupiter 1.3.1's names and maps those names
 * (and our own) back to our classes when reading. {@code Byte}, {@code Short} and {@code Float} are written as Hessian
 * 4.0.38 (Jupiter 1.3.1) wrote them, and {@code BigDecimal} is read in both 4.0.38's and 4.0.66's forms; see
 * {@link CompatSerializers}.
 *
 * <p>A class name on the wire that cannot be loaded is an error here, where stock Hessian would log a warning and
 * decode the object as a {@code HashMap}. {@link #getDeserializer(String)} is the one place class names from the
 * wire are resolved (Hessian's object definitions, typed maps and lists, and array element types all come here),
 * so that is where each name is checked against the {@link ClassAllowList}, before Hessian loads the class.
 *
 * <p>Every deserializer it hands out is a {@link BoundedDeserializer}, which charges list lengths and field counts
 * to the body's budget before allocating.
 *
 * <p>Classes Hessian would write field by field are written and read without {@code sun.misc.Unsafe}, with Hessian's
 * bytes ({@link #getDefaultSerializer}, {@link #getDefaultDeserializer}).
 */
final class LegacyNameSerializerFactory extends SerializerFactory {

    private static final String BIG_DECIMAL = "java.math.BigDecimal";
    private static final String STACK_TRACE_ELEMENT = "java.lang.StackTraceElement";

    /** Hessian's own short type names (its static type map), which name no class to load. */
    private static final Set<String> HESSIAN_TYPE_NAMES = Set.of(
            "void", "boolean", "byte", "short", "int", "long", "float", "double", "char", "string", "object", "date");

    private final ClassAllowList allowList;

    private final Map<String, Class<?>> localClasses = new HashMap<>();
    private final Map<Class<?>, LegacyClassSerializer> legacyExceptions = new HashMap<>();

    /** Whether classes without a serializer of their own are written and read without {@code sun.misc.Unsafe}. */
    private final boolean withoutUnsafe;

    LegacyNameSerializerFactory(ClassLoader loader, ClassAllowList allowList) {
        this(loader, allowList, true);
    }

    /** {@code withoutUnsafe} false: Hessian's own field forms, with {@code sun.misc.Unsafe} (tests compare). */
    LegacyNameSerializerFactory(ClassLoader loader, ClassAllowList allowList, boolean withoutUnsafe) {
        super(loader);
        this.allowList = allowList;
        this.withoutUnsafe = withoutUnsafe;
        localClasses.putAll(LegacyClassNames.TO_LOCAL);
        for (Class<?> type : LegacyClassNames.TO_LOCAL.values()) {
            localClasses.put(type.getName(), type);
        }
        for (Class<?> type : LegacyClassNames.EXCEPTIONS) {
            legacyExceptions.put(type, LegacyClassSerializer.exception(LegacyClassNames.legacyName(type.getName())));
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Serializer getSerializer(Class cl) throws HessianProtocolException {
        if (cl == MessageWrapper.class) {
            return LegacyClassSerializer.MESSAGE_WRAPPER;
        }
        if (cl == ResultWrapper.class) {
            return LegacyClassSerializer.RESULT_WRAPPER;
        }
        if (cl == ServiceMetadata.class) {
            return LegacyClassSerializer.SERVICE_METADATA;
        }
        LegacyClassSerializer exception = legacyExceptions.get(cl);
        if (exception != null) {
            return exception;
        }
        if (cl == Byte.class || cl == Short.class) {
            return CompatSerializers.SMALL_INT;
        }
        if (cl == Float.class) {
            return CompatSerializers.FLOAT;
        }
        if (isJdkInternal(cl)) {
            // List.of, Collections.unmodifiableMap, Arrays.asList, ...: sent as a plain list or map, without the
            // class name, so the reader builds an ArrayList or HashMap instead of reflecting on JDK internals.
            return Map.class.isAssignableFrom(cl) ? UNTYPED_MAP : UNTYPED_COLLECTION;
        }
        return super.getSerializer(cl);
    }

    /**
     * A class written field by field: by {@link ReflectiveSerializer}, {@link ThrowableForm},
     * {@link BigIntegerForm} or {@link StackTraceElementForm}, which give Hessian's bytes without
     * {@code sun.misc.Unsafe} (whose memory methods make JDK 24 and later print warnings). A class none of them can
     * read (a JDK class with private fields and no public way to them, a {@code @HessianUnshared} class) takes
     * Hessian's own {@code Unsafe} form ({@link HessianFieldForms}; Hessian itself is in its reflective mode:
     * {@link HessianStart}).
     */
    @Override
    @SuppressWarnings("rawtypes")
    protected Serializer getDefaultSerializer(Class cl) {
        // Hessian refuses a class that is not Serializable there.
        boolean mayWrite = isAllowNonSerializable() || Serializable.class.isAssignableFrom(cl);
        Serializer own = withoutUnsafe && mayWrite ? ownSerializer(cl) : null;
        if (own != null) {
            return own;
        }
        Serializer hessians = mayWrite ? HessianFieldForms.serializer(cl) : null;
        return hessians != null ? hessians : super.getDefaultSerializer(cl);
    }

    private static Serializer ownSerializer(Class<?> cl) {
        if (cl == BigInteger.class) {
            return BigIntegerForm.serializer();
        }
        if (cl == StackTraceElement.class) {
            return StackTraceElementForm.serializer();
        }
        if (Throwable.class.isAssignableFrom(cl)) {
            return ThrowableForm.serializer(cl);
        }
        if (cl.isAnnotationPresent(HessianUnshared.class) || HessianFieldForms.hasWriteReplace(cl)) {
            return null; // Hessian's JavaSerializer (reflection) calls writeReplace; unshared: Hessian's
        }
        return ReflectiveSerializer.of(cl);
    }

    /** The reading side of {@link #getDefaultSerializer}: Hessian's {@code Unsafe} form where ours cannot read. */
    @Override
    @SuppressWarnings("rawtypes")
    protected Deserializer getDefaultDeserializer(Class cl) {
        Deserializer own = withoutUnsafe ? ownDeserializer(cl) : null;
        if (own != null) {
            return own;
        }
        Deserializer hessians = cl == InputStream.class ? null : HessianFieldForms.deserializer(cl);
        return hessians != null ? hessians : super.getDefaultDeserializer(cl);
    }

    private static Deserializer ownDeserializer(Class<?> cl) {
        if (cl == BigInteger.class) {
            return BigIntegerForm.DESERIALIZER;
        }
        if (Throwable.class.isAssignableFrom(cl)) {
            return ThrowableForm.deserializer(cl);
        }
        if (cl == InputStream.class) {
            return null;
        }
        return FieldsDeserializer.of(cl);
    }

    private static boolean isJdkInternal(Class<?> cl) {
        if (!Collection.class.isAssignableFrom(cl) && !Map.class.isAssignableFrom(cl)) {
            return false;
        }
        String name = cl.getName();
        return name.startsWith("java.util.ImmutableCollections$") || name.startsWith("java.util.Collections$")
                || name.equals("java.util.Arrays$ArrayList");
    }

    private static final CollectionSerializer UNTYPED_COLLECTION = new CollectionSerializer();
    private static final MapSerializer UNTYPED_MAP = new MapSerializer();

    static {
        UNTYPED_COLLECTION.setSendJavaType(false);
        UNTYPED_MAP.setSendJavaType(false);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Deserializer getDeserializer(Class cl) throws HessianProtocolException {
        if (cl == MessageWrapper.class) {
            return BoundedDeserializer.of(RequestDeserializer.INSTANCE);
        }
        if (cl == ServiceMetadata.class) {
            return BoundedDeserializer.of(ServiceMetadataDeserializer.INSTANCE);
        }
        if (cl == StackTraceElement.class) {
            return BoundedDeserializer.of(withoutUnsafe ? StackTraceElementForm.DESERIALIZER
                    : HessianFieldForms.stackTraceElementDeserializer());
        }
        return BoundedDeserializer.of(cl == BigDecimal.class ? CompatSerializers.BIG_DECIMAL
                : super.getDeserializer(cl));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Deserializer getListDeserializer(String type, Class cl) throws HessianProtocolException {
        BoundedHessianInput input = BoundedHessianInput.current();
        RequestRead request = input == null ? null : input.request();
        if (cl == ServiceMetadata.class) {
            throw new EnvelopeException("hessian: a service's metadata is a list (expected: an object of three"
                    + " strings)");
        }
        if (request != null && request.takeArguments()) {
            return BoundedDeserializer.of(new ArgumentsDeserializer(request, super.getListDeserializer(type, cl)));
        }
        return BoundedDeserializer.of(super.getListDeserializer(type, cl));
    }

    @Override
    public Deserializer getListDeserializer(String type) throws HessianProtocolException {
        return BoundedDeserializer.of(super.getListDeserializer(type));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Deserializer getObjectDeserializer(String type, Class cl) throws HessianProtocolException {
        if (cl == ServiceMetadata.class && localClasses.get(type) != ServiceMetadata.class) {
            // A typed map, or an object of another class, where the metadata belongs: refused before it is read.
            throw new EnvelopeException("hessian: a service's metadata is a " + LogText.of(type)
                    + " (expected: an object of three strings)");
        }
        return BoundedDeserializer.of(super.getObjectDeserializer(type, cl));
    }

    @Override
    public Deserializer getObjectDeserializer(String type) throws HessianProtocolException {
        return BoundedDeserializer.of(super.getObjectDeserializer(type));
    }

    @Override
    public Deserializer getDeserializer(String type) throws HessianProtocolException {
        Class<?> local = localClasses.get(type);
        if (local != null) {
            return getDeserializer(local);
        }
        if (BIG_DECIMAL.equals(type)) {
            return BoundedDeserializer.of(CompatSerializers.BIG_DECIMAL);
        }
        if (STACK_TRACE_ELEMENT.equals(type)) {
            return getDeserializer(StackTraceElement.class);
        }
        if (type != null && !type.isEmpty() && type.charAt(0) != '[' && !HESSIAN_TYPE_NAMES.contains(type)) {
            // Arrays ("[name") are left to Hessian, which asks this method again for the element type.
            allowList.check("hessian", type);
        }
        // An argument's own class name is checked against its parameter's type once loaded, before anything of it
        // is created; asked before Hessian resolves an array's element type, which is not the argument's type.
        BoundedHessianInput input = BoundedHessianInput.current();
        RequestRead request = input == null ? null : input.request();
        boolean argument = request != null && type != null && !type.isEmpty()
                && request.takeElementName(input.depth());
        Deserializer deserializer = super.getDeserializer(type);
        if (deserializer == null && type != null && !type.isEmpty()) {
            throw new HessianProtocolException("class '" + type + "' is unknown");
        }
        if (argument && deserializer.getType() != null) {
            request.checkElement(deserializer.getType());
        }
        return BoundedDeserializer.of(deserializer);
    }
}
