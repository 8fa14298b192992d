package io.jupiter.registry.zookeeper;

import io.jupiter.common.LogText;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.internal.ProviderRecords;
import io.jupiter.registry.internal.RegistryWorker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
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
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
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
 *       consumer without them still reads the providers. Before publishing, every parent must be writable only
 *       with the credentials: one open to others is given our ACL (and the service's node loses children others
 *       planted there); one another identity owns is refused, with an ERROR line naming it and the fix.</li>
 * </ul>
 */
final class ZookeeperRegistryService implements RegistryService {

    private static final Logger log = LoggerFactory.getLogger(ZookeeperRegistryService.class);
    private static final long RETRY_MILLIS = 1000;
    /** How often a registration refused for a parent another identity owns is tried again. */
    private static final long SQUATTED_RETRY_MILLIS = 10_000;
    /**
     * The ACL of the nodes created with credentials: all rights for their identity, read for anyone. (Not a
     * {@code List.of}: ZooKeeper asks the list whether it contains {@code null}, which that answers with an NPE.)
     */
    static final List<ACL> ACL = Collections.unmodifiableList(Arrays.asList(
            new ACL(ZooDefs.Perms.ALL, ZooDefs.Ids.AUTH_IDS),
            new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)));

    private final CuratorFramework curator;
    private final RegistryWorker worker = new RegistryWorker("jupiter-registry-zk");
    private final ProviderRecords records = new ProviderRecords("zookeeper");
    private final String localHost;
    private final boolean protect;
    /** The credentials' identity as ZooKeeper stores it in an ACL ({@code null} without credentials). */
    private final Id identity;

    // Worker-confined.
    private final Set<RegisterMeta> registered = new LinkedHashSet<>();
    private final Set<RegisterMeta> created = new LinkedHashSet<>();
    /** Registrations not published because a parent is another identity's (logged once each). */
    private final Set<RegisterMeta> refused = new LinkedHashSet<>();
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
        this.identity = digest == null ? null : identity(checkDigest(digest));
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

    private static Id identity(String digest) {
        try {
            return new Id("digest", DigestAuthenticationProvider.generateDigest(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("ZooKeeper digest credentials: SHA-1 is not available", e);
        }
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
            refused.remove(withHost);
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
    public long skippedRecords() {
        return records.skipped();
    }

    /** The worker (fault tests name its steps: read, parse, apply). */
    RegistryWorker worker() {
        return worker;
    }

    @Override
    public List<RegisterMeta> lookup(ServiceMeta service) {
        return worker.query(() -> known.getOrDefault(service, List.of()), List.of());
    }

    @Override
    public boolean awaitRegistered(long timeoutMillis) throws InterruptedException {
        return worker.await(() -> created.containsAll(registered), timeoutMillis);
    }

    // ---- worker ----

    private void create(RegisterMeta meta) {
        if (closed || !registered.contains(meta)) {
            return;
        }
        String path = ProviderNodes.node(meta);
        try {
            if (protect) {
                String squatted = claimParents(ProviderNodes.parent(meta.service()));
                if (squatted != null) {
                    if (refused.add(meta)) {
                        log.error("not publishing {} to ZooKeeper: {} exists and others than our credentials may"
                                + " write to it, and we cannot change its ACL (another identity owns it). Anyone"
                                + " who may write there could remove our node or publish beside it. Fix: delete {}"
                                + " (and what is under it) as its owner or ZooKeeper's super user, then our"
                                + " providers re-create it with their ACL; retrying every {} ms", meta, squatted,
                                squatted, SQUATTED_RETRY_MILLIS);
                    }
                    retry(() -> create(meta), SQUATTED_RETRY_MILLIS);
                    return;
                }
                refused.remove(meta);
            }
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

    /**
     * Makes every node from {@code /jupiter} down to {@code parent} writable only with our credentials before a
     * provider node is created under it: a missing one is created with our {@link #ACL}; one that others may write
     * to (made by a client without credentials, such as a consumer that subscribed first, by 1.3.1, or by someone
     * who got there first) is given our ACL if we may change it, and then the service's own node loses the
     * children others planted there. Returns the first node we cannot take back (another identity owns it), or
     * {@code null}.
     */
    private String claimParents(String parent) throws Exception {
        for (int slash = parent.indexOf('/', 1); ; slash = parent.indexOf('/', slash + 1)) {
            String path = slash < 0 ? parent : parent.substring(0, slash);
            List<ACL> acl;
            try {
                acl = curator.getACL().forPath(path);
            } catch (KeeperException.NoNodeException missing) {
                try {
                    curator.create().withMode(CreateMode.PERSISTENT).forPath(path);
                } catch (KeeperException.NodeExistsException raced) {
                    // created meanwhile: judged on the next pass
                }
                acl = curator.getACL().forPath(path);
            }
            if (writableByOthers(acl)) {
                try {
                    curator.setACL().withACL(ACL).forPath(path);
                } catch (KeeperException.NoAuthException e) {
                    return path;
                }
                log.warn("{} was writable by others than our credentials: now writable only with them", path);
                if (slash < 0) {
                    removePlanted(path);
                }
            }
            if (slash < 0) {
                return null;
            }
        }
    }

    /** Whether an ACL lets anyone but our credentials' identity do more than read. */
    private boolean writableByOthers(List<ACL> acl) {
        for (ACL entry : acl) {
            if (!entry.getId().equals(identity) && (entry.getPerms() & ~ZooDefs.Perms.READ) != 0) {
                return true;
            }
        }
        return false;
    }

    /** Deletes the children of a service's node that were not made with our credentials (their ACL says so). */
    private void removePlanted(String parent) throws Exception {
        for (String child : curator.getChildren().forPath(parent)) {
            String path = parent + "/" + child;
            if (writableByOthers(curator.getACL().forPath(path))
                    || curator.getACL().forPath(path).stream().noneMatch(e -> e.getId().equals(identity))) {
                curator.delete().quietly().forPath(path);
                log.warn("removed {}: published where only our credentials may publish, but not with them",
                        LogText.of(path));
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
            worker.step("read");
            List<String> children = curator.getChildren().usingWatcher(watcher).forPath(parent);
            Map<ProviderAddress, RegisterMeta> providers = new LinkedHashMap<>();
            for (String child : children) {
                worker.step("parse");
                RegisterMeta meta = ProviderNodes.parse(service, child, records);
                if (meta != null) {
                    providers.putIfAbsent(meta.address(), meta); // one provider per address (duplicates)
                }
            }
            apply(service, List.copyOf(providers.values()));
        } catch (Exception e) {
            log.warn("cannot read the providers of {} from ZooKeeper, keeping the last known list; retrying in {} ms: "
                    + "{}", service, RETRY_MILLIS, e.toString());
            retry(() -> read(service));
        }
    }

    private void apply(ServiceMeta service, List<RegisterMeta> providers) {
        worker.step("apply");
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
        retry(task, RETRY_MILLIS);
    }

    private void retry(Runnable task, long delayMillis) {
        try {
            worker.executor().schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("registry closed; not retrying");
        }
    }

    private void run(Runnable task) {
        worker.run(task);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        // Let queued work (a last unregister) finish; retries are dropped.
        worker.close(() -> closed = true);
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
