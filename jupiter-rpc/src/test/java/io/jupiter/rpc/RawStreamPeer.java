package io.jupiter.rpc;

import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.ProtocolHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A hostile consumer over a raw socket: writes stream opens and credits as the wire protocol spells them
 * (docs/streams.md) and reads nothing unless told to, with a small receive buffer so that what the provider sends
 * piles up on the provider's side.
 */
public final class RawStreamPeer implements AutoCloseable {

    private final Socket socket;
    private final DataOutputStream out;

    public RawStreamPeer(int port) throws IOException {
        socket = new Socket();
        socket.setReceiveBufferSize(16 * 1024);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(10_000);
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
    }

    /** Opens stream {@code id} of {@code group/name 1.0.0}'s {@code method} with {@code args} (protostuff). */
    public void open(long id, String group, String name, String method, Object... args) throws IOException {
        byte[] bytes = openBody(group, name, method, args);
        header(ProtocolHeader.toSign(SerializerType.PROTOSTUFF.code(), ProtocolHeader.STREAM_OPEN), id,
                bytes.length);
        out.write(bytes);
    }

    /** Opens stream {@code id} with a body no serializer can read: a tag whose varint never ends (protostuff). */
    public void openUnreadable(long id) throws IOException {
        byte[] bytes = new byte[16];
        Arrays.fill(bytes, (byte) 0xff);
        header(ProtocolHeader.toSign(SerializerType.PROTOSTUFF.code(), ProtocolHeader.STREAM_OPEN), id,
                bytes.length);
        out.write(bytes);
    }

    private static byte[] openBody(String group, String name, String method, Object... args) {
        MessageWrapper message = new MessageWrapper("raw", new ServiceMetadata(group, name, "1.0.0"), method, args,
                null);
        ByteBuf body = Unpooled.buffer();
        try {
            Serializers.get(SerializerType.PROTOSTUFF).write(body, message);
            return ByteBufUtil.getBytes(body);
        } finally {
            body.release();
        }
    }

    /** Grants stream {@code id} {@code messages} more messages. */
    public void credit(long id, int messages) throws IOException {
        header(ProtocolHeader.STREAM_CREDIT, id, 4);
        out.writeInt(messages);
    }

    public void flush() throws IOException {
        out.flush();
    }

    /**
     * Reads frames until {@code ends} stream ends arrived; returns how many had each status (indexed by its unsigned
     * byte). Other frames, the announcement included, are skipped.
     */
    public int[] readEnds(int ends) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        int[] byStatus = new int[256];
        byte[] header = new byte[ProtocolHeader.HEADER_SIZE];
        for (int seen = 0; seen < ends; ) {
            in.readFully(header);
            int bodySize = ByteBuffer.wrap(header, 12, 4).getInt();
            in.skipNBytes(bodySize);
            if ((header[2] & 0x0f) == ProtocolHeader.STREAM_END) {
                seen++;
                byStatus[header[3] & 0xff]++;
            }
        }
        return byStatus;
    }

    /** Whether the provider closed the connection: a read sees its end (reading, and dropping, what came before). */
    public boolean closedByProvider() throws IOException {
        byte[] sink = new byte[64 * 1024];
        try {
            while (true) {
                if (socket.getInputStream().read(sink) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset
        }
    }

    private void header(byte sign, long id, int bodySize) throws IOException {
        out.write(ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE).putShort(ProtocolHeader.MAGIC).put(sign)
                .put((byte) 0).putLong(id).putInt(bodySize).array());
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
