package io.jupiter.protocol.http;

import io.jupiter.testkit.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** An HTTP/1.1 client that sends one request and reads nothing of its answer, with a 4 KiB receive buffer. */
final class SlowHttpReader {

    private SlowHttpReader() {
    }

    /**
     * Posts {@code body} to {@code path} with {@code headers} (each line ending {@code \r\n}), reads nothing, and
     * returns how many messages the producer counted in {@code produced} sent for it once that count stopped
     * growing (counted from what {@code produced} held before: a producer that a closed client ended sends no more).
     */
    static long producedWhileNotReading(int port, String path, String headers, String body, AtomicLong produced)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        long before = produced.get();
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers
                    + "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            Await.until("the stream started", Duration.ofSeconds(30), () -> produced.get() > before);
            long sent = Counts.awaitStable(produced) - before;
            System.out.println("slow HTTP reader (" + (headers.isEmpty() ? "NDJSON" : headers.trim())
                    + "): messages the producer sent: " + sent);
            return sent;
        }
    }
}
