package io.jupiter.registry;

import java.util.List;

/**
 * A connection to a service registry. Thread-safe. Every operation returns at once: registrations and
 * subscriptions are kept and replayed whenever the registry connection is (re-)established, so they survive
 * registry restarts and session loss.
 */
public interface RegistryService extends AutoCloseable {

    /** The scheme this registry was found by, e.g. {@code default} or {@code zookeeper}. */
    String scheme();

    /** Publishes a provider; kept until {@link #unregister} or {@link #close}. */
    void register(RegisterMeta meta);

    /** Withdraws a provider published with {@link #register}. */
    void unregister(RegisterMeta meta);

    /**
     * Subscribes to the providers of a service; {@code listener} hears the list now (if known) and after every
     * change, until {@link #close}.
     */
    void subscribe(ServiceMeta service, NotifyListener listener);

    /** The providers of a service known right now (empty if none is known yet). */
    List<RegisterMeta> lookup(ServiceMeta service);

    /**
     * Waits until the registry connection is up and every registration made so far has been accepted.
     *
     * @return whether that happened within the timeout
     */
    boolean awaitRegistered(long timeoutMillis) throws InterruptedException;

    /**
     * Records this client read from the registry and skipped as invalid (a port outside 1-65535, an address that is
     * not what the record's type allows, another service key...): each record and cause counted once, however many
     * updates repeated it. Each was logged once, with its cause.
     */
    default long skippedRecords() {
        return 0;
    }

    /**
     * Tells the registry a consumer cannot reach {@code address} (it refused or lost every connection). A registry
     * that looks providers up on a period (DNS) looks again soon, no more often than its floor; the others, which
     * are told of changes, ignore it.
     */
    default void reportUnreachable(ProviderAddress address) {
    }

    /** Withdraws every registration of this client, stops listening and closes the connection. */
    @Override
    void close();
}
