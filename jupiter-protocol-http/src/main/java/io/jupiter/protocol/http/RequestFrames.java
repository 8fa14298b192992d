package io.jupiter.protocol.http;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.internal.DecodedRequest;
import io.jupiter.rpc.protocol.ServiceCatalog;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.Map;
import java.util.Set;

/**
 * Writes a foreign call as the request frame a 1.3.1 consumer would send: a {@link MessageWrapper} in one of the
 * serializers the server accepts (protostuff when it does), so that the provider reads it as any other request. A
 * unary call goes as a {@link DecodedRequest} instead ({@link #decoded}): the same message, not written, in the
 * same serializer's name (for the provider's checks), answered without a response frame.
 */
final class RequestFrames {

    private final Serializer serializer;
    private final String appName;

    RequestFrames(ServiceCatalog server, String appName) {
        Set<SerializerType> accepted = server.serializers();
        SerializerType type = accepted.contains(SerializerType.PROTOSTUFF) ? SerializerType.PROTOSTUFF
                : accepted.stream().sorted().findFirst().orElseThrow();
        this.serializer = server.serializerSet().get(type); // the server's own: its allow-list reads the answers
        this.appName = appName;
    }

    /** The serializer the frames are written in, to read their responses with. */
    Serializer serializer() {
        return serializer;
    }

    /**
     * A request frame (as the frame decoder delivers one) calling {@code target} with {@code args}.
     *
     * @param attachments the call's attachments, or {@code null}
     */
    Frame request(ByteBufAllocator alloc, long id, CallTarget target, Object[] args, Map<String, String> attachments) {
        return frame(ProtocolHeader.REQUEST, alloc, id, target, args, attachments);
    }

    /**
     * The same call as {@link #request}, handed to the provider already read ({@link DecodedRequest}): it reads no
     * body and writes no response frame, but gives the answer to {@code answers}. Never leaves the process.
     *
     * @param bytes the size of the request as it arrived
     */
    Frame decoded(long id, CallTarget target, Object[] args, Map<String, String> attachments, int bytes,
                  DecodedRequest.Answers answers) {
        return new DecodedRequest(serializer.type().code(), id, message(target, args, attachments), bytes, answers);
    }

    /** The open of a stream (as a Jupiter consumer sends it) calling {@code target} with {@code args}. */
    Frame streamOpen(ByteBufAllocator alloc, long id, CallTarget target, Object[] args,
                     Map<String, String> attachments) {
        return frame(ProtocolHeader.STREAM_OPEN, alloc, id, target, args, attachments);
    }

    /**
     * One of the consumer's messages of a client or bidirectional stream, written in the stream's serializer (the
     * open's), as a Jupiter consumer sends it against the provider's credit.
     */
    Frame streamMessage(ByteBufAllocator alloc, long id, Object message) {
        return new Frame(ProtocolHeader.STREAM_MESSAGE, serializer.type().code(), Status.OK.value(), id,
                body(alloc, message), System.nanoTime());
    }

    /** The consumer's end of its messages (the provider's side of the stream goes on, and answers). */
    static Frame streamEnd(long id) {
        return new Frame(ProtocolHeader.STREAM_END, (byte) 0, Status.OK.value(), id, Unpooled.EMPTY_BUFFER,
                System.nanoTime());
    }

    /** A stream's credit, as a Jupiter consumer gives it: the provider may send {@code messages} more. */
    static Frame credit(ByteBufAllocator alloc, long id, int messages) {
        return new Frame(ProtocolHeader.STREAM_CREDIT, (byte) 0, (byte) 0, id, alloc.buffer(4).writeInt(messages),
                System.nanoTime());
    }

    /**
     * A cancel, as a Jupiter consumer sends it: of a stream ({@code call} false, status 0), or of a unary call not
     * started yet ({@link ProtocolHeader#CALL_CANCEL}).
     */
    static Frame cancel(long id, boolean call) {
        return new Frame(ProtocolHeader.STREAM_CANCEL, (byte) 0, call ? ProtocolHeader.CALL_CANCEL : 0, id,
                Unpooled.EMPTY_BUFFER, System.nanoTime());
    }

    private Frame frame(byte messageCode, ByteBufAllocator alloc, long id, CallTarget target, Object[] args,
                        Map<String, String> attachments) {
        return new Frame(messageCode, serializer.type().code(), (byte) 0, id, body(alloc, message(target, args,
                attachments)), System.nanoTime());
    }

    private MessageWrapper message(CallTarget target, Object[] args, Map<String, String> attachments) {
        ServiceKey key = target.key();
        return new MessageWrapper(appName, new ServiceMetadata(key.group(), key.name(), key.version()),
                target.method().getName(), args, attachments);
    }

    /** {@code value} written in the serializer; nothing is held when it cannot be written. */
    private ByteBuf body(ByteBufAllocator alloc, Object value) {
        ByteBuf body = alloc.buffer();
        try {
            serializer.write(body, value);
        } catch (RuntimeException e) {
            body.release();
            throw e;
        }
        return body;
    }
}
