package io.jupiter.serialization.protostuff;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.LengthBudget;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.protostuff.ByteString;
import io.protostuff.Input;
import io.protostuff.MapSchema;
import io.protostuff.Output;
import io.protostuff.ProtostuffException;
import io.protostuff.Schema;
import io.protostuff.UninitializedMessageException;
import io.protostuff.WireFormat;
import io.protostuff.runtime.ArraySchema;
import io.protostuff.runtime.RuntimeSchema;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Protostuff input that checks every class name read from the wire against the {@link ClassAllowList}, and reads
 * Jupiter 1.3.1's exception class names ({@code org.jupiter.rpc.exception.*}) as our wire classes of the same simple
 * name.
 *
 * <p>Protostuff writes a class name only for a value whose declared type does not say it ({@code Object} slots,
 * abstract or interface types, throwables): one of its polymorphic schemas then reads a field whose number says
 * what kind of type follows (a POJO is 127, a throwable 52, an enum 24, a collection 25, a map 26, an array 15,
 * a {@code Class} 18, ...) and hands the string read next to its id strategy, which loads the class. Those schemas
 * are protostuff's polymorphic schemas and its internal element schemas (anonymous classes of its id strategy), so
 * the rule is the other way round: a string read right after one of those field numbers under any schema but a
 * {@link RuntimeSchema} (a class's own fields, numbered from 1) is a class name, and it is checked here, before
 * protostuff loads the class. The other schemas read no value strings under those numbers (string values are 9,
 * string array items 2, collection items 1, map keys and values 1 and 2, enum constant names 1), so nothing else is
 * taken for a class name. Nested messages are merged here rather than in the wrapped input, so that their reads
 * pass through this class too (protostuff's format encodes them as groups).
 *
 * <p>It also charges every array length protostuff reads to the body's {@link LengthBudget} before protostuff
 * allocates the array (strings and byte arrays protostuff checks itself against the bytes left; collections and
 * maps declare no size). Array lengths come in two places: the array wrapper of a polymorphic slot (class name
 * under field 15 or 17, then the length under field 3 and the dimensions under field 2, all unsigned ints), and
 * the arrays of protostuff's {@code ArraySchemas} (the length under field 1, negative {@code -n-1} for boxed
 * elements). Dimensions must be 1 to 255, as in the JVM. Nested messages (every one is merged here) may nest
 * {@link ReadLimits#maxDepth()} deep (the serializer's limits).
 *
 * <p>A request read envelope first tells its {@link ArgumentReader} of every field, value, class name and array
 * header read, so that the arguments' classes are checked against the called method before protostuff creates them.
 *
 * <p>Two values of the request are read here rather than by protostuff's schemas, which make a wrapper object for
 * each: its attachments (a map of strings, read into an {@link AttachmentMap} as protostuff's map schema reads
 * entries) and its arguments when they are an {@code Object[]} (the elements put into the array as protostuff's
 * array schema puts them, {@link ArgumentArray}). Both make the same reads, in the same order, as protostuff's
 * schemas, so every check above applies to them, and read every body as protostuff does (its odd entries included:
 * a null key, a value before its key).
 */
final class LegacyNameInput implements Input {

    static final int ID_THROWABLE = 52;
    static final int ID_POJO = 127;

    private static final int ID_COLLECTION = 25;
    private static final int ID_MAP = 26;
    private static final int ID_ARRAY = 15;
    private static final int ID_ARRAY_MAPPED = 17;
    /** The array wrapper's fields: length, then dimensions (protostuff's {@code ObjectSchema}). */
    private static final int WRAPPER_LENGTH = 3;
    private static final int WRAPPER_DIMENSIONS = 2;
    /** The length field of protostuff's {@code ArraySchemas}. */
    private static final int ARRAY_SCHEMA_LENGTH = 1;
    /** The JVM's limit on array dimensions. */
    private static final int MAX_DIMENSIONS = 255;
    /** protostuff's {@code ArraySchemas.Base}, the schema of arrays whose type the field declares. */
    private static final Class<?> ARRAY_SCHEMA = arraySchemaClass();

    /** Where the reading of an array wrapper's header is. */
    private static final int HEADER_NONE = 0;
    private static final int HEADER_LENGTH = 1;
    private static final int HEADER_DIMENSIONS = 2;

    /**
     * The field numbers of protostuff's polymorphic schemas (its {@code RuntimeFieldFactory.ID_*}) after which a
     * class name is read: arrays (15, 17), classes (18-21), enum sets and maps (22, 23), enums (24), collections
     * (25), maps (26), delegates (30, 32), enum and POJO arrays (34, 35), throwables (52) and POJOs (127).
     */
    private static final boolean[] NAMES_A_CLASS = new boolean[128];

    static {
        for (int field : new int[] {15, 17, 18, 19, 20, 21, 22, 23, 24, ID_COLLECTION, ID_MAP, 30, 32, 34, 35,
                ID_THROWABLE, ID_POJO}) {
            NAMES_A_CLASS[field] = true;
        }
    }

    /** The strings of the request and service envelopes, and class names: the same few in every message. */
    private static final RepeatedStrings REPEATED = new RepeatedStrings();
    /**
     * protostuff's {@code io.protostuff.cesu8_compat}: strings with replaced characters are decoded again as CESU-8;
     * with it set, every string is left to protostuff's decoder.
     */
    private static final boolean CESU8_COMPAT = Boolean.getBoolean("io.protostuff.cesu8_compat");
    /** The request's attachments: a field of {@link MessageWrapper}, a map of string keys and values. */
    private static final String ATTACHMENTS = "attachments";
    /** A map's one field, its entries (protostuff's {@code MapSchema}). */
    private static final int MAP_ENTRY = 1;
    /** The fields of a map entry (protostuff's {@code MapSchema}): the key, then the value. */
    private static final int ENTRY_KEY = 1;
    private static final int ENTRY_VALUE = 2;
    /** The request's arguments: a field of {@link MessageWrapper}, an {@code Object[]}. */
    private static final String ARGS = "args";
    /**
     * How protostuff starts an {@code Object[]} in a polymorphic slot: field 15 (the array wrapper's component class
     * name, length-delimited) and the name {@code java.lang.Object} (16 bytes), which its default id strategy
     * resolves to {@code Object} alone.
     */
    private static final byte[] OBJECT_ARRAY_START = objectArrayStart();
    /** The fields of an array's elements in a polymorphic slot (protostuff's collection schema): a value, nulls. */
    private static final int ELEMENT_VALUE = 1;
    private static final int ELEMENT_NULLS = 2;
    /** The fields of {@link ServiceMetadata}, by their names in its runtime schema. */
    private static final String SERVICE_GROUP = "group";
    private static final String SERVICE_NAME = "serviceProviderName";
    private static final String SERVICE_VERSION = "version";
    /** A longer attachment value is decoded every time: short ones (a deadline, a flag) repeat, ids do not. */
    private static final int REPEATED_VALUE_MAX_LENGTH = 16;

    /**
     * Each Jupiter thread's own input, reset for every read rather than made anew (with its {@link ByteBufInput}):
     * a read on such a thread allocates neither unless one read starts inside another ({@link #inUse}).
     */
    private static final FastThreadLocal<LegacyNameInput> OWN = new FastThreadLocal<>() {
        @Override
        protected LegacyNameInput initialValue() {
            return new LegacyNameInput(Unpooled.EMPTY_BUFFER, ClassAllowList.global(), ReadLimits.defaults(), null,
                    true);
        }
    };

    private final ByteBufInput in;
    /** Whether this is a thread's own input ({@link #OWN}). */
    private final boolean own;
    /** Whether a thread's own input is reading now ({@link #of} to {@link #done}). */
    private boolean inUse;
    // Not final: a thread's own input is reset for each read.
    private ClassAllowList allowList;
    private ReadLimits readLimits;
    /** What is left of the body's {@link LengthBudget}, kept here rather than in an object of its own. */
    private long budget;
    private int lastField;
    private Schema<?> lastSchema;
    private int arrayHeader;
    private int depth;
    /** Whether the request's attachments are being read (their keys, and short values, repeat). */
    private boolean inAttachments;
    /** The request's arguments being checked against their expected types; {@code null} for other reads. */
    private ArgumentReader arguments;
    /** A thread's own input's services read lately; {@code null}: each service read is a new one. */
    private final RecentServices recentServices;
    /** Where the request's arguments are read into; made at the first, kept by a thread's own input. */
    private ArgumentArray argumentArray;

    /** Reads the readable bytes of {@code buffer}, leaving its indexes where they are. */
    LegacyNameInput(ByteBuf buffer, ClassAllowList allowList, ReadLimits limits) {
        this(buffer, allowList, limits, null);
    }

    LegacyNameInput(ByteBuf buffer, ClassAllowList allowList, ReadLimits limits, ArgumentReader arguments) {
        this(buffer, allowList, limits, arguments, false);
    }

    private LegacyNameInput(ByteBuf buffer, ClassAllowList allowList, ReadLimits limits, ArgumentReader arguments,
                            boolean own) {
        this.budget = buffer.readableBytes();
        this.in = ByteBufInput.readable(buffer);
        this.allowList = allowList;
        this.readLimits = limits;
        this.arguments = arguments;
        this.own = own;
        this.recentServices = own ? new RecentServices() : null;
    }

    /**
     * An input reading the readable bytes of {@code buffer}, as {@code new LegacyNameInput(...)} would: this thread's
     * own one on a Jupiter thread when it is free. Hand it back with {@link #done} once the read is over.
     */
    static LegacyNameInput of(ByteBuf buffer, ClassAllowList allowList, ReadLimits limits,
                              ArgumentReader arguments) {
        if (!(Thread.currentThread() instanceof FastThreadLocalThread)) {
            return new LegacyNameInput(buffer, allowList, limits, arguments);
        }
        LegacyNameInput input = OWN.get();
        if (input.inUse) {
            return new LegacyNameInput(buffer, allowList, limits, arguments); // a read inside a read
        }
        ByteBufInput.readable(buffer, input.in); // first: it may fail (a released buffer), leaving the input free
        input.inUse = true;
        input.budget = buffer.readableBytes();
        input.allowList = allowList;
        input.readLimits = limits;
        input.arguments = arguments;
        input.lastField = 0;
        input.lastSchema = null;
        input.arrayHeader = HEADER_NONE;
        input.depth = 0;
        input.inAttachments = false;
        return input;
    }

    /** The read is over: a thread's own input lets go of what it read and is free again. */
    void done() {
        if (own) {
            in.clear();
            arguments = null;
            lastSchema = null;
            if (argumentArray != null) {
                argumentArray.release();
            }
            inUse = false;
        }
    }

    private static byte[] objectArrayStart() {
        byte[] name = Object.class.getName().getBytes(StandardCharsets.US_ASCII);
        byte[] start = new byte[2 + name.length];
        start[0] = (byte) WireFormat.makeTag(ID_ARRAY, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        start[1] = (byte) name.length;
        System.arraycopy(name, 0, start, 2, name.length);
        return start;
    }

    private static Class<?> arraySchemaClass() {
        try {
            return Class.forName("io.protostuff.runtime.ArraySchemas$Base", false,
                    LegacyNameInput.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError("this protostuff has no ArraySchemas.Base: " + e);
        }
    }

    @Override
    public <T> int readFieldNumber(Schema<T> schema) throws IOException {
        lastField = in.readFieldNumber(schema);
        lastSchema = schema;
        if (arguments != null) {
            arguments.fieldRead(depth, lastField);
        }
        return lastField;
    }

    @Override
    public String readString() throws IOException {
        int field = lastField;
        boolean className = field > 0 && field < NAMES_A_CLASS.length && NAMES_A_CLASS[field]
                && !(lastSchema instanceof RuntimeSchema);
        String value = CESU8_COMPAT ? in.readString()
                : readUtf8(className || isEnvelope(lastSchema), inAttachments && isAttachmentString(field));
        return className ? checkedClassName(field, value) : value;
    }

    private static boolean isEnvelope(Schema<?> schema) {
        Class<?> type = schema == null ? null : schema.typeClass();
        return type == MessageWrapper.class || type == ServiceMetadata.class;
    }

    /** An attachment's key, or its value (repeated when short). */
    private static boolean isAttachmentString(int field) {
        return field == ENTRY_KEY || field == ENTRY_VALUE;
    }

    /**
     * The map the request's attachments are read into: an {@link AttachmentMap} for the few entries a request carries
     * (one, the deadline, from a default client), rather than the {@code HashMap} of sixteen slots protostuff makes.
     */
    @SuppressWarnings("unchecked")
    private static <T> T newAttachments() {
        return (T) new AttachmentMap();
    }

    /** The name of the request's field whose nested value is about to be merged; {@code null} below the root. */
    private String requestFieldStarts() {
        return depth == 0 && lastSchema != null && lastSchema.typeClass() == MessageWrapper.class
                ? lastSchema.getFieldName(lastField) : null;
    }

    /**
     * Reads a string as protostuff does without its copy into an array of its own (and with the charset given as an
     * object: protostuff looks it up by name for every string); a string every message repeats comes from
     * {@link RepeatedStrings}: the envelope's strings and class names ({@code repeated}), an attachment's key, and
     * its value when short ({@code attachment}).
     */
    private String readUtf8(boolean repeated, boolean attachment) throws IOException {
        int mark = in.position();
        int length = in.readRawVarint32();
        if (length < 0 || in.remaining() < length) {
            // Malformed: read it again the general way, which reports what is wrong.
            in.reset(mark);
            return in.readString();
        }
        ByteBuf buffer = in.buffer();
        int start = in.position();
        in.skip(length);
        boolean repeats = repeated || attachment
                && (lastField == ENTRY_KEY || length <= REPEATED_VALUE_MAX_LENGTH);
        if (repeats && length <= RepeatedStrings.MAX_LENGTH) {
            return REPEATED.read(buffer, start, length);
        }
        return buffer.toString(start, length, StandardCharsets.UTF_8);
    }

    private String checkedClassName(int field, String name) {
        if ((field == ID_COLLECTION || field == ID_MAP) && name.indexOf('.') < 0) {
            // A java.util collection or map by simple name: protostuff resolves it among its own factories only.
            if (arguments != null) {
                arguments.classNamed(depth, field, "java.util." + name);
            }
            return name;
        }
        allowList.check("protostuff", name);
        if (field == ID_ARRAY || field == ID_ARRAY_MAPPED) {
            arrayHeader = HEADER_LENGTH;
        }
        String local = name;
        if (field == ID_POJO || field == ID_THROWABLE) {
            Class<?> legacy = LegacyClassNames.localClass(name);
            if (legacy != null && name.startsWith(LegacyClassNames.EXCEPTION_PACKAGE)) {
                local = legacy.getName();
            }
        }
        if (arguments != null) {
            arguments.classNamed(depth, field, local);
        }
        return local;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T mergeObject(T value, Schema<T> schema) throws IOException {
        String requestField = requestFieldStarts();
        boolean attachments = ATTACHMENTS.equals(requestField);
        boolean objectArgs = ARGS.equals(requestField) && value instanceof MessageWrapper
                && schema instanceof ArraySchema && ArgumentArray.DEFAULT_IDS && in.nextBytesAre(OBJECT_ARRAY_START);
        if (++depth > readLimits.maxDepth()) {
            throw new ReadLimitException(readLimits.tooDeep());
        }
        if (arguments != null) {
            arguments.valueStarts(depth - 1);
        }
        T message;
        if (schema.typeClass() == ServiceMetadata.class) {
            message = (T) readService((ServiceMetadata) value, schema);
        } else if (objectArgs) {
            message = value;
            ((MessageWrapper) value).setArgs(readObjectArray(schema));
        } else if (attachments && schema instanceof MapSchema) {
            message = value != null ? value : newAttachments();
            inAttachments = true;
            readEntries((Map<String, String>) message, schema);
            inAttachments = false;
        } else {
            message = value != null ? value : attachments ? newAttachments() : schema.newMessage();
            if (attachments) {
                inAttachments = true;
            }
            schema.mergeFrom(this, message);
            if (attachments) {
                inAttachments = false;
            }
        }
        depth--;
        if (!schema.isInitialized(message)) {
            throw new UninitializedMessageException(message, schema);
        }
        in.checkLastTagWas(0);
        return message;
    }

    /**
     * Reads the request's attachments into {@code map} as protostuff's {@code MapSchema} of string keys and values
     * does, without the {@code MapWrapper} it makes for every map: entries (field 1) until the map's end, anything
     * else refused.
     */
    private void readEntries(Map<String, String> map, Schema<?> schema) throws IOException {
        for (int field = readFieldNumber(schema); field != 0; field = readFieldNumber(schema)) {
            if (field != MAP_ENTRY) {
                throw incorrectMap();
            }
            readEntry(map, schema);
        }
    }

    /**
     * Reads one entry, a nested message, as {@link #mergeObject} and protostuff's entry schema would: its depth
     * counted, then the key (field 1) and the value (field 2), each at most once, in either order. As protostuff
     * does: a key and then a value are put as they come; a key alone is put with a null value; a value alone is put
     * under the null key, and an empty entry puts null under it; a value and then a key put nothing (protostuff keeps
     * the value aside for a null key, and the key that comes after it finds nothing to put).
     */
    private void readEntry(Map<String, String> map, Schema<?> schema) throws IOException {
        if (++depth > readLimits.maxDepth()) {
            throw new ReadLimitException(readLimits.tooDeep());
        }
        if (arguments != null) {
            arguments.valueStarts(depth - 1);
        }
        String key = null;
        String valueAside = null;
        boolean valueRead = false;
        for (int field = readFieldNumber(schema); field != 0; field = readFieldNumber(schema)) {
            if (field == ENTRY_KEY && key == null) {
                key = readString();
            } else if (field == ENTRY_VALUE && !valueRead) {
                valueRead = true;
                String value = readString();
                if (key != null) {
                    map.put(key, value);
                } else {
                    valueAside = value;
                }
            } else {
                throw incorrectMap();
            }
        }
        if (key == null) {
            map.put(null, valueAside);
        } else if (!valueRead) {
            map.put(key, null);
        }
        depth--;
        in.checkLastTagWas(0);
    }

    /**
     * Reads the request's arguments, an {@code Object[]} (as {@link #OBJECT_ARRAY_START} said), as protostuff's
     * array schema of the {@code args} field does, with the same reads in the same order, but into an
     * {@link ArgumentArray} rather than the {@code ArrayWrapper} it makes: the component class name (checked as any
     * class name), the length and the dimensions (both checked as any array's), then the elements (field 1, each
     * merged with protostuff's schema of an {@code Object} slot) and runs of nulls (field 2) until the array's end.
     */
    private Object[] readObjectArray(Schema<?> schema) throws IOException {
        readFieldNumber(schema); // ID_ARRAY, as the bytes said
        readString(); // java.lang.Object
        if (readFieldNumber(schema) != WRAPPER_LENGTH) {
            throw corrupt();
        }
        int length = readUInt32();
        if (readFieldNumber(schema) != WRAPPER_DIMENSIONS) {
            throw corrupt();
        }
        int dimensions = readUInt32();
        Object[] array;
        if (dimensions == 1) {
            array = new Object[length];
        } else {
            int[] lengths = new int[dimensions];
            lengths[0] = length;
            array = (Object[]) Array.newInstance(Object.class, lengths);
        }
        ArgumentArray elements = argumentArray;
        if (elements == null) {
            elements = new ArgumentArray();
            if (own) {
                argumentArray = elements;
            }
        }
        elements.start(array);
        try {
            for (int field = readFieldNumber(schema); field != 0; field = readFieldNumber(schema)) {
                if (field == ELEMENT_VALUE) {
                    mergeObject(elements, ArgumentArray.ELEMENT);
                } else if (field == ELEMENT_NULLS) {
                    for (int nulls = readUInt32(), i = 0; i < nulls; i++) {
                        elements.add(null);
                    }
                } else {
                    throw corrupt();
                }
            }
        } finally {
            elements.release();
        }
        return array;
    }

    private static ProtostuffException corrupt() {
        return new ProtostuffException("Corrupt input.");
    }

    private static ProtostuffException incorrectMap() {
        return new ProtostuffException("The map was incorrectly serialized.");
    }

    /**
     * Reads a service's fields as its runtime schema would merge them into {@code value} ({@code null}: none read
     * before), into a new {@link ServiceMetadata} or, on a thread's own input, the one of the same names read lately
     * ({@link RecentServices}): never into {@code value}, which may be shared.
     */
    private ServiceMetadata readService(ServiceMetadata value, Schema<?> schema) throws IOException {
        String group = value == null ? null : value.getGroup();
        String name = value == null ? null : value.getServiceProviderName();
        String version = value == null ? null : value.getVersion();
        for (int field = readFieldNumber(schema); field != 0; field = readFieldNumber(schema)) {
            String fieldName = schema.getFieldName(field);
            if (SERVICE_GROUP.equals(fieldName)) {
                group = readString();
            } else if (SERVICE_NAME.equals(fieldName)) {
                name = readString();
            } else if (SERVICE_VERSION.equals(fieldName)) {
                version = readString();
            } else {
                handleUnknownField(field, schema);
            }
        }
        return recentServices == null ? new ServiceMetadata(group, name, version)
                : recentServices.of(group, name, version);
    }

    void checkLastTagWas(int tag) throws IOException {
        in.checkLastTagWas(tag);
    }

    @Override
    public <T> void handleUnknownField(int fieldNumber, Schema<T> schema) throws IOException {
        in.handleUnknownField(fieldNumber, schema);
    }

    @Override
    public int readInt32() throws IOException {
        int value = in.readInt32();
        if (lastField == ARRAY_SCHEMA_LENGTH && ARRAY_SCHEMA.isInstance(lastSchema)) {
            budget = LengthBudget.charge(budget, value >= 0 ? value : -(value + 1), "array");
        }
        return value;
    }

    @Override
    public int readUInt32() throws IOException {
        int value = in.readUInt32();
        if (arrayHeader != HEADER_NONE) {
            checkArrayHeader(value);
        }
        return value;
    }

    /** The length and then the dimensions of the array wrapper whose class name was just read. */
    private void checkArrayHeader(int value) {
        if (arrayHeader == HEADER_LENGTH && lastField == WRAPPER_LENGTH) {
            budget = LengthBudget.charge(budget, value, "array");
            arrayHeader = HEADER_DIMENSIONS;
            if (arguments != null) {
                arguments.arrayLength(depth, value);
            }
        } else if (arrayHeader == HEADER_DIMENSIONS && lastField == WRAPPER_DIMENSIONS) {
            arrayHeader = HEADER_NONE;
            if (value < 1 || value > MAX_DIMENSIONS) {
                throw new ReadLimitException("array of " + value + " dimensions (expected: 1 to "
                        + MAX_DIMENSIONS + ")");
            }
            if (arguments != null) {
                arguments.arrayDimensions(depth, value);
            }
        } else {
            arrayHeader = HEADER_NONE;
        }
    }

    @Override
    public int readSInt32() throws IOException {
        return in.readSInt32();
    }

    @Override
    public int readFixed32() throws IOException {
        return in.readFixed32();
    }

    @Override
    public int readSFixed32() throws IOException {
        return in.readSFixed32();
    }

    @Override
    public long readInt64() throws IOException {
        return in.readInt64();
    }

    @Override
    public long readUInt64() throws IOException {
        return in.readUInt64();
    }

    @Override
    public long readSInt64() throws IOException {
        return in.readSInt64();
    }

    @Override
    public long readFixed64() throws IOException {
        return in.readFixed64();
    }

    @Override
    public long readSFixed64() throws IOException {
        return in.readSFixed64();
    }

    @Override
    public float readFloat() throws IOException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return in.readDouble();
    }

    @Override
    public boolean readBool() throws IOException {
        return in.readBool();
    }

    @Override
    public int readEnum() throws IOException {
        return in.readEnum();
    }

    @Override
    public ByteString readBytes() throws IOException {
        return in.readBytes();
    }

    @Override
    public void readBytes(ByteBuffer dst) throws IOException {
        in.readBytes(dst);
    }

    @Override
    public byte[] readByteArray() throws IOException {
        return in.readByteArray();
    }

    @Override
    public ByteBuffer readByteBuffer() throws IOException {
        return in.readByteBuffer();
    }

    @Override
    public void transferByteRangeTo(Output output, boolean utf8String, int fieldNumber, boolean repeated)
            throws IOException {
        in.transferByteRangeTo(output, utf8String, fieldNumber, repeated);
    }
}
