package io.jupiter.registry.zookeeper;

import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.SystemProperties;
import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper registry. Every ZooKeeper operation runs on one worker thread, so the state needs no locks and a
 * slow ZooKeeper never blocks a caller.
 *
 * <ul>
 *   <li>Registering creates the ephemeral node (parents persistent); a failure is retried every second.</li>
 *   <li>Subscribing reads the children of the service's parent with a watch, and reads again on every change.</li>
 *   <li>After a reconnect (including a new session after expiry) every registration is re-created and every
 *       subscription re-read.</li>
 *   <li>Empty-push protection: an empty child list, or a registry that cannot be reached, never replaces a
 *       non-empty list; it is logged and the last list kept.</li>
 * </ul>
 */
final class ZookeeperRegistryService implements RegistryService {

    private static final Logger log = LoggerFactory.getLogger(ZookeeperRegistryService.class);
    private static final long RETRY_MILLIS = 1000;

    private final CuratorFramework curator;
    private final ScheduledExecutorService worker;
    private final String localHost;

    // Worker-confined.
    private final Set<RegisterMeta> registered = new LinkedHashSet<>();
    private final Set<RegisterMeta> created = new LinkedHashSet<>();
    private final Map<ServiceMeta, List<NotifyListener>> listeners = new LinkedHashMap<>();
    private final Map<ServiceMeta, List<RegisterMeta>> known = new LinkedHashMap<>();
    private volatile boolean closed;

    ZookeeperRegistryService(String connectString, int sessionTimeoutMs, int connectionTimeoutMs) {
        this.localHost = localAddress();
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                new NamedThreadFactory("jupiter-registry-zk", true));
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.worker = executor;
        this.curator = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(sessionTimeoutMs).connectionTimeoutMs(connectionTimeoutMs)
                .retryPolicy(new ExponentialBackoffRetry(500, 20)).build();
        curator.getConnectionStateListenable().addListener((client, state) -> stateChanged(state));
        curator.start();
    }

    /** The Curator client (tests expire its session). */
    CuratorFramework curator() {
        return curator;
    }

    @Override
    public String scheme() {
        return "zookeeper";
    }

    @Override
    public void register(RegisterMeta meta) {
        RegisterMeta withHost = meta.address().host() == null || meta.address().host().isBlank()
                ? meta.withAddress(meta.address().withHost(localHost)) : meta;
        run(() -> {
            registered.add(withHost);
            create(withHost);
        });
    }

    @Override
    public void unregister(RegisterMeta meta) {
        RegisterMeta withHost = meta.address().host() == null || meta.address().host().isBlank()
                ? meta.withAddress(meta.address().withHost(localHost)) : meta;
        run(() -> {
            registered.remove(withHost);
            created.remove(withHost);
            try {
                curator.delete().quietly().forPath(ProviderNodes.node(withHost));
                log.info("withdrew {} from ZooKeeper", withHost);
            } catch (Exception e) {
                log.warn("cannot delete {} from ZooKeeper (it goes with the session): {}", withHost, e.toString());
            }
        });
    }

    @Override
    public void subscribe(ServiceMeta service, NotifyListener listener) {
        run(() -> {
            List<NotifyListener> list = listeners.get(service);
            boolean first = list == null;
            if (first) {
                list = new CopyOnWriteArrayList<>();
                listeners.put(service, list);
            }
            list.add(listener);
            List<RegisterMeta> providers = known.get(service);
            if (providers != null) {
                listener.providersChanged(service, providers);
            }
            if (first) {
                read(service);
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

    @Override
    public boolean awaitRegistered(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            try {
                if (worker.submit(() -> created.containsAll(registered)).get()) {
                    return true;
                }
            } catch (ExecutionException | RejectedExecutionException e) {
                return false;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(5); // polling the worker's state, bounded by the deadline
        }
    }

    // ---- worker ----

    private void create(RegisterMeta meta) {
        if (closed || !registered.contains(meta)) {
            return;
        }
        String path = ProviderNodes.node(meta);
        try {
            curator.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path);
            log.info("published {} to ZooKeeper", meta);
            created.add(meta);
        } catch (KeeperException.NodeExistsException e) {
            // Ours from this session, or a previous session's that will expire: check whose it is.
            try {
                var stat = curator.checkExists().forPath(path);
                if (stat != null && stat.getEphemeralOwner() == curator.getZookeeperClient().getZooKeeper()
                        .getSessionId()) {
                    created.add(meta);
                    return;
                }
            } catch (Exception ignored) {
                // retried below
            }
            retry(() -> create(meta));
        } catch (Exception e) {
            log.warn("cannot publish {} to ZooKeeper, retrying in {} ms: {}", meta, RETRY_MILLIS, e.toString());
            retry(() -> create(meta));
        }
    }

    private void read(ServiceMeta service) {
        if (closed) {
            return;
        }
        String parent = ProviderNodes.parent(service);
        try {
            try {
                curator.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(parent);
            } catch (KeeperException.NodeExistsException expected) {
                // the usual case
            }
            CuratorWatcher watcher = event -> {
                if (event.getType() != Watcher.Event.EventType.None) {
                    run(() -> read(service));
                }
            };
            List<String> children = curator.getChildren().usingWatcher(watcher).forPath(parent);
            List<RegisterMeta> providers = new ArrayList<>();
            for (String child : children) {
                try {
                    providers.add(ProviderNodes.parse(service, child));
                } catch (IllegalArgumentException e) {
                    log.warn("ignoring {}: {}", parent, e.getMessage());
                }
            }
            apply(service, List.copyOf(providers));
        } catch (Exception e) {
            log.warn("cannot read the providers of {} from ZooKeeper, keeping the last known list; retrying in {} ms: "
                    + "{}", service, RETRY_MILLIS, e.toString());
            retry(() -> read(service));
        }
    }

    private void apply(ServiceMeta service, List<RegisterMeta> providers) {
        List<RegisterMeta> last = known.get(service);
        if (providers.equals(last)) {
            return;
        }
        if (providers.isEmpty() && last != null && !last.isEmpty()) {
            log.warn("ZooKeeper reports no provider of {}; keeping the last known {} (empty-push protection)",
                    service, last.size());
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

    private void stateChanged(ConnectionState state) {
        log.info("ZooKeeper connection {}", state);
        if (state == ConnectionState.RECONNECTED) {
            run(() -> {
                created.clear();
                for (RegisterMeta meta : registered) {
                    create(meta);
                }
                for (ServiceMeta service : listeners.keySet()) {
                    read(service);
                }
            });
        }
    }

    private void retry(Runnable task) {
        try {
            worker.schedule(task, RETRY_MILLIS, TimeUnit.MILLISECONDS);
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
        // Let queued work (a last unregister) finish; retries are dropped.
        worker.shutdown();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed = true;
        worker.shutdownNow();
        // Closing the session removes our ephemeral nodes.
        curator.close();
    }

    private static String localAddress() {
        String configured = SystemProperties.get("jupiter.local.address", null);
        if (configured != null) {
            return configured;
        }
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            return "127.0.0.1";
        }
    }
}
