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
import io.jupiter.common.LogText;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.internal.ProviderRecords;
import io.jupiter.registry.internal.ReadOnlyRegistryService;
import io.jupiter.registry.internal.RegistryWorker;
import io.jupiter.registry.kubernetes.KubernetesTarget;
import io.jupiter.registry.kubernetes.ServiceLabels;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
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
 *       exponential back-off ({@value #MIN_BACKOFF_MILLIS} ms doubling to {@code jupiter.registry.retry.max.millis},
 *       1 s by default, with jitter; reset by the first list that succeeds), and so is every watch but the first of
 *       a row that ends within {@value #MIN_WATCH_MILLIS} ms of its start; meanwhile the last list is kept. A watch
 *       that delivers nothing (no change, no bookmark) for {@code jupiter.registry.kubernetes.watch.idle.millis}
 *       (2 min) is replaced the same way, so a connection that died without a word costs at most that long. An
 *       outage logs one WARN line (the cause and the retry interval) and one INFO line when the API server answers
 *       again.</li>
 *   <li>Untrusted slices: every endpoint passes {@link ProviderRecords} (see {@link SliceProviders}) before it
 *       becomes a target; a bad one is skipped with one WARN line and counted ({@link #skippedRecords()}). A task
 *       that throws all the same is logged and followed by a fresh list, so no slice can stop discovery.</li>
 *   <li>Empty-push protection: a change that would leave a service with no callable endpoint while it had some is
 *       logged and ignored (the last list is kept), as the other registries do.</li>
 *   <li>Providers: {@link #register} and {@link #unregister} do nothing (Kubernetes publishes a pod through its
 *       Service when its readiness probe passes).</li>
 * </ul>
 */
public final class KubernetesRegistryService extends ReadOnlyRegistryService {

    private static final Logger log = LoggerFactory.getLogger(KubernetesRegistryService.class);
    static final long MIN_BACKOFF_MILLIS = 200;

    /** A watch that ends sooner than this after it started counts as a failure (back-off before the next list). */
    static final long MIN_WATCH_MILLIS = 1000;


    private final KubernetesTarget target;
    private final long maxBackoffMillis = JupiterSettings.REGISTRY_RETRY_MAX_MILLIS.get();
    private final long watchIdleMillis = JupiterSettings.K8S_WATCH_IDLE_MILLIS.get();

    // Worker-confined.
    private KubernetesClient client;
    private Watch watch;
    private Object watchId;
    private long watchStartedNanos;
    /** When the current watch last delivered anything (a change, a bookmark), or started. */
    private long watchHeardNanos;
    private int failures;
    /** When the current outage began (the first failed list in a row), or 0. */
    private long outageStartedNanos;
    private final Map<String, EndpointSlice> slices = new HashMap<>();
    private final Map<ServiceMeta, List<RegisterMeta>> known = new LinkedHashMap<>();
    private volatile long lists;
    private volatile long watches;
    private volatile long events;

    public KubernetesRegistryService(KubernetesTarget target) {
        super(KubernetesTarget.SCHEME, log, "in Kubernetes a pod is published by its Service once ready",
                new RegistryWorker("jupiter-registry-k8s"));
        this.target = target;
    }

    @Override
    public void subscribe(ServiceMeta service, NotifyListener listener) {
        ServiceLabels.checkLabelable(service);
        worker.run(() -> {
            subscriptions.add(service, listener);
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
        return worker.query(() -> known.getOrDefault(service, List.of()), List.of());
    }

    /** Lists completed so far (tests). */
    public long listCount() {
        return lists;
    }

    /** Watch events received so far (tests). */
    public long eventCount() {
        return events;
    }

    /** Watches started so far (tests). */
    public long watchCount() {
        return watches;
    }

    // ---- worker ----

    private void relist() {
        if (closed()) {
            return;
        }
        stopWatch();
        try {
            if (client == null) {
                client = newClient(target);
            }
            worker.step("list");
            EndpointSliceList list = client.discovery().v1().endpointSlices().inNamespace(target.namespace())
                    .withLabel(ServiceLabels.SERVICE).list();
            slices.clear();
            for (EndpointSlice slice : list.getItems()) {
                if (slice != null && slice.getMetadata() != null && slice.getMetadata().getName() != null) {
                    slices.put(slice.getMetadata().getName(), slice);
                }
            }
            lists++;
            for (ServiceMeta service : subscriptions.services()) {
                update(service);
            }
            worker.step("watch");
            Object id = new Object();
            watchId = id;
            watch = client.discovery().v1().endpointSlices().inNamespace(target.namespace())
                    .withLabel(ServiceLabels.SERVICE).watch(new ListOptionsBuilder()
                            .withResourceVersion(list.getMetadata().getResourceVersion())
                            .withAllowWatchBookmarks(true).build(), new SliceWatcher(id));
            watches++;
            watchStartedNanos = System.nanoTime();
            watchHeardNanos = watchStartedNanos;
            schedule(() -> checkSilence(id), watchIdleMillis);
            if (outageStartedNanos != 0) {
                log.info("the API server answers again: watching the EndpointSlices of namespace {} again (after {} "
                        + "ms)", target.namespace(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                        - outageStartedNanos));
                outageStartedNanos = 0;
            }
            failures = 0;
        } catch (RuntimeException e) {
            failures++;
            long delay = backoffMillis(failures, maxBackoffMillis);
            if (outageStartedNanos == 0) {
                outageStartedNanos = System.nanoTime();
                log.warn("cannot list or watch the EndpointSlices of namespace {}, keeping the last known providers; "
                        + "retrying in {} ms, then at most every {} ms until it answers: {}", target.namespace(),
                        delay, maxBackoffMillis, cause(e));
            } else {
                log.debug("still cannot list the EndpointSlices of namespace {} ({} in a row); retrying in {} ms: {}",
                        target.namespace(), failures, delay, cause(e));
            }
            schedule(this::relist, delay);
        }
    }

    private void watchEnded(Object id, WatcherException cause) {
        if (closed() || id != watchId) {
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
            schedule(this::relist, failures == 1 ? 0 : backoffMillis(failures - 1, maxBackoffMillis));
        } else {
            relist();
        }
    }

    /**
     * A watch that delivered nothing for {@code watchIdleMillis} is replaced by a fresh list and watch: its connection
     * may have died without the client reading its end (seen with a connection cut right after a watch started), and
     * a real API server sends a bookmark now and then on a live one.
     */
    private void checkSilence(Object id) {
        if (closed() || id != watchId) {
            return; // that watch ended; its successor checks its own
        }
        long silentNanos = System.nanoTime() - watchHeardNanos;
        long idleNanos = TimeUnit.MILLISECONDS.toNanos(watchIdleMillis);
        if (silentNanos < idleNanos) {
            schedule(() -> checkSilence(id), TimeUnit.NANOSECONDS.toMillis(idleNanos - silentNanos) + 1);
            return;
        }
        log.debug("watch of namespace {} silent for {} ms; listing again", target.namespace(),
                TimeUnit.NANOSECONDS.toMillis(silentNanos));
        relist();
    }

    private void sliceChanged(Object id, Watcher.Action action, EndpointSlice slice) {
        if (closed() || id != watchId) {
            return;
        }
        watchHeardNanos = System.nanoTime();
        if (slice == null || slice.getMetadata() == null || slice.getMetadata().getName() == null) {
            return;
        }
        events++;
        try {
            worker.step("event");
            switch (action) {
                case ADDED, MODIFIED -> slices.put(slice.getMetadata().getName(), slice);
                case DELETED -> slices.remove(slice.getMetadata().getName());
                default -> {
                    return; // bookmarks and errors change no slice
                }
            }
            for (ServiceMeta service : subscriptions.services()) {
                update(service);
            }
        } catch (RuntimeException e) {
            // A bug or a slice no check foresaw: what the slices say is no longer certain, so list them afresh.
            log.warn("cannot apply a change of EndpointSlice {} in namespace {}; listing again: {}",
                    LogText.of(slice.getMetadata().getName()), target.namespace(), e.toString());
            relist();
        }
    }

    private void update(ServiceMeta service) {
        worker.step("update");
        List<RegisterMeta> providers = SliceProviders.providers(service, target.portName(), slices.values(),
                records);
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
        subscriptions.providersChanged(service, providers);
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

    /** The cause of a failure, short: the root cause's message (an outage is expected; no stack trace). */
    private static String cause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? e.toString() : e.getClass().getSimpleName() + " (" + root + ")";
    }

    static long backoffMillis(int failures, long maxMillis) {
        long delay = MIN_BACKOFF_MILLIS << Math.min(failures - 1, 10);
        delay = Math.max(MIN_BACKOFF_MILLIS, Math.min(delay, maxMillis));
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
            worker.executor().schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("registry closed; not retrying");
        }
    }

    @Override
    protected void closing() {
        worker.run(() -> {
            stopWatch();
            if (client != null) {
                client.close();
                client = null;
            }
        });
        worker.close(() -> { });
    }

    /** Hands the watch's callbacks, made on the client's threads, to the worker. */
    private final class SliceWatcher implements Watcher<EndpointSlice> {

        private final Object id;

        SliceWatcher(Object id) {
            this.id = id;
        }

        @Override
        public void eventReceived(Action action, EndpointSlice slice) {
            worker.run(() -> sliceChanged(id, action, slice));
        }

        @Override
        public void onClose(WatcherException cause) {
            worker.run(() -> watchEnded(id, cause));
        }
    }
}
