package io.jupiter.protocol.http;

import com.google.protobuf.Parser;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.Frame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * The messages a gRPC client streams to a client- or bidirectional-streaming method, on their way to the provider
 * as a Jupiter consumer's stream messages: each complete gRPC message is parsed, written in the stream's serializer
 * and handed to the provider only against the credit the method's reader gave, and the HTTP/2 window of its bytes
 * goes back to the client then.
 *
 * <p>While a complete message waits for credit no window goes back, so a client that outruns the method holds here
 * at most that message and one HTTP/2 stream window of bytes behind it (and, at the provider, the method's inbound
 * window). The bytes of a message still arriving are given back at once, so that a message larger than the window
 * can arrive; the message cap bounds them. The client's end ({@code END_STREAM}) goes to the provider after the
 * last message. IO thread only.
 */
final class ClientMessages {

    private final long id;
    private final Http2FrameStream stream;
    private final Parser<?> parser;
    private final MessageEncoding encoding;
    private final RequestFrames frames;
    private final int maxMessageSize;
    /** Bytes arrived and not yet handed on: complete messages waiting for credit, then a message arriving. */
    private CompositeByteBuf pending;
    /** Flow-controlled bytes received whose window was not given back yet. */
    private int owed;
    /** Messages the provider may take now. */
    private int credit;
    private boolean clientEnded;
    private boolean endSent;
    /** The method reads no more (the provider's cancel): what arrives is dropped, its window given back. */
    private boolean stopped;

    ClientMessages(long id, Http2FrameStream stream, Parser<?> parser, MessageEncoding encoding, RequestFrames frames,
                   int maxMessageSize) {
        this.id = id;
        this.encoding = encoding;
        this.stream = stream;
        this.parser = parser;
        this.frames = frames;
        this.maxMessageSize = maxMessageSize;
    }

    /** Bytes held here now. */
    int held() {
        return pending == null ? 0 : pending.readableBytes();
    }

    /**
     * A DATA frame's content (retained here) and its flow-controlled size; {@code end}: it ended the client's side.
     *
     * @throws ForeignCallException a message over the cap (inflated or not), unreadable, or cut by the end
     */
    void received(ChannelHandlerContext ctx, ByteBuf content, int flowControlled, boolean end) {
        owed += flowControlled;
        clientEnded |= end;
        if (stopped) {
            giveBackWindow(ctx);
            ctx.flush();
            return;
        }
        if (content.isReadable()) {
            if (pending == null) {
                pending = ctx.alloc().compositeBuffer();
            }
            pending.addComponent(true, content.retain());
        }
        handOn(ctx);
    }

    /** The provider's credit: its method asks for {@code messages} more. */
    void credit(ChannelHandlerContext ctx, int messages) {
        credit = (int) Math.min((long) credit + messages, Integer.MAX_VALUE);
        handOn(ctx);
    }

    /** The provider's cancel: the method reads no more; what waits is dropped and its window given back. */
    void stopped(ChannelHandlerContext ctx) {
        stopped = true;
        release();
        giveBackWindow(ctx);
        ctx.flush();
    }

    /** Frees what waits here. */
    void release() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    private void handOn(ChannelHandlerContext ctx) {
        boolean waiting = false;
        while (pending != null && pending.readableBytes() >= 5) {
            int start = pending.readerIndex();
            long length = GrpcMessages.length(pending, start);
            if (length > maxMessageSize) {
                throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), 8,
                        "request message over the " + maxMessageSize + "-byte cap");
            }
            if (pending.readableBytes() - 5 < length) {
                break;
            }
            if (credit == 0) {
                waiting = true;
                break;
            }
            Frame message = toFrame(ctx, GrpcMessages.parse(parser,
                    encoding.payload(pending, start, (int) length, maxMessageSize)));
            pending.skipBytes(5 + (int) length);
            credit--;
            ctx.fireChannelRead(message);
        }
        if (pending != null) {
            pending.discardReadComponents();
        }
        if (!waiting) {
            giveBackWindow(ctx);
        }
        if (clientEnded && held() == 0) {
            sendEndOnce(ctx);
        } else if (clientEnded && !waiting) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "the stream ended inside a message ("
                    + held() + " bytes of it)");
        }
        ctx.flush();
    }

    private Frame toFrame(ChannelHandlerContext ctx, Object message) {
        try {
            return frames.streamMessage(ctx.alloc(), id, message);
        } catch (RuntimeException e) { // the message cannot be written in the server's serializer
            throw new ForeignCallException(StatusTable.SERVER_ERROR.status(), e.getMessage());
        }
    }

    private void sendEndOnce(ChannelHandlerContext ctx) {
        if (!endSent) {
            endSent = true;
            ctx.fireChannelRead(RequestFrames.streamEnd(id));
        }
    }

    private void giveBackWindow(ChannelHandlerContext ctx) {
        if (owed > 0 && stream.state() != Http2Stream.State.CLOSED) {
            ctx.write(new DefaultHttp2WindowUpdateFrame(owed).stream(stream));
        }
        owed = 0;
    }
}
