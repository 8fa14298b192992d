package io.jupiter.rpc.protocol;

import io.jupiter.common.Requires;
import io.jupiter.transport.Connection;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link RefusalReason}s of one server's refusals, for the connections a {@link ServerProtocol} serves: the
 * provider's token gate and authorization note here why they refuse a request, just before the answer is written
 * (the answer itself, the 1.3.1 status and text, is unchanged), and the protocol takes the reason when that answer
 * reaches it. Only watched connections are noted: on a 1.3.1 connection a refusal costs one failed map look-up.
 * One per server ({@link ServiceCatalog#refusalReasons()}); thread-safe.
 */
public final class RefusalReasons {

    /**
     * The reasons noted for one connection and not taken yet. Bounded: a note beyond {@value #MAX_NOTES} is dropped
     * (its answer then maps by its status alone), so answers a protocol never sees cannot grow it without bound.
     */
    public static final class Watch {

        /** Notes one connection holds at most. */
        public static final int MAX_NOTES = 1024;

        private final ConcurrentHashMap<Long, RefusalReason> byId = new ConcurrentHashMap<>();

        private Watch() {
        }

        private void note(long id, RefusalReason reason) {
            if (byId.size() < MAX_NOTES) {
                byId.put(id, reason);
            }
        }

        /**
         * The reason noted for the refusal of request (or stream) {@code id}, removed; {@code null} if the
         * provider noted none (the answer is not one of the refusals {@link RefusalReason} names).
         */
        public RefusalReason take(long id) {
            return byId.isEmpty() ? null : byId.remove(id);
        }
    }

    private final ConcurrentHashMap<Connection, Watch> watched = new ConcurrentHashMap<>();

    /** Starts noting the reasons of the refusals of {@code connection}; {@link #forget} it once it closes. */
    public Watch watch(Connection connection) {
        return watched.computeIfAbsent(Requires.notNull(connection, "connection"), c -> new Watch());
    }

    /** Stops noting for {@code connection}, dropping what was not taken. */
    public void forget(Connection connection) {
        watched.remove(connection);
    }

    /**
     * Notes, before the provider answers request {@code id} of {@code connection}, why it refuses it; nothing if
     * no protocol watches the connection.
     */
    public void refused(Connection connection, long id, RefusalReason reason) {
        Watch watch = watched.isEmpty() ? null : watched.get(connection);
        if (watch != null) {
            watch.note(id, reason);
        }
    }

    /** Connections watched now (for tests). */
    public int watchedConnections() {
        return watched.size();
    }
}
