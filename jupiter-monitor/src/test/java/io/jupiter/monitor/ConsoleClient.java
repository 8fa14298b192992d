package io.jupiter.monitor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A console session over a real socket, as telnet or nc would have it: writes lines, reads up to the prompt. */
final class ConsoleClient implements AutoCloseable {

    static final String PROMPT = ">: ";

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    ConsoleClient(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Everything up to and without the next prompt; fails if the connection closes or 10 s pass first. */
    String readToPrompt() throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] prompt = PROMPT.getBytes(StandardCharsets.UTF_8);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before the prompt; got: " + buffer.toString(StandardCharsets.UTF_8));
            }
            buffer.write(b);
            byte[] bytes = buffer.toByteArray();
            if (endsWith(bytes, prompt)) {
                return new String(bytes, 0, bytes.length - prompt.length, StandardCharsets.UTF_8);
            }
        }
    }

    /** Everything until the server closes the connection (fails after 10 s). */
    String readToEnd() throws IOException {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (SocketTimeoutException e) {
            throw new IOException("the server did not close the session", e);
        }
    }

    /** Sends a line and returns the answer up to the next prompt. */
    String command(String line) throws IOException {
        send(line);
        return readToPrompt();
    }

    void send(String line) throws IOException {
        write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    private static boolean endsWith(byte[] bytes, byte[] suffix) {
        if (bytes.length < suffix.length) {
            return false;
        }
        for (int i = 0; i < suffix.length; i++) {
            if (bytes[bytes.length - suffix.length + i] != suffix[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
