package io.jupiter.rpc.stream;

import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A hostile provider over a raw socket, speaking the frames of docs/streams.md: it announces streams, and answers the
 * first server stream a consumer opens with small messages within the consumer's credit until {@code small} were
 * sent, then spends the credit it still holds, and any it gets, on messages of {@code largeBytes} (at most
 * {@code large}, one every 20 ms): credit earned at a small size used for large messages. Every later stream gets
 * three small messages within its credit and a clean end. Serves one connection.
 */
final class RawCreditAbuser implements AutoCloseable {

    private static final long LARGE_PACE_MILLIS = 20;

    private final ServerSocket listener;
    private final int small;
    private final int large;
    private final byte[] smallBody = ProtostuffBytes.of("s");
    private final byte[] largeBody;
    /** The abused stream's large messages sent; the serving thread's own. */
    private int largeSent;
    private final Thread thread;
    /** Opened once the consumer cancelled the abused stream. */
    final CountDownLatch abusedStreamCancelled = new CountDownLatch(1);

    RawCreditAbuser(int small, int large, int largeBytes) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.small = small;
        this.large = large;
        this.largeBody = ProtostuffBytes.of("x".repeat(largeBytes));
        this.thread = new Thread(this::serve, "test-raw-credit-abuser");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void serve() {
        try (Socket socket = listener.accept()) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            write(out, ProtocolHeader.HEARTBEAT, ProtocolHeader.STREAMS_ANNOUNCED, 0, new byte[0]);
            out.flush();
            long abused = -1;
            int smallSent = 0;
            Map<Long, Integer> honestSent = new HashMap<>();
            byte[] header = new byte[ProtocolHeader.HEADER_SIZE];
            while (true) {
                in.readFully(header);
                ByteBuffer h = ByteBuffer.wrap(header);
                int code = header[ProtocolHeader.SIGN_OFFSET] & 0x0f;
                long id = h.getLong(ProtocolHeader.ID_OFFSET);
                byte[] body = new byte[h.getInt(ProtocolHeader.BODY_SIZE_OFFSET)];
                in.readFully(body);
                if (code == ProtocolHeader.STREAM_OPEN && abused < 0) {
                    abused = id;
                } else if (code == ProtocolHeader.STREAM_CANCEL && id == abused) {
                    abusedStreamCancelled.countDown();
                } else if (code == ProtocolHeader.STREAM_CREDIT && id == abused) {
                    for (int credit = ByteBuffer.wrap(body).getInt(); credit > 0; credit--) {
                        if (smallSent < small) {
                            smallSent++;
                            message(out, id, smallBody);
                        } else if (largeSent < large) {
                            largeSent++;
                            message(out, id, largeBody);
                            // Paced, so that a reader that takes what it is given keeps up: what piles up is what
                            // the reader holds, not what waits for delivery.
                            out.flush();
                            Thread.sleep(LARGE_PACE_MILLIS);
                        }
                    }
                } else if (code == ProtocolHeader.STREAM_CREDIT && honestSent.getOrDefault(id, 0) < 3) {
                    int sent = honestSent.getOrDefault(id, 0);
                    for (int credit = ByteBuffer.wrap(body).getInt(); credit > 0 && sent < 3; credit--, sent++) {
                        message(out, id, smallBody);
                    }
                    honestSent.put(id, sent);
                    if (sent == 3) {
                        write(out, ProtocolHeader.STREAM_END, Status.OK.value(), id, new byte[0]);
                    }
                }
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the consumer closed the connection, or the test closed the listener: done
        }
    }

    private static void message(DataOutputStream out, long id, byte[] body) throws IOException {
        write(out, ProtocolHeader.toSign(SerializerType.PROTOSTUFF.code(), ProtocolHeader.STREAM_MESSAGE),
                Status.OK.value(), id, body);
    }

    private static void write(DataOutputStream out, byte sign, byte status, long id, byte[] body) throws IOException {
        out.write(ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE).putShort(ProtocolHeader.MAGIC).put(sign)
                .put(status).putLong(id).putInt(body.length).array());
        out.write(body);
    }

    @Override
    public void close() throws IOException {
        listener.close();
        thread.interrupt();
    }
}
