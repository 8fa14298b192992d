package io.jupiter.rpc.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.testkit.ForgedRequests;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Requests written by hand on a raw socket, as any peer could send them, and their answers. */
final class RawCalls {

    private static final AtomicLong ids = new AtomicLong(500);

    private RawCalls() {
    }

    record Answer(byte status, String message) {

        boolean ok() {
            return status == Status.OK.value();
        }
    }

    static Socket connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    /** The body of a request for {@code method} of the test echo service. */
    static byte[] request(SerializerType type, String service, String method, Object... args) {
        MessageWrapper message = new MessageWrapper("raw", new ServiceMetadata("test", service, "1.0.0"), method,
                args, null);
        ByteBuf body = Unpooled.buffer();
        try {
            Serializers.get(type).write(body, message);
            byte[] bytes = new byte[body.readableBytes()];
            body.readBytes(bytes);
            return bytes;
        } finally {
            body.release();
        }
    }

    /**
     * The body of a request that names {@code method}, then {@code secondMethod}: protostuff's field 3 written again
     * after the arguments; Hessian's class definition listing {@code methodName} a second time, after
     * {@code attachments}, with the second name as its value. What a caller allowed one method would send to call
     * another.
     */
    static byte[] requestNamingASecondMethod(SerializerType type, String service, String method, String secondMethod,
                                             Object... args) {
        byte[] first = request(type, service, method, args);
        return switch (type) {
            case PROTOSTUFF -> ForgedRequests.protostuff(new byte[0], first,
                    ForgedRequests.protostuffString(3, secondMethod));
            case HESSIAN -> ForgedRequests.hessian(first, List.of(), new byte[0], List.of("methodName"),
                    ForgedRequests.hessianString(secondMethod));
            default -> throw new IllegalArgumentException(type + ": not forged here");
        };
    }

    /** Sends one request and reads its answer: the status, and the message of an error. */
    static Answer call(Socket socket, SerializerType type, byte[] body) throws IOException {
        long id = ids.incrementAndGet();
        OutputStream out = socket.getOutputStream();
        out.write(ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE).putShort(ProtocolHeader.MAGIC)
                .put(ProtocolHeader.toSign(type.code(), ProtocolHeader.REQUEST)).put((byte) 0).putLong(id)
                .putInt(body.length).array());
        out.write(body);
        out.flush();

        DataInputStream data = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[ProtocolHeader.HEADER_SIZE];
        data.readFully(header);
        ByteBuffer view = ByteBuffer.wrap(header);
        assertThat(view.getShort(0)).isEqualTo(ProtocolHeader.MAGIC);
        assertThat(view.getLong(4)).as("invoke id").isEqualTo(id);
        byte[] answer = new byte[view.getInt(12)];
        data.readFully(answer);
        byte status = view.get(3);
        if (status == Status.OK.value() || answer.length == 0) {
            return new Answer(status, null);
        }
        ByteBuf buf = Unpooled.wrappedBuffer(answer);
        try {
            Object error = Serializers.get(type).read(buf, ResultWrapper.class).getResult();
            return new Answer(status, error instanceof Throwable ? ((Throwable) error).getMessage()
                    : String.valueOf(error));
        } finally {
            buf.release();
        }
    }
}
