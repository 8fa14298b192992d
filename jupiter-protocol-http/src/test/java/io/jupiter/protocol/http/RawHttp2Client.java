package io.jupiter.protocol.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.function.Predicate;

/**
 * A hostile HTTP/2 peer on a plain socket: writes frames by hand (headers encoded with Netty's HPACK encoder, an
 * independent implementation of the format) and reads the server's frames back. Writes are buffered: call
 * {@link #flush()}.
 */
final class RawHttp2Client implements AutoCloseable {

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;
    static final int END_STREAM = 0x1;
    static final int END_HEADERS = 0x4;

    /** A frame the server sent. */
    record Frame(int type, int flags, int streamId, byte[] payload) {
        /** The error code of a RST_STREAM (its payload) or a GOAWAY (after the last stream id). */
        int errorCode() {
            int at = type == GOAWAY ? 4 : 0;
            return (payload[at] & 0xff) << 24 | (payload[at + 1] & 0xff) << 16 | (payload[at + 2] & 0xff) << 8
                    | (payload[at + 3] & 0xff);
        }
    }

    private final Socket socket = new Socket();
    private final OutputStream out;
    private final DataInputStream in;
    private final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
    private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false, 1 << 20);
    private final byte[] buffer = new byte[1 << 16];
    private int buffered;

    /** Connects and sends the client preface and an empty SETTINGS frame. */
    RawHttp2Client(int port, int receiveBufferBytes) throws IOException {
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
        write(InteropProtocol.HTTP2_PREFACE);
        frame(SETTINGS, 0, 0, new byte[0]);
    }

    /** A gRPC call's request headers for {@code path}. */
    static Http2Headers grpcHeaders(String path) {
        return new DefaultHttp2Headers().method("POST").scheme("http").path(path).authority("127.0.0.1")
                .set("content-type", "application/grpc").set("te", "trailers");
    }

    /** HEADERS (with END_HEADERS) opening {@code streamId}. */
    void headers(int streamId, Http2Headers headers, boolean endStream) throws IOException {
        byte[] block = encode(streamId, headers);
        frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), streamId, block);
    }

    /** A header block over several frames: HEADERS then CONTINUATIONs of at most 16 KiB each. */
    void headersInPieces(int streamId, Http2Headers headers) throws IOException {
        byte[] block = encode(streamId, headers);
        int piece = 16 * 1024;
        for (int at = 0; at < block.length; at += piece) {
            int n = Math.min(piece, block.length - at);
            byte[] part = new byte[n];
            System.arraycopy(block, at, part, 0, n);
            boolean last = at + n >= block.length;
            frame(at == 0 ? HEADERS : CONTINUATION, last ? END_HEADERS : 0, streamId, part);
        }
    }

    void rstStream(int streamId, int errorCode) throws IOException {
        frame(RST_STREAM, 0, streamId, new byte[] {(byte) (errorCode >>> 24), (byte) (errorCode >>> 16),
                (byte) (errorCode >>> 8), (byte) errorCode});
    }

    void frame(int type, int flags, int streamId, byte[] payload) throws IOException {
        byte[] header = {(byte) (payload.length >>> 16), (byte) (payload.length >>> 8), (byte) payload.length,
                (byte) type, (byte) flags, (byte) (streamId >>> 24), (byte) (streamId >>> 16),
                (byte) (streamId >>> 8), (byte) streamId};
        write(header);
        write(payload);
    }

    private void write(byte[] bytes) throws IOException {
        if (buffered + bytes.length > buffer.length) {
            flush();
        }
        if (bytes.length > buffer.length) {
            out.write(bytes);
            return;
        }
        System.arraycopy(bytes, 0, buffer, buffered, bytes.length);
        buffered += bytes.length;
    }

    void flush() throws IOException {
        out.write(buffer, 0, buffered);
        out.flush();
        buffered = 0;
    }

    /** The server's next frame, or {@code null} once it closed the connection. */
    Frame read() throws IOException {
        try {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int streamId = in.readInt() & 0x7fffffff;
            byte[] payload = new byte[length];
            in.readFully(payload);
            return new Frame(type, flags, streamId, payload);
        } catch (EOFException e) {
            return null;
        } catch (SocketException e) { // reset by the server
            return null;
        }
    }

    /**
     * Reads frames until one matches, the connection closes ({@code null}) or 30 s pass without a frame
     * ({@link SocketTimeoutException}).
     */
    Frame readUntil(Predicate<Frame> wanted) throws IOException {
        for (Frame f = read(); ; f = read()) {
            if (f == null || wanted.test(f)) {
                return f;
            }
        }
    }

    /** The headers of a HEADERS frame the server sent (frames must be decoded in order: HPACK has state). */
    Http2Headers decode(Frame headers) throws Http2Exception {
        ByteBuf block = Unpooled.wrappedBuffer(headers.payload());
        try {
            return decoder.decodeHeaders(headers.streamId(), block);
        } finally {
            block.release();
        }
    }

    private byte[] encode(int streamId, Http2Headers headers) throws IOException {
        ByteBuf block = Unpooled.buffer();
        try {
            encoder.encodeHeaders(streamId, headers, block);
            byte[] bytes = new byte[block.readableBytes()];
            block.readBytes(bytes);
            return bytes;
        } catch (Http2Exception e) {
            throw new IOException(e);
        } finally {
            block.release();
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
