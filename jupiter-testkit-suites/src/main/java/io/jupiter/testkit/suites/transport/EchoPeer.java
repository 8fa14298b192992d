package io.jupiter.testkit.suites.transport;

import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FrameHandler} for both ends of a test: answers each request with a response of the same id and body, and
 * records the responses it receives and the connections it sees. Bodies are UTF-8 text. The fields are what it
 * saw, for the test to read (and to take connections from {@link #connected}).
 */
public final class EchoPeer implements FrameHandler {

    /** The serializer code of the frames it makes (protostuff's; the transport does not look at it). */
    public static final byte SERIALIZER = 1;

    /** Each connection it was told of, in order. */
    public final BlockingQueue<Connection> connected = new LinkedBlockingQueue<>();
    /** Connections open now. */
    public final AtomicInteger open = new AtomicInteger();
    /** The most connections open at once. */
    public final AtomicInteger maxOpen = new AtomicInteger();
    /** Connections closed so far. */
    public final AtomicInteger disconnects = new AtomicInteger();
    /** The body of each response received, by request id. */
    public final Map<Long, String> responses = new ConcurrentHashMap<>();
    private volatile CountDownLatch expectedResponses = new CountDownLatch(0);

    /** A peer that has seen nothing yet. */
    public EchoPeer() {
    }

    @Override
    public void connected(Connection connection) {
        maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        connected.add(connection);
    }

    @Override
    public void disconnected(Connection connection) {
        open.decrementAndGet();
        disconnects.incrementAndGet();
    }

    @Override
    public void frameReceived(Connection connection, Frame frame) {
        try {
            if (frame.messageCode() == ProtocolHeader.REQUEST) {
                ByteBuf response = Frames.newFrame(connection.alloc(), frame.body().readableBytes());
                response.writeBytes(frame.body());
                Frames.fillHeader(response, ProtocolHeader.toSign(frame.serializerCode(), ProtocolHeader.RESPONSE),
                        Status.OK.value(), frame.id());
                connection.write(response);
            } else if (frame.messageCode() == ProtocolHeader.RESPONSE) {
                responses.put(frame.id(), frame.body().toString(StandardCharsets.UTF_8));
                expectedResponses.countDown();
            }
        } finally {
            frame.release();
        }
    }

    /**
     * A latch counting down on each response from now on.
     *
     * @param responses how many responses to wait for
     * @return the latch
     */
    public CountDownLatch expect(int responses) {
        CountDownLatch latch = new CountDownLatch(responses);
        expectedResponses = latch;
        return latch;
    }

    /**
     * A request frame.
     *
     * @param alloc the connection's allocator
     * @param id    the request id
     * @param body  its body, as UTF-8
     * @return the frame, for {@code Connection.write} (which releases it)
     */
    public static ByteBuf request(ByteBufAllocator alloc, long id, String body) {
        return frame(alloc, ProtocolHeader.REQUEST, (byte) 0, id, body);
    }

    /**
     * A response frame with status OK.
     *
     * @param alloc the connection's allocator
     * @param id    the id of the request it answers
     * @param body  its body, as UTF-8
     * @return the frame, for {@code Connection.write} (which releases it)
     */
    public static ByteBuf response(ByteBufAllocator alloc, long id, String body) {
        return frame(alloc, ProtocolHeader.RESPONSE, Status.OK.value(), id, body);
    }

    private static ByteBuf frame(ByteBufAllocator alloc, byte messageCode, byte status, long id, String body) {
        ByteBuf frame = Frames.newFrame(alloc, body.length());
        frame.writeCharSequence(body, StandardCharsets.UTF_8);
        return Frames.fillHeader(frame, ProtocolHeader.toSign(SERIALIZER, messageCode), status, id);
    }
}
