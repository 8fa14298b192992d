package io.jupiter.transport.netty.internal;

import io.jupiter.transport.TransportException;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file of a Unix domain socket an acceptor binds. Binding fails when the file exists, and a server that crashed
 * leaves it behind; so before binding, a leftover file is deleted, but only if it is a socket and nothing accepts on
 * it. Anything else there (a regular file, a directory, a socket some process serves) is left alone and binding
 * fails with a message saying which.
 *
 * <p>Once bound, the file is made readable and writable by its owner only ({@code rw-------}): connecting needs write
 * permission on it, so only processes of the same user can connect. Whoever else should connect is let in by
 * changing the file's permissions after the server started (or running the callers as the same user); the directory
 * holding the file is the other guard, and a directory only its owner can write keeps the file from being replaced.
 */
public final class SocketFiles {

    private static final Logger logger = LoggerFactory.getLogger(SocketFiles.class);

    /** {@code S_IFMT} and {@code S_IFSOCK} of {@code stat(2)}'s mode. */
    private static final int FILE_TYPE_MASK = 0170000;
    private static final int SOCKET_TYPE = 0140000;

    private static final Set<PosixFilePermission> OWNER_ONLY =
            Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private SocketFiles() {
    }

    /**
     * Makes {@code path} free to bind: nothing to do if there is no file; a socket nothing accepts on is deleted.
     *
     * @throws TransportException if a file is there that must stay: not a socket, or a socket in use (or whose use
     *         cannot be told)
     */
    public static void prepare(Path path) {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        String where = "cannot bind unix:" + path + ": ";
        if (!isSocket(path)) {
            throw inUse(where + "the file exists and is not a socket (left alone)");
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            throw inUse(where + "another process accepts connections on it");
        } catch (ConnectException refused) {
            // Nothing listens: a leftover of a server that did not close.
        } catch (IOException e) {
            throw new TransportException(where + "cannot tell whether a process accepts on it (" + e + ")", e);
        }
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw new TransportException(where + "cannot delete the stale socket file (" + e + ")", e);
        }
        logger.info("deleted the stale socket file {} (nothing accepted on it)", path);
    }

    /** A failure to bind because the path is taken, caused by the {@link BindException} {@code bind(2)} would give. */
    private static TransportException inUse(String message) {
        return new TransportException(message, new BindException("Address already in use"));
    }

    /** Makes the bound socket file {@code rw-------}; a file system without POSIX permissions is left as it is. */
    public static void restrictToOwner(Path path) {
        try {
            Files.setPosixFilePermissions(path, OWNER_ONLY);
        } catch (UnsupportedOperationException e) {
            logger.debug("cannot set the permissions of {}: {}", path, e.toString());
        } catch (IOException e) {
            throw new TransportException("cannot restrict the permissions of the socket file " + path + " (" + e
                    + ")", e);
        }
    }

    /** Deletes {@code path} if it is still a socket (after the acceptor closed); never throws. */
    public static void deleteIfSocket(Path path) {
        try {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && isSocket(path)) {
                Files.delete(path);
            }
        } catch (IOException | RuntimeException e) {
            logger.warn("cannot delete the socket file {}: {}", path, e.toString());
        }
    }

    /** Whether {@code path} is a socket (not following a symbolic link). */
    static boolean isSocket(Path path) {
        try {
            int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return (mode & FILE_TYPE_MASK) == SOCKET_TYPE;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // No "unix" attribute view: treat it as a file that must stay.
            return false;
        }
    }
}
