package io.jupiter.rpc.protocol;

import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializerSet;
import io.jupiter.serialization.SerializerType;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A read-only view of what one {@link io.jupiter.rpc.JupiterServer} serves: its registered services with their
 * interfaces, the serializers it accepts and the limits it reads with. What a {@link ServerProtocol} needs to turn a
 * foreign request into a request the server reads. Thread-safe; services registered after the server started
 * appear at once.
 */
public final class ServiceCatalog {

    /** One registered service: its key and the interface its methods are called through. */
    public record Entry(ServiceKey key, Class<?> serviceInterface) {
        public Entry {
            Requires.notNull(key, "key");
            Requires.notNull(serviceInterface, "serviceInterface");
        }
    }

    private final List<Entry> entries = new CopyOnWriteArrayList<>();
    private final Set<SerializerType> serializers;
    private final SerializerSet serializerSet;
    private final RefusalReasons refusalReasons = new RefusalReasons();
    private final int streamWindowBytes;

    /**
     * A catalog of a server accepting {@code serializers}, reading with {@code serializerSet} (its allow-list and
     * limits), with the default stream window ({@code streamWindowBytes}) and no service yet.
     */
    public ServiceCatalog(Set<SerializerType> serializers, SerializerSet serializerSet) {
        this(serializers, serializerSet, JupiterSettings.STREAM_WINDOW_BYTES.get());
    }

    /**
     * A catalog of a server accepting {@code serializers}, reading with {@code serializerSet}, whose streams hold
     * {@code streamWindowBytes} each ({@code JupiterServer.Builder.streamWindowBytes}), with no service yet.
     */
    public ServiceCatalog(Set<SerializerType> serializers, SerializerSet serializerSet, int streamWindowBytes) {
        Requires.argument(!serializers.isEmpty(), "serializers: none (expected: at least one)");
        this.serializers = Set.copyOf(serializers);
        this.serializerSet = Requires.notNull(serializerSet, "serializerSet");
        this.streamWindowBytes = JupiterSettings.STREAM_WINDOW_BYTES.check(streamWindowBytes);
    }

    /** Adds a registered service (the server does this as it registers one). */
    public void add(ServiceKey key, Class<?> serviceInterface) {
        entries.add(new Entry(key, serviceInterface));
    }

    /** The registered services, in the order they were registered. */
    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The registered services whose {@link ServiceKey#name()} is {@code name}, of any group and version. */
    public List<Entry> named(String name) {
        return entries.stream().filter(e -> e.key().name().equals(name)).toList();
    }

    /** The serializers the server accepts on requests. */
    public Set<SerializerType> serializers() {
        return serializers;
    }

    /** The limits the server reads requests with; a foreign protocol's own parser applies them too. */
    public ReadLimits readLimits() {
        return serializerSet.limits();
    }

    /**
     * The server's serializers (its allow-list and limits): a foreign protocol writes requests and reads their
     * answers with them.
     */
    public SerializerSet serializerSet() {
        return serializerSet;
    }

    /**
     * The server's byte window of one stream ({@code JupiterServer.Builder.streamWindowBytes}): a foreign protocol
     * holds at most about this much of a server stream's messages written and not yet on its socket.
     */
    public int streamWindowBytes() {
        return streamWindowBytes;
    }

    /**
     * Why the server refused requests of the connections a protocol watches: the typed reason beside a refusal's
     * 1.3.1 answer (an unknown or a forbidden caller), noted by the server's token gate and authorization.
     */
    public RefusalReasons refusalReasons() {
        return refusalReasons;
    }
}
