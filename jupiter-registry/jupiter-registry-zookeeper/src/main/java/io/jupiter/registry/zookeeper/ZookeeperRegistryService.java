package io.jupiter.registry.zookeeper;

import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
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
 *   <li>With digest credentials ({@code user:password}), the session authenticates with them and every node this
 *       client creates (the provider nodes and the parents) gets the ACL {@link #ACL}: everything for the
 *       credentials' identity, reading for anyone. So only clients with the same credentials can publish under a
 *       service (creating and deleting children needs rights on the parent) or delete and change our nodes; a
 *       consumer without them still reads the providers.</li>
 * </ul>
 */
final class ZookeeperRegistryService implements RegistryService {

    private static final Logger log = LoggerFactory.getLogger(ZookeeperRegistryService.class);
    private static final long RETRY_MILLIS = 1000;
    /**
     * The ACL of the nodes created with credentials: all rights for their identity, read for anyone. (Not a
     * {@code List.of}: ZooKeeper asks the list whether it contains {@code null}, which that answers with an NPE.)
     */
    static final List<ACL> ACL = Collections.unmodifiableList(Arrays.asList(
            new ACL(ZooDefs.Perms.ALL, ZooDefs.Ids.AUTH_IDS), new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)));

    private final CuratorFramework curator;
    private final ScheduledExecutorService worker;
    private final String localHost;
    private final boolean protect;

    // Worker-confined.
    private final Set<RegisterMeta> registered = new LinkedHashSet<>();
    private final Set<RegisterMeta> created = new LinkedHashSet<>();
    private final Map<ServiceMeta, List<NotifyListener>> listeners = new LinkedHashMap<>();
    private final Map<ServiceMeta, List<RegisterMeta>> known = new LinkedHashMap<>();
    private volatile boolean closed;

    /**
     * A client of the ZooKeeper ensemble {@code connectString}.
     *
     * @param digest {@code user:password} to authenticate with and protect our nodes, or {@code null} for none
     *               (nodes open to everyone, as 1.3.1 makes them)
     */
    ZookeeperRegistryService(String connectString, int sessionTimeoutMs, int connectionTimeoutMs, String digest) {
        this.localHost = localAddress();
        this.protect = digest != null;
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(sessionTimeoutMs).connectionTimeoutMs(connectionTimeoutMs)
                .retryPolicy(new ExponentialBackoffRetry(500, 20));
        if (digest != null) {
            checkDigest(digest);
            builder.authorization("digest", digest.getBytes(StandardCharsets.UTF_8)).aclProvider(new ACLProvider() {
                @Override
                public List<ACL> getDefaultAcl() {
                    return ACL;
                }

                @Override
                public List<ACL> getAclForPath(String path) {
                    return ACL;
                }
            });
        }
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                new NamedThreadFactory("jupiter-registry-zk", true));
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.worker = executor;
        this.curator = builder.build();
        curator.getConnectionStateListenable().addListener((client, state) -> stateChanged(state));
        curator.start();
    }

    /**
     * Checks digest credentials without ever echoing them.
     *
     * @throws IllegalArgumentException unless {@code user:password} with both parts non-empty
     */
    static String checkDigest(String digest) {
        int colon = digest.indexOf(':');
        if (colon <= 0 || colon == digest.length() - 1) {
            throw new IllegalArgumentException("ZooKeeper digest credentials: malformed (expected: user:password, "
                    + "both non-empty)");
        }
        return digest;
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
            if (protect) {
                protectParents(ProviderNodes.parent(meta.service()));
            }
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

    /**
     * Gives our ACL to the parents of a provider node that anyone may write to (made by a client without
     * credentials, such as a consumer that subscribed first, or by 1.3.1): otherwise anyone could publish under
     * them or delete our nodes.
     */
    private void protectParents(String parent) {
        for (int slash = parent.indexOf('/', 1); ; slash = parent.indexOf('/', slash + 1)) {
            String path = slash < 0 ? parent : parent.substring(0, slash);
            try {
                boolean open = false;
                for (ACL entry : curator.getACL().forPath(path)) {
                    open |= entry.getId().equals(ZooDefs.Ids.ANYONE_ID_UNSAFE)
                            && (entry.getPerms() & ~ZooDefs.Perms.READ) != 0;
                }
                if (open) {
                    curator.setACL().withACL(ACL).forPath(path);
                    log.info("{} was open to everyone: now writable only with our credentials", path);
                }
            } catch (Exception e) {
                log.warn("cannot protect {} (anyone may write to it): {}", path, e.toString());
            }
            if (slash < 0) {
                return;
            }
        }
    }

    private void read(ServiceMeta service) {
        if (closed) {
            return;
        }
        String parent = ProviderNodes.parent(service);
        CuratorWatcher watcher = event -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                run(() -> read(service));
            }
        };
        try {
            try {
                curator.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(parent);
            } catch (KeeperException.NodeExistsException expected) {
                // the usual case
            } catch (KeeperException.NoAuthException e) {
                // Nodes protected by credentials this client has not: it may read them, not create them. Until a
                // provider creates the parent, watch for it.
                if (curator.checkExists().usingWatcher(watcher).forPath(parent) == null) {
                    log.debug("{} does not exist yet and is not ours to create; waiting for it", parent);
                    return;
                }
            }
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
        String configured = JupiterSettings.LOCAL_ADDRESS.get();
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
