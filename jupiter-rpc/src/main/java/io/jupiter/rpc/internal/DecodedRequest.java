package io.jupiter.rpc.internal;

import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.Unpooled;

/**
 * A request frame a protocol of the server's own process (today: gRPC's unary calls) hands the provider already
 * read: the {@link MessageWrapper} it decoded instead of a body to read, and where the answer goes instead of a
 * response frame to read back. It never leaves the process, so the wire (1.3.1) never sees it. The provider serves
 * it as any request of the serializer it names (the serializer's acceptance, the service lookup and authorization,
 * admission, interceptors, deadlines, executors, metrics, cancels), but reads nothing and writes nothing: the
 * {@link Answers} gets the outcome.
 */
public final class DecodedRequest extends Frame {

    /** Where the provider's answer to a decoded request goes, from any thread. */
    @FunctionalInterface
    public interface Answers {

        /**
         * The answer to request {@code id}: {@code status} and {@code result} (the method's value, or the error:
         * a {@link Throwable}, or a refusal's text), as a response frame would have carried them.
         *
         * @param close whether the provider closes the connection after this answer (as it does for some refusals)
         */
        void answer(long id, Status status, Object result, boolean close);
    }

    private final MessageWrapper message;
    private final int bytes;
    private final Answers answers;

    /**
     * A call.
     *
     * @param serializerCode the serializer the request counts as read in: one the server accepts, for its checks
     *                       (a service pinned to other serializers refuses it)
     * @param bytes the size of the request as it arrived, counted as its body is (load limits, metrics)
     */
    public DecodedRequest(byte serializerCode, long id, MessageWrapper message, int bytes, Answers answers) {
        super(ProtocolHeader.REQUEST, serializerCode, (byte) 0, id, Unpooled.EMPTY_BUFFER, System.nanoTime());
        this.message = message;
        this.bytes = bytes;
        this.answers = answers;
    }

    /** The request, read. */
    public MessageWrapper message() {
        return message;
    }

    /** The size of the request as it arrived. */
    public int bytes() {
        return bytes;
    }

    /** Where its answer goes. */
    public Answers answers() {
        return answers;
    }
}
