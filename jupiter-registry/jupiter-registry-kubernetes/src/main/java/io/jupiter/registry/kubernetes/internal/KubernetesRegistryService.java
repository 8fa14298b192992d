package io.jupiter.registry.kubernetes.internal;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.jupiter.common.NamedThreadFactory;
import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.kubernetes.KubernetesRegistryFactory;
import io.jupiter.registry.kubernetes.KubernetesTarget;
import io.jupiter.registry.kubernetes.ServiceLabels;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kubernetes registry. One worker thread owns all state and talks to the API server, so a slow API server never
 * blocks a caller and nothing needs a lock.
 *
 * <ul>
 *   <li>Consumers: the first subscription makes the Kubernetes client and starts one list-then-watch of the
 *       namespace's EndpointSlices that carry {@link ServiceLabels#SERVICE} (one watch serves every service key).
 *       Whenever the watch ends (closed by the server, a 410 Gone, a broken connection) the slices are listed
 *       afresh and a new watch starts from the list's resource version. A failed list or watch is retried with
 *       exponential back-off ({@value #MIN_BACKOFF_MILLIS} ms doubling to {@value #MAX_BACKOFF_MILLIS} ms, with
 *       jitter), and so is every watch but the first of a row that ends within {@value #MIN_WATCH_MILLIS} ms of its
 *       start; meanwhile the last list is kept.</li>
 *   <li>Empty-push protection: a change that would leave a service with no callable endpoint while it had some is
 *       logged and ignored (the last list is kept), as the other registries do.</li>
 *   <li>Providers: {@link #register} and {@link #unregister} do nothing (Kubernetes publishes a pod through its
 *       Service when its readiness probe passes).</li>
 * </ul>
 */
public final class KubernetesRegistryService implements RegistryService {

    private static final Logger log = LoggerFactory.getLogger(KubernetesRegistryService.class);
    static final long MIN_BACKOFF_MILLIS = 200;
    static final long MAX_BACKOFF_MILLIS = 5000;
    /** A watch that ends sooner than this after it started counts as a failure (back-off before the next list). */
    static final long MIN_WATCH_MILLIS = 1000;

    private final KubernetesTarget target;
    private final ScheduledThreadPoolExecutor worker;

    // Worker-confined.
    private KubernetesClient client;
    private Watch watch;
    private Object watchId;
    private long watchStartedNanos;
    private int failures;
    private final Map<String, EndpointSlice> slices = new HashMap<>();
    private final Map<ServiceMeta, List<NotifyListener>> listeners = new LinkedHashMap<>();
    private final Map<ServiceMeta, List<RegisterMeta>> known = new LinkedHashMap<>();
    private volatile boolean closed;
    private volatile long lists;
    private volatile long watches;

    public KubernetesRegistryService(KubernetesTarget target) {
        this.target = target;
        this.worker = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("jupiter-registry-k8s", true));
        worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public String scheme() {
        return KubernetesRegistryFactory.SCHEME;
    }

    @Override
    public void register(RegisterMeta meta) {
        log.debug("{} not registered: in Kubernetes a pod is published by its Service once ready", meta);
    }

    @Override
    public void unregister(RegisterMeta meta) {
        log.debug("{} not unregistered: in Kubernetes a pod leaves its Service when it stops being ready", meta);
    }

    @Override
    public void subscribe(ServiceMeta service, NotifyListener listener) {
        ServiceLabels.checkLabelable(service);
        run(() -> {
            List<NotifyListener> list = listeners.computeIfAbsent(service, s -> new CopyOnWriteArrayList<>());
            list.add(listener);
            if (client == null) {
                relist();
                return;
            }
            List<RegisterMeta> providers = known.get(service);
            if (providers != null) {
                listener.providersChanged(service, providers);
            } else {
                update(service);
            }
        });
    }

    @Override
    public List<RegisterMeta> lookup(ServiceMeta service) {
        try {
            return worker.submit(() -> known.getOrDefault(service, List.of())).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | RejectedExecutionException e) {
            return List.of();
        }
    }

    /** Nothing is ever registered: true at once. */
    @Override
    public boolean awaitRegistered(long timeoutMillis) {
        return true;
    }

    /** Lists completed so far (tests). */
    public long listCount() {
        return lists;
    }

    /** Watches started so far (tests). */
    public long watchCount() {
        return watches;
    }

    // ---- worker ----

    private void relist() {
        if (closed) {
            return;
        }
        stopWatch();
        try {
            if (client == null) {
                client = newClient(target);
            }
            EndpointSliceList list = client.discovery().v1().endpointSlices().inNamespace(target.namespace())
                    .withLabel(ServiceLabels.SERVICE).list();
            slices.clear();
            for (EndpointSlice slice : list.getItems()) {
                slices.put(slice.getMetadata().getName(), slice);
            }
            lists++;
            for (ServiceMeta service : listeners.keySet()) {
                update(service);
            }
            Object id = new Object();
            watchId = id;
            watch = client.discovery().v1().endpointSlices().inNamespace(target.namespace())
                    .withLabel(ServiceLabels.SERVICE).watch(new ListOptionsBuilder()
                            .withResourceVersion(list.getMetadata().getResourceVersion())
                            .withAllowWatchBookmarks(true).build(), new SliceWatcher(id));
            watches++;
            watchStartedNanos = System.nanoTime();
            if (failures > 0) {
                log.info("watching the EndpointSlices of namespace {} again", target.namespace());
            }
            failures = 0;
        } catch (RuntimeException e) {
            failures++;
            long delay = backoffMillis(failures);
            log.warn("cannot list or watch the EndpointSlices of namespace {} ({} in a row), keeping the last known "
                    + "providers; retrying in {} ms: {}", target.namespace(), failures, delay, e.toString());
            schedule(this::relist, delay);
        }
    }

    private void watchEnded(Object id, WatcherException cause) {
        if (closed || id != watchId) {
            return;
        }
        watchId = null;
        if (cause.isHttpGone()) {
            log.info("watch of namespace {} expired (410 Gone); listing again", target.namespace());
        } else {
            log.info("watch of namespace {} ended ({}); listing again", target.namespace(), cause.getMessage());
        }
        if (System.nanoTime() - watchStartedNanos < TimeUnit.MILLISECONDS.toNanos(MIN_WATCH_MILLIS)) {
            // A watch that keeps ending at once must not turn into a loop of lists: from the second in a row, back
            // off as after a failure.
            failures++;
            schedule(this::relist, failures == 1 ? 0 : backoffMillis(failures - 1));
        } else {
            relist();
        }
    }

    private void sliceChanged(Object id, Watcher.Action action, EndpointSlice slice) {
        if (closed || id != watchId || slice == null || slice.getMetadata() == null) {
            return;
        }
        switch (action) {
            case ADDED, MODIFIED -> slices.put(slice.getMetadata().getName(), slice);
            case DELETED -> slices.remove(slice.getMetadata().getName());
            default -> {
                return; // bookmarks and errors change no slice
            }
        }
        for (ServiceMeta service : listeners.keySet()) {
            update(service);
        }
    }

    private void update(ServiceMeta service) {
        List<RegisterMeta> providers = SliceProviders.providers(service, target.portName(), slices.values());
        List<RegisterMeta> last = known.get(service);
        if (providers.equals(last)) {
            return;
        }
        if (providers.isEmpty() && last != null && !last.isEmpty()) {
            log.warn("no ready endpoint of {} in namespace {}; keeping the last known {} (empty-push protection)",
                    service, target.namespace(), last.size());
            return;
        }
        known.put(service, providers);
        for (NotifyListener listener : listeners.getOrDefault(service, List.of())) {
            try {
                listener.providersChanged(service, providers);
            } catch (RuntimeException e) {
                log.warn("registry listener failed for {}", service, e);
            }
        }
    }

    private void stopWatch() {
        watchId = null;
        Watch current = watch;
        watch = null;
        if (current != null) {
            try {
                current.close();
            } catch (RuntimeException e) {
                log.debug("closing a watch: {}", e.toString());
            }
        }
    }

    static long backoffMillis(int failures) {
        long delay = MIN_BACKOFF_MILLIS << Math.min(failures - 1, 10);
        delay = Math.min(delay, MAX_BACKOFF_MILLIS);
        return delay - ThreadLocalRandom.current().nextLong(delay / 5 + 1);
    }

    /**
     * The client: the configuration the Kubernetes client finds (the pod's service account, or a kubeconfig), with
     * the target's API server if it names one. The client neither retries requests nor resumes watches by itself:
     * this registry does both, so that it always lists afresh after a watch ends. It speaks HTTP/1.1.
     */
    private static KubernetesClient newClient(KubernetesTarget target) {
        ConfigBuilder config = new ConfigBuilder(Config.autoConfigure(null)).withWatchReconnectLimit(0)
                .withRequestRetryBackoffLimit(0).withNamespace(target.namespace());
        if (target.apiServer() != null) {
            config.withMasterUrl(target.apiServer());
        }
        return new KubernetesClientBuilder().withConfig(config.build())
                .withHttpClientBuilderConsumer(builder -> builder.preferHttp11()).build();
    }

    private void schedule(Runnable task, long delayMillis) {
        try {
            worker.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("registry closed; not retrying");
        }
    }

    private void run(Runnable task) {
        try {
            worker.execute(task);
        } catch (RejectedExecutionException e) {
            log.debug("registry closed; dropping a task");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        run(() -> {
            stopWatch();
            if (client != null) {
                client.close();
                client = null;
            }
        });
        worker.shutdown();
        try {
            if (!worker.awaitTermination(5, TimeUnit.SECONDS)) {
                worker.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            worker.shutdownNow();
        }
    }

    /** Hands the watch's callbacks, made on the client's threads, to the worker. */
    private final class SliceWatcher implements Watcher<EndpointSlice> {

        private final Object id;

        SliceWatcher(Object id) {
            this.id = id;
        }

        @Override
        public void eventReceived(Action action, EndpointSlice slice) {
            run(() -> sliceChanged(id, action, slice));
        }

        @Override
        public void onClose(WatcherException cause) {
            run(() -> watchEnded(id, cause));
        }
    }
}
