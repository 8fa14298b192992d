package io.jupiter.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Certificates for TLS tests, made by the system's {@code openssl} command in a directory the test owns: a CA, a
 * server certificate for {@code localhost} and {@code 127.0.0.1} (also usable as a client certificate), a client
 * certificate, an expired client
 * certificate, and a second CA with a client and a server certificate of its own. Keys are EC P-256 in PKCS#8 PEM.
 *
 * <pre>{@code
 * assumeTrue(TestCertificates.opensslAvailable(), TestCertificates.SKIP_MESSAGE);
 * TestCertificates certs = TestCertificates.create(tempDir);
 * TlsConfig server = TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey()).build();
 * }</pre>
 */
public final class TestCertificates {

    /** The message of a test skipped because there is no {@code openssl}. */
    public static final String SKIP_MESSAGE = "openssl is not on the PATH: TLS tests skipped (install openssl)";

    private static final long COMMAND_TIMEOUT_SECONDS = 30;
    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime() & 0xffffffL);

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** Whether {@code openssl version} runs. */
    public static boolean opensslAvailable() {
        try {
            Process process = new ProcessBuilder("openssl", "version").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Makes every certificate and key in {@code dir}. */
    public static TestCertificates create(Path dir) throws IOException {
        TestCertificates certs = new TestCertificates(dir);
        certs.authority("ca");
        certs.authority("other-ca");
        // The server certificate may serve as a client certificate too (the demo's consumer presents it).
        certs.issue("ca", "server", "localhost", "DNS:localhost,IP:127.0.0.1", "serverAuth,clientAuth", 2);
        certs.issue("ca", "client", "client", "DNS:client", "clientAuth", 2);
        certs.issue("ca", "expired", "expired-client", "DNS:expired-client", "clientAuth", -1);
        certs.issue("other-ca", "other-client", "other-client", "DNS:other-client", "clientAuth", 2);
        certs.issue("other-ca", "other-server", "localhost", "DNS:localhost,IP:127.0.0.1", "serverAuth", 2);
        certs.issue("ca", "wrong-host", "example.com", "DNS:example.com", "serverAuth", 2);
        return certs;
    }

    /**
     * Issues a new server certificate of the first CA, for {@code localhost} and {@code 127.0.0.1}, with
     * {@code commonName}; returns the certificate file ({@code <name>.crt} beside {@code <name>.key}).
     */
    public Path issueServer(String name, String commonName) throws IOException {
        issue("ca", name, commonName, "DNS:localhost,IP:127.0.0.1", "serverAuth", 2);
        return cert(name);
    }

    public Path dir() {
        return dir;
    }

    public Path caCert() {
        return cert("ca");
    }

    public Path otherCaCert() {
        return cert("other-ca");
    }

    public Path serverCert() {
        return cert("server");
    }

    public Path serverKey() {
        return key("server");
    }

    public Path clientCert() {
        return cert("client");
    }

    public Path clientKey() {
        return key("client");
    }

    /** A client certificate of the first CA whose validity ended a day ago. */
    public Path expiredCert() {
        return cert("expired");
    }

    public Path expiredKey() {
        return key("expired");
    }

    /** A client certificate of the second CA. */
    public Path otherClientCert() {
        return cert("other-client");
    }

    public Path otherClientKey() {
        return key("other-client");
    }

    /** A server certificate of the second CA, for {@code localhost} and {@code 127.0.0.1}. */
    public Path otherServerCert() {
        return cert("other-server");
    }

    public Path otherServerKey() {
        return key("other-server");
    }

    /** A server certificate of the first CA naming only {@code example.com}. */
    public Path wrongHostCert() {
        return cert("wrong-host");
    }

    public Path wrongHostKey() {
        return key("wrong-host");
    }

    /** The certificate file {@code <name>.crt}. */
    public Path cert(String name) {
        return dir.resolve(name + ".crt");
    }

    /** The key file {@code <name>.key}. */
    public Path key(String name) {
        return dir.resolve(name + ".key");
    }

    private void authority(String name) throws IOException {
        newKey(name);
        openssl("req", "-x509", "-new", "-key", key(name).toString(), "-subj", "/CN=jupiter-test-" + name,
                "-days", "2", "-addext", "basicConstraints=critical,CA:true",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", cert(name).toString());
    }

    private void issue(String ca, String name, String commonName, String altNames, String usage, int days)
            throws IOException {
        newKey(name);
        Path csr = dir.resolve(name + ".csr");
        Path extensions = dir.resolve(name + ".ext");
        Files.writeString(extensions, "basicConstraints=CA:false\nsubjectAltName=" + altNames
                + "\nextendedKeyUsage=" + usage + "\nkeyUsage=digitalSignature,keyEncipherment\n",
                StandardCharsets.US_ASCII);
        openssl("req", "-new", "-key", key(name).toString(), "-subj", "/CN=" + commonName, "-out", csr.toString());
        openssl("x509", "-req", "-in", csr.toString(), "-CA", cert(ca).toString(), "-CAkey", key(ca).toString(),
                "-set_serial", Long.toString(SERIAL.incrementAndGet()), "-days", Integer.toString(days),
                "-extfile", extensions.toString(), "-out", cert(name).toString());
    }

    private void newKey(String name) throws IOException {
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key(name).toString());
    }

    private void openssl(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("timed out: " + command);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + command, e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("failed (" + process.exitValue() + "): " + command + "\n" + output);
        }
    }
}
