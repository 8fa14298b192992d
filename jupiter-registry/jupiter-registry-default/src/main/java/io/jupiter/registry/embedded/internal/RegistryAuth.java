package io.jupiter.registry.embedded.internal;

import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The registry's shared-secret handshake: both peers prove they know the secret, and neither sends it. Only when a
 * secret is configured; without one nothing of this goes on the wire, which stays 1.3.1's.
 *
 * <p>Three AUTH frames (message code {@value RegistryFrames#AUTH_CODE}, serializer nibble 0, status 0), told apart by
 * the header's id field; the bodies have fixed sizes:
 * <pre>
 * id  direction            body
 * 1   registry -> client   CHALLENGE      server nonce (32 random bytes)
 * 2   client -> registry   CLIENT_PROOF   client nonce (32 random bytes)
 *                                         | HMAC-SHA256(secret, "jupiter-registry-client" | server nonce |
 *                                           client nonce)
 * 3   registry -> client   SERVER_PROOF   HMAC-SHA256(secret, "jupiter-registry-server" | server nonce | client nonce)
 * </pre>
 * The registry sends the challenge as soon as a connection opens and accepts nothing but the client's proof until it
 * checked it; the client sends nothing but its proof until it checked the registry's. The two labels keep one side's
 * proof from being replayed as the other's; the fresh nonces on both sides keep a recorded handshake from being
 * replayed. Proofs are compared in constant time. The handshake authenticates the peers, it does not protect the
 * frames after it: on a network where someone can change traffic, add TLS.
 */
public final class RegistryAuth {

    /** Header id of the registry's challenge. */
    public static final long CHALLENGE = 1;
    /** Header id of the client's proof. */
    public static final long CLIENT_PROOF = 2;
    /** Header id of the registry's proof. */
    public static final long SERVER_PROOF = 3;
    /** Bytes of a nonce. */
    public static final int NONCE_BYTES = 32;
    /** Bytes of an HMAC-SHA256. */
    public static final int MAC_BYTES = 32;
    /** How long a peer has to finish the handshake by default, in milliseconds. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 10_000;
    /** The shortest secret accepted, in bytes of UTF-8. */
    public static final int MIN_SECRET_BYTES = 16;

    private static final byte[] CLIENT_LABEL = "jupiter-registry-client".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_LABEL = "jupiter-registry-server".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    private RegistryAuth(byte[] secret) {
        this.key = new SecretKeySpec(secret, "HmacSHA256");
    }

    /**
     * The handshake for a secret.
     *
     * @throws IllegalArgumentException if the secret is shorter than {@value #MIN_SECRET_BYTES} bytes
     */
    public static RegistryAuth of(String secret) {
        if (secret == null) {
            throw new IllegalArgumentException("secret: null (expected: at least " + MIN_SECRET_BYTES + " bytes)");
        }
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_SECRET_BYTES) {
            // Never echo the secret, not even its length's worth of it.
            throw new IllegalArgumentException("secret: too short, " + bytes.length + " bytes (expected: at least "
                    + MIN_SECRET_BYTES + " bytes of UTF-8; e.g. openssl rand -base64 32)");
        }
        return new RegistryAuth(bytes);
    }

    /** A fresh random nonce. */
    public static byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** What the client sends to prove the secret. */
    public byte[] clientProof(byte[] serverNonce, byte[] clientNonce) {
        return mac(CLIENT_LABEL, serverNonce, clientNonce);
    }

    /** What the registry sends to prove the secret. */
    public byte[] serverProof(byte[] serverNonce, byte[] clientNonce) {
        return mac(SERVER_LABEL, serverNonce, clientNonce);
    }

    /** Compares a received proof with the expected one in time that does not depend on where they differ. */
    public static boolean matches(byte[] expected, byte[] received) {
        return MessageDigest.isEqual(expected, received);
    }

    private byte[] mac(byte[] label, byte[] serverNonce, byte[] clientNonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(label);
            mac.update(serverNonce);
            mac.update(clientNonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** An AUTH frame with the given step id and body parts. */
    public static ByteBuf frame(ByteBufAllocator alloc, long step, byte[]... parts) {
        int size = 0;
        for (byte[] part : parts) {
            size += part.length;
        }
        ByteBuf frame = Frames.newFrame(alloc, size);
        for (byte[] part : parts) {
            frame.writeBytes(part);
        }
        return Frames.fillHeader(frame, ProtocolHeader.toSign(0, RegistryFrames.AUTH_CODE), (byte) 0, step);
    }

    /**
     * The body of an AUTH frame of the expected step and size; releases the frame.
     *
     * @return the body bytes, or {@code null} if the frame is not that step or not that size
     */
    public static byte[] body(Frame frame, long expectedStep, int expectedBytes) {
        try {
            ByteBuf body = frame.body();
            if (frame.id() != expectedStep || body.readableBytes() != expectedBytes) {
                return null;
            }
            byte[] bytes = new byte[expectedBytes];
            body.readBytes(bytes);
            return bytes;
        } finally {
            frame.release();
        }
    }

    /** {@code length} bytes of {@code bytes}, from {@code offset}. */
    public static byte[] slice(byte[] bytes, int offset, int length) {
        byte[] part = new byte[length];
        System.arraycopy(bytes, offset, part, 0, length);
        return part;
    }
}
