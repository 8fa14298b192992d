package io.jupiter.example;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.transport.TlsConfig;
import java.nio.file.Path;
import java.util.Set;

/**
 * The example commands' TLS flags. A server ({@code benchmark-server}, {@code registry}, {@code demo}) takes
 * {@code --tls-cert F --tls-key F [--tls-trust F --tls-client-auth]}: its certificate and key, and for mutual TLS the
 * CAs of client certificates and the switch that requires one. A client ({@code benchmark-client}) takes
 * {@code --tls-trust F [--tls-cert F --tls-key F]}: the CAs it trusts and, for a server that requires one, its own
 * certificate. Files are PEM (see {@link TlsConfig}). Without these flags everything is plaintext, as 1.3.1.
 */
public final class TlsOption {

    /** The flags this class reads. */
    public static final Set<String> FLAGS = Set.of("tls-cert", "tls-key", "tls-trust", "tls-client-auth");
    /** The flags of {@link #FLAGS} that take no value. */
    public static final Set<String> SWITCHES = Set.of("tls-client-auth");

    private TlsOption() {
    }

    /**
     * A server's TLS from {@code --tls-cert}, {@code --tls-key}, {@code --tls-trust} and {@code --tls-client-auth};
     * {@code null} when none is given.
     *
     * @throws IllegalArgumentException if the flags are incomplete or a file does not exist
     */
    public static TlsConfig server(Flags args) {
        String cert = args.get("tls-cert", null);
        String key = args.get("tls-key", null);
        if (cert == null && key == null) {
            if (args.has("tls-trust") || args.has("tls-client-auth")) {
                throw new IllegalArgumentException("--tls-trust and --tls-client-auth need --tls-cert and --tls-key");
            }
            return null;
        }
        if (cert == null || key == null) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
        }
        TlsConfig.Builder tls = TlsConfig.builder().keyPair(Path.of(cert), Path.of(key))
                .requireClientAuth(args.has("tls-client-auth"));
        String trust = args.get("tls-trust", null);
        if (trust != null) {
            tls.trust(Path.of(trust));
        }
        return tls.build();
    }

    /**
     * A client's TLS from {@code --tls-trust} and optionally {@code --tls-cert} and {@code --tls-key}; {@code null}
     * when none is given.
     *
     * @throws IllegalArgumentException if the flags are incomplete or a file does not exist
     */
    public static TlsConfig client(Flags args) {
        String trust = args.get("tls-trust", null);
        String cert = args.get("tls-cert", null);
        String key = args.get("tls-key", null);
        if (trust == null) {
            if (cert != null || key != null) {
                throw new IllegalArgumentException("--tls-cert and --tls-key need --tls-trust (the server's CA)");
            }
            return null;
        }
        TlsConfig.Builder tls = TlsConfig.builder().trust(Path.of(trust));
        if (cert != null || key != null) {
            if (cert == null || key == null) {
                throw new IllegalArgumentException("--tls-cert and --tls-key go together");
            }
            tls.keyPair(Path.of(cert), Path.of(key));
        }
        return tls.build();
    }

    /**
     * The client side of a process that also serves with {@code server}'s flags ({@code demo}): it trusts
     * {@code --tls-trust} (else the server's certificate itself, which suits a self-signed one) and, with
     * {@code --tls-client-auth}, presents the server's own certificate (which then must allow client use too);
     * {@code null} when {@code server} is.
     */
    public static TlsConfig sameProcessClient(TlsConfig server) {
        if (server == null) {
            return null;
        }
        TlsConfig.Builder tls = TlsConfig.builder();
        tls.trust(server.trustFile() != null ? server.trustFile() : server.certificateFile());
        if (server.requireClientAuth()) {
            tls.keyPair(server.certificateFile(), server.keyFile());
        }
        return tls.build();
    }
}
