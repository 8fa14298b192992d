package io.jupiter.registry.embedded.internal;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Registry bodies in exactly 1.3.1's protostuff bytes. The message's {@code data} slot is an {@code Object} there,
 * so 1.3.1 writes the class name of what it holds ({@code org.jupiter.registry.RegisterMeta} and so on); this codec
 * writes and accepts those names verbatim and maps them to our types. It is hand-written over a closed set of types:
 * nothing is ever loaded by a class name from the wire.
 *
 * <pre>
 * Message      1 sequence (int64)  2 serializerCode (int32)  3 messageCode (int32)  4 version (int64)  5 data (group)
 * RegisterMeta 1 address (group)   2 serviceMeta (group)     3 weight (int32)       4 connCount (int32)
 * Address      1 host (string)     2 port (int32)
 * ServiceMeta  1 group (string)    2 serviceProviderName     3 version
 * Pair         1 first (group)     2 second (group)
 * </pre>
 * An object in an {@code Object} slot starts with field 127 = its class name; a list with field 25 = "ArrayList"
 * followed by one group (field 1) per element.
 */
public final class RegistryCodec {

    public static final String LEGACY_REGISTER_META = "org.jupiter.registry.RegisterMeta";
    public static final String LEGACY_SERVICE_META = "org.jupiter.registry.RegisterMeta$ServiceMeta";
    public static final String LEGACY_ADDRESS = "org.jupiter.registry.RegisterMeta$Address";
    public static final String LEGACY_PAIR = "org.jupiter.common.util.Pair";
    static final String ARRAY_LIST = "ArrayList";
    static final int MAX_DEPTH = 8;
    /**
     * The longest string a registry message may hold (a host, a group, a service name, a version, a type name), in
     * bytes of UTF-8; a longer one makes the message unreadable, and the registry closes the connection.
     */
    public static final int MAX_STRING_BYTES = 1024;

    private static final int CLASS_NAME_FIELD = 127;
    private static final int COLLECTION_FIELD = 25;

    private RegistryCodec() {
    }

    /** Appends the body of {@code message}. */
    public static void encode(ByteBuf out, RegistryMessage message) {
        ProtoWriter w = new ProtoWriter(out);
        w.int64(1, message.sequence());
        w.int32(2, message.serializerCode());
        w.int32(3, message.messageCode());
        w.int64(4, message.version());
        if (message.data() != null) {
            w.startGroup(5);
            writeDynamic(w, message.data());
            w.endGroup(5);
        }
    }

    /**
     * Reads a body.
     *
     * @throws RegistryCodecException if it is malformed or holds a type the registry protocol does not use
     */
    public static RegistryMessage decode(ByteBuf in) {
        ProtoReader r = new ProtoReader(in);
        long sequence = 0;
        long version = 0;
        byte serializerCode = 0;
        byte messageCode = 0;
        Object data = null;
        int tag;
        while ((tag = r.readTag()) != 0) {
            switch (ProtoReader.field(tag)) {
                case 1 -> sequence = r.int64();
                case 2 -> serializerCode = (byte) r.int32();
                case 3 -> messageCode = (byte) r.int32();
                case 4 -> version = r.int64();
                case 5 -> data = readDynamic(r, groupOf(tag), 1);
                default -> r.skip(tag, 1);
            }
        }
        return new RegistryMessage(sequence, serializerCode, messageCode, version, data);
    }

    private static void writeDynamic(ProtoWriter w, Object value) {
        if (value instanceof RegisterMeta meta) {
            w.string(CLASS_NAME_FIELD, LEGACY_REGISTER_META);
            writeRegisterMeta(w, meta);
        } else if (value instanceof ServiceMeta service) {
            w.string(CLASS_NAME_FIELD, LEGACY_SERVICE_META);
            writeServiceMeta(w, service);
        } else if (value instanceof ProviderAddress address) {
            w.string(CLASS_NAME_FIELD, LEGACY_ADDRESS);
            writeAddress(w, address);
        } else if (value instanceof PushData pair) {
            w.string(CLASS_NAME_FIELD, LEGACY_PAIR);
            w.startGroup(1);
            writeDynamic(w, pair.service());
            w.endGroup(1);
            w.startGroup(2);
            writeDynamic(w, pair.providers());
            w.endGroup(2);
        } else if (value instanceof List<?> list) {
            w.string(COLLECTION_FIELD, ARRAY_LIST);
            for (Object element : list) {
                w.startGroup(1);
                writeDynamic(w, element);
                w.endGroup(1);
            }
        } else {
            throw new RegistryCodecException("cannot write " + value.getClass().getName() + " in a registry message");
        }
    }

    private static void writeRegisterMeta(ProtoWriter w, RegisterMeta meta) {
        w.startGroup(1);
        writeAddress(w, meta.address());
        w.endGroup(1);
        w.startGroup(2);
        writeServiceMeta(w, meta.service());
        w.endGroup(2);
        w.int32(3, meta.weight());
        w.int32(4, meta.connCount());
    }

    private static void writeAddress(ProtoWriter w, ProviderAddress address) {
        w.string(1, address.host());
        w.int32(2, address.port());
    }

    private static void writeServiceMeta(ProtoWriter w, ServiceMeta service) {
        w.string(1, service.group());
        w.string(2, service.name());
        w.string(3, service.version());
    }

    private static int groupOf(int tag) {
        if (ProtoReader.wireType(tag) != ProtoWriter.START_GROUP) {
            throw new RegistryCodecException("field " + ProtoReader.field(tag) + " is not a message (wire type "
                    + ProtoReader.wireType(tag) + ")");
        }
        return ProtoReader.field(tag);
    }

    /** Reads an object in an {@code Object} slot; the group's start tag was read. */
    private static Object readDynamic(ProtoReader r, int field, int depth) {
        if (depth > MAX_DEPTH) {
            throw new RegistryCodecException("objects nested deeper than " + MAX_DEPTH);
        }
        int tag = r.readTag();
        int typeField = ProtoReader.field(tag);
        if (ProtoReader.wireType(tag) != ProtoWriter.LENGTH_DELIMITED
                || (typeField != CLASS_NAME_FIELD && typeField != COLLECTION_FIELD)) {
            throw new RegistryCodecException("object without a type name in field " + field);
        }
        String type = r.string();
        if (typeField == COLLECTION_FIELD) {
            return readList(r, field, type, depth);
        }
        return switch (type) {
            case LEGACY_REGISTER_META -> readRegisterMeta(r, field, depth);
            case LEGACY_SERVICE_META -> readServiceMeta(r, field, depth);
            case LEGACY_ADDRESS -> readAddress(r, field, depth);
            case LEGACY_PAIR -> readPair(r, field, depth);
            default -> throw new RegistryCodecException("unexpected type '" + type + "' in a registry message");
        };
    }

    private static List<Object> readList(ProtoReader r, int field, String type, int depth) {
        if (!ARRAY_LIST.equals(type) && !"LinkedList".equals(type) && !"List".equals(type)) {
            throw new RegistryCodecException("unexpected collection '" + type + "' in a registry message");
        }
        List<Object> list = new ArrayList<>();
        int end = endTag(field);
        int tag;
        while ((tag = r.readTag()) != end) {
            checkNotEnd(tag, field);
            if (ProtoReader.field(tag) == 1) {
                list.add(readDynamic(r, groupOf(tag), depth + 1));
            } else {
                r.skip(tag, depth);
            }
        }
        return list;
    }

    private static PushData readPair(ProtoReader r, int field, int depth) {
        Object first = null;
        Object second = null;
        int end = endTag(field);
        int tag;
        while ((tag = r.readTag()) != end) {
            checkNotEnd(tag, field);
            switch (ProtoReader.field(tag)) {
                case 1 -> first = readDynamic(r, groupOf(tag), depth + 1);
                case 2 -> second = readDynamic(r, groupOf(tag), depth + 1);
                default -> r.skip(tag, depth);
            }
        }
        if (!(first instanceof ServiceMeta service)) {
            throw new RegistryCodecException("pair without a service: " + first);
        }
        return new PushData(service, second);
    }

    private static RegisterMeta readRegisterMeta(ProtoReader r, int field, int depth) {
        ProviderAddress address = null;
        ServiceMeta service = null;
        int weight = 0;
        int connCount = 0;
        int end = endTag(field);
        int tag;
        while ((tag = r.readTag()) != end) {
            checkNotEnd(tag, field);
            switch (ProtoReader.field(tag)) {
                case 1 -> address = readAddress(r, groupOf(tag), depth + 1);
                case 2 -> service = readServiceMeta(r, groupOf(tag), depth + 1);
                case 3 -> weight = r.int32();
                case 4 -> connCount = r.int32();
                default -> r.skip(tag, depth);
            }
        }
        if (address == null || service == null) {
            throw new RegistryCodecException("RegisterMeta without " + (address == null ? "address" : "service"));
        }
        try {
            // 1.3.1 publishes weight 0 when none was set and connCount 0 is never meant: keep both in range.
            return new RegisterMeta(address, service, Math.max(0, Math.min(weight, RegisterMeta.MAX_WEIGHT)),
                    Math.max(1, Math.min(connCount, 64)));
        } catch (RuntimeException e) {
            throw new RegistryCodecException("bad RegisterMeta: " + e.getMessage());
        }
    }

    private static ProviderAddress readAddress(ProtoReader r, int field, int depth) {
        String host = null;
        int port = 0;
        int end = endTag(field);
        int tag;
        while ((tag = r.readTag()) != end) {
            checkNotEnd(tag, field);
            switch (ProtoReader.field(tag)) {
                case 1 -> host = r.string();
                case 2 -> port = r.int32();
                default -> r.skip(tag, depth);
            }
        }
        if (port < 0 || port > 65535) {
            throw new RegistryCodecException("port " + port + " out of range");
        }
        return new ProviderAddress(host, port);
    }

    private static ServiceMeta readServiceMeta(ProtoReader r, int field, int depth) {
        String group = null;
        String name = null;
        String version = null;
        int end = endTag(field);
        int tag;
        while ((tag = r.readTag()) != end) {
            checkNotEnd(tag, field);
            switch (ProtoReader.field(tag)) {
                case 1 -> group = r.string();
                case 2 -> name = r.string();
                case 3 -> version = r.string();
                default -> r.skip(tag, depth);
            }
        }
        try {
            return new ServiceMeta(group, name, version);
        } catch (RuntimeException e) {
            throw new RegistryCodecException("bad ServiceMeta: " + e.getMessage());
        }
    }

    private static int endTag(int field) {
        return (field << 3) | ProtoWriter.END_GROUP;
    }

    private static void checkNotEnd(int tag, int field) {
        if (tag == 0) {
            throw new RegistryCodecException("group of field " + field + " not closed");
        }
    }
}
