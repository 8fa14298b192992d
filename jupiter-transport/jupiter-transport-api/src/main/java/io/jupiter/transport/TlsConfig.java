package io.jupiter.transport;

import io.jupiter.common.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * TLS settings of one endpoint: an acceptor (server) or a connector (client). Immutable; build with
 * {@link #builder()} and hand to {@link TransportConfig.Builder#tls(TlsConfig)}. Without it an endpoint speaks
 * plaintext, as Jupiter 1.3.1 does (a 1.3.1 peer cannot speak TLS).
 *
 * <pre>{@code
 * // server, with mutual TLS
 * TlsConfig server = TlsConfig.builder().keyPair(Path.of("server.crt"), Path.of("server.key"))
 *         .trust(Path.of("ca.crt")).requireClientAuth(true).build();
 * // client, presenting its certificate
 * TlsConfig client = TlsConfig.builder().trust(Path.of("ca.crt"))
 *         .keyPair(Path.of("client.crt"), Path.of("client.key")).build();
 * }</pre>
 *
 * <p>Files are PEM: a certificate file holds the certificate first, then its chain; a key file holds one unencrypted
 * PKCS#8 private key ({@code BEGIN PRIVATE KEY}, what {@code openssl genpkey} writes; convert an older
 * {@code BEGIN RSA PRIVATE KEY} with {@code openssl pkcs8 -topk8 -nocrypt}); a trust file holds one or more CA
 * certificates. The files are read again, for new connections, whenever one of them changes; open connections keep
 * the certificate they were made with.
 *
 * <table>
 * <caption>Settings</caption>
 * <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 * <tr><td>keyPair (certificate, key)</td><td>none</td><td>what this endpoint presents; required on a server, and on a
 * client when the server requires client certificates</td></tr>
 * <tr><td>trust</td><td>none: a server trusts no client certificate, a client trusts the JDK's default CAs</td>
 * <td>the CAs a peer's certificate must chain to</td></tr>
 * <tr><td>requireClientAuth</td><td>false</td><td>server: refuse a client without a certificate from the trust
 * file (mutual TLS); needs trust</td></tr>
 * <tr><td>verifyHostname</td><td>true</td><td>client: the server certificate must name the host connected to (DNS
 * name or IP address in its subject alternative names)</td></tr>
 * <tr><td>provider</td><td>{@link Provider#AUTO}</td><td>OpenSSL when its native library loads, else the JDK</td></tr>
 * <tr><td>protocols</td><td>TLSv1.3, TLSv1.2 (fixed)</td><td>older versions are refused</td></tr>
 * </table>
 */
public final class TlsConfig {

    /** The protocol versions offered and accepted, newest first; anything older is refused. */
    public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /** Which TLS implementation to use. */
    public enum Provider {
        /** OpenSSL (netty-tcnative) when its native library is available, else the JDK's. */
        AUTO,
        /** OpenSSL; failing if it is not available. */
        OPENSSL,
        /** The JDK's TLS implementation. */
        JDK
    }

    private final Path certificateFile;
    private final Path keyFile;
    private final Path trustFile;
    private final boolean requireClientAuth;
    private final boolean verifyHostname;
    private final Provider provider;

    private TlsConfig(Builder b) {
        this.certificateFile = b.certificateFile;
        this.keyFile = b.keyFile;
        this.trustFile = b.trustFile;
        this.requireClientAuth = b.requireClientAuth;
        this.verifyHostname = b.verifyHostname;
        this.provider = b.provider;
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The PEM certificate (then its chain) this endpoint presents, or {@code null}. */
    public Path certificateFile() {
        return certificateFile;
    }

    /** The PEM PKCS#8 private key of {@link #certificateFile()}, or {@code null}. */
    public Path keyFile() {
        return keyFile;
    }

    /** The PEM CA certificates a peer's certificate must chain to, or {@code null} (see the class comment). */
    public Path trustFile() {
        return trustFile;
    }

    /** Server: whether a client must present a certificate that chains to {@link #trustFile()}. */
    public boolean requireClientAuth() {
        return requireClientAuth;
    }

    /** Client: whether the server's certificate must name the host connected to. */
    public boolean verifyHostname() {
        return verifyHostname;
    }

    /** Which implementation to use. */
    public Provider provider() {
        return provider;
    }

    /** Whether this configuration has a certificate and key, as a server needs. */
    public boolean hasKeyPair() {
        return certificateFile != null;
    }

    @Override
    public String toString() {
        return "TlsConfig[cert=" + certificateFile + ", key=" + keyFile + ", trust=" + trustFile
                + ", requireClientAuth=" + requireClientAuth + ", verifyHostname=" + verifyHostname
                + ", provider=" + provider + ']';
    }

    /** Builder with validated setters; {@link #build()} checks that every named file is a readable file. */
    public static final class Builder {
        private Path certificateFile;
        private Path keyFile;
        private Path trustFile;
        private boolean requireClientAuth;
        private boolean verifyHostname = true;
        private Provider provider = Provider.AUTO;

        private Builder() {
        }

        /** The certificate (chain) and private key this endpoint presents; see the class comment for the format. */
        public Builder keyPair(Path certificateFile, Path keyFile) {
            this.certificateFile = Requires.notNull(certificateFile, "certificateFile");
            this.keyFile = Requires.notNull(keyFile, "keyFile");
            return this;
        }

        /** The CA certificates a peer's certificate must chain to. */
        public Builder trust(Path trustFile) {
            this.trustFile = Requires.notNull(trustFile, "trustFile");
            return this;
        }

        /** Server: require a client certificate chaining to {@link #trust(Path)} (mutual TLS); default false. */
        public Builder requireClientAuth(boolean require) {
            this.requireClientAuth = require;
            return this;
        }

        /** Client: check that the server certificate names the host connected to; default true. */
        public Builder verifyHostname(boolean verify) {
            this.verifyHostname = verify;
            return this;
        }

        /** Which implementation to use; default {@link Provider#AUTO}. */
        public Builder provider(Provider provider) {
            this.provider = Requires.notNull(provider, "provider");
            return this;
        }

        /**
         * The configuration. The files' contents are read (and checked: a key that does not match its certificate,
         * a file with no PEM block) when an acceptor or connector is created with it.
         *
         * @throws IllegalArgumentException if a named file is missing or unreadable, or if client authentication is
         *         required without a trust file
         */
        public TlsConfig build() {
            if (certificateFile != null) {
                readable(certificateFile, "certificate");
                readable(keyFile, "key");
            }
            if (trustFile != null) {
                readable(trustFile, "trust");
            }
            Requires.argument(!requireClientAuth || trustFile != null,
                    "requireClientAuth: true (expected: a trust file naming the CAs of client certificates)");
            return new TlsConfig(this);
        }

        private static void readable(Path file, String role) {
            Requires.argument(Files.isRegularFile(file), "TLS " + role + " file: " + file
                    + " (expected: an existing file)");
            Requires.argument(Files.isReadable(file), "TLS " + role + " file: " + file
                    + " (expected: readable by this process)");
        }
    }
}
