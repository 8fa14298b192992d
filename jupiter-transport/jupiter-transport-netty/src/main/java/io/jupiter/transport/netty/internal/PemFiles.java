package io.jupiter.transport.netty.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

/**
 * Reads the PEM files of a {@link io.jupiter.transport.TlsConfig}, each failure an
 * {@link IllegalArgumentException} naming the file and what was wrong with it (never the key's bytes).
 */
public final class PemFiles {

    private static final String KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String KEY_END = "-----END PRIVATE KEY-----";
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448"};
    private static final byte[] PROBE = "jupiter key pair check".getBytes(StandardCharsets.US_ASCII);

    private PemFiles() {
    }

    /**
     * The X.509 certificates of a PEM file, in file order (for a key pair: the certificate, then its chain).
     *
     * @throws IllegalArgumentException if the file cannot be read or holds no certificate
     */
    public static X509Certificate[] certificates(Path file, String role) {
        Collection<? extends Certificate> read;
        try (InputStream in = Files.newInputStream(file)) {
            read = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("TLS " + role + " file: " + file + " (expected: PEM certificates; "
                    + e.getMessage() + ")", e);
        }
        List<X509Certificate> certificates = new ArrayList<>();
        for (Certificate certificate : read) {
            certificates.add((X509Certificate) certificate);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("TLS " + role + " file: " + file
                    + " (expected: at least one PEM certificate, found none)");
        }
        return certificates.toArray(new X509Certificate[0]);
    }

    /**
     * The unencrypted PKCS#8 private key of a PEM file.
     *
     * @throws IllegalArgumentException if the file cannot be read, holds no {@code BEGIN PRIVATE KEY} block, or the
     *         key is of no algorithm this JDK knows
     */
    public static PrivateKey privateKey(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalArgumentException("TLS key file: " + file + " (expected: readable; " + e.getMessage()
                    + ")", e);
        }
        int begin = text.indexOf(KEY_BEGIN);
        int end = text.indexOf(KEY_END, Math.max(begin, 0));
        if (begin < 0 || end < 0) {
            String hint = text.contains("ENCRYPTED PRIVATE KEY") ? "; it is encrypted"
                    : text.contains("PRIVATE KEY") ? "; convert it with openssl pkcs8 -topk8 -nocrypt" : "";
            throw new IllegalArgumentException("TLS key file: " + file
                    + " (expected: an unencrypted PKCS#8 PEM key, '" + KEY_BEGIN + "'" + hint + ")");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(begin + KEY_BEGIN.length(), end));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("TLS key file: " + file + " (expected: base64 between the PEM lines)",
                    e);
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // Not this algorithm (or not available in this JDK): try the next.
            }
        }
        throw new IllegalArgumentException("TLS key file: " + file + " (expected: an RSA, EC or EdDSA key)");
    }

    /**
     * Checks that {@code key} is the private key of {@code certificate}, by signing a probe with one and verifying
     * it with the other: a key file and a certificate file replaced one after the other can be caught in between.
     *
     * @throws IllegalArgumentException if they do not belong together
     */
    public static void checkPair(PrivateKey key, X509Certificate certificate, Path keyFile, Path certificateFile) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(PROBE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(PROBE);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new IllegalArgumentException("TLS key file: " + keyFile
                    + " (expected: the private key of the certificate in " + certificateFile + ")");
        }
    }
}
