package io.jupiter.monitor.internal;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A password kept only as a salted PBKDF2-HMAC-SHA256 hash (random 16-byte salt), checked in constant time.
 * The clear password is never stored.
 */
public final class PasswordHash {

    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final int ITERATIONS = 20_000;
    private static final int KEY_BITS = 256;

    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(byte[] salt, byte[] hash) {
        this.salt = salt;
        this.hash = hash;
    }

    /** Hashes {@code password} with a fresh salt. The caller may wipe its array afterwards. */
    public static PasswordHash of(char[] password) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return new PasswordHash(salt, derive(password, salt));
    }

    /** Whether {@code candidate} is the password; takes the same time whatever the candidate. */
    public boolean matches(char[] candidate) {
        return MessageDigest.isEqual(hash, derive(candidate, salt));
    }

    private static byte[] derive(char[] password, byte[] salt) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, ITERATIONS, KEY_BITS);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** Never shows the hash. */
    @Override
    public String toString() {
        return "PasswordHash{" + ALGORITHM + ", " + ITERATIONS + " iterations}";
    }
}
