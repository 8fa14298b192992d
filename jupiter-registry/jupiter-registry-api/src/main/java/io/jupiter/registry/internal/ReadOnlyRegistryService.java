package io.jupiter.registry.internal;

import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import org.slf4j.Logger;

/**
 * The part every registry that only reads shares (DNS, Kubernetes): providers are published by something else, so
 * {@code register} and {@code unregister} do nothing but say why, and {@code awaitRegistered} is true at once. It holds
 * the registry's worker (every change runs on it), its subscriptions and its record checks.
 */
public abstract class ReadOnlyRegistryService implements RegistryService {

    private final String scheme;
    private final Logger log;
    /** Why providers are not published here, for the debug line. */
    private final String publishedBy;
    protected final RegistryWorker worker;
    protected final Subscriptions subscriptions = new Subscriptions();
    protected final ProviderRecords records;
    private volatile boolean closed;

    /**
     * @param scheme      the registry's scheme
     * @param log         the registry's logger
     * @param publishedBy why a provider is not published here, e.g. "the dns registry only reads DNS records"
     * @param worker      the registry's worker, named for its thread
     */
    protected ReadOnlyRegistryService(String scheme, Logger log, String publishedBy, RegistryWorker worker) {
        this.scheme = scheme;
        this.log = log;
        this.publishedBy = publishedBy;
        this.worker = worker;
        this.records = new ProviderRecords(scheme);
    }

    @Override
    public final String scheme() {
        return scheme;
    }

    @Override
    public void register(RegisterMeta meta) {
        log.debug("{} not registered: {}", meta, publishedBy);
    }

    @Override
    public void unregister(RegisterMeta meta) {
        log.debug("{} not unregistered: {}", meta, publishedBy);
    }

    /** Nothing is ever registered: true at once. */
    @Override
    public boolean awaitRegistered(long timeoutMillis) {
        return true;
    }

    @Override
    public long skippedRecords() {
        return records.skipped();
    }

    /** The worker (fault tests name its steps). */
    public RegistryWorker worker() {
        return worker;
    }

    /** Whether {@link #close} was called: a task still queued then does nothing. */
    protected final boolean closed() {
        return closed;
    }

    /** Closes once: the first call runs {@link #closing}, later ones nothing. */
    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        closing();
    }

    /** Releases what the registry holds (its connections, its worker); called once, by the first {@link #close}. */
    protected abstract void closing();
}
