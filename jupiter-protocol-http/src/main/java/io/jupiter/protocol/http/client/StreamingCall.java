package io.jupiter.protocol.http.client;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One streaming gRPC call (server, client or bidirectional stream) on its own HTTP/2 stream, for one subscriber of
 * the server's messages: sends the request headers, then its {@link Requests} (one message, or the caller's stream
 * as the stream's window allows: {@link RequestStream}), and reads the server's messages only as the subscriber asks
 * for them. The stream channel does not read by itself ({@code AUTO_READ} off); it reads when the subscriber's
 * demand exceeds the messages already decoded, and HTTP/2 returns the flow-control window only for what was read,
 * so a subscriber that stops asking stops the server after at most the stream's window (plus one read's frames)
 * held here. The trailers' status ends the subscription ({@link GrpcStatuses}) once the messages received before
 * them were delivered; {@link #cancel()} resets the stream ({@code RST_STREAM CANCEL}); the call's timeout goes out
 * as {@code grpc-timeout} and resets the stream here too. However the call ends, its {@link Requests} stop.
 *
 * <p>Signals reach the subscriber one at a time, in order, on the client's callback executor when it has one, else
 * on the connection's IO thread. Everything else runs on the stream's event loop (but a client stream's messages
 * are serialized on its publisher's thread).
 */
final class StreamingCall extends GrpcCall implements Flow.Subscription {

    private static final Object COMPLETE = new Object();

    private final Http2Headers requestHeaders;
    private final Requests requests;
    private final Parser<?> parser;
    private final int maxMessageBytes;
    private final long timeoutMillis;
    private final String where;
    private final Flow.Subscriber<? super Object> subscriber;
    /** {@code null}: signals go out on the IO thread. */
    private final Executor delivery;

    private final AtomicLong demand = new AtomicLong();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicBoolean slotFreed = new AtomicBoolean();
    /** Frees the stream's slot on its connection; {@code null} until the connection gave the call one. */
    private volatile Runnable freeSlot;
    private volatile Channel channel;

    // Event loop only.
    private final ArrayDeque<Object> decoded = new ArrayDeque<>();
    private CompositeByteBuf pending;
    private boolean headersSeen;
    /** The end the server sent ({@link #COMPLETE} or a failure), delivered once the messages before it are. */
    private Object end;
    private ScheduledFuture<?> deadline;
    /**
     * When the call was made, just after its {@code grpc-timeout} was written: the server's deadline is no earlier than
     * this plus the timeout, in this JVM's time.
     */
    private final long madeNanos = System.nanoTime();

    // The subscriber's signals, one at a time.
    private final ConcurrentLinkedQueue<Object> signals = new ConcurrentLinkedQueue<>();
    private final AtomicInteger signalling = new AtomicInteger();

    StreamingCall(Http2Headers requestHeaders, Requests requests, Parser<?> parser, int maxMessageBytes,
                  long timeoutMillis, String where, Flow.Subscriber<? super Object> subscriber, Executor delivery) {
        this.requestHeaders = requestHeaders;
        this.requests = requests;
        this.parser = parser;
        this.maxMessageBytes = maxMessageBytes;
        this.timeoutMillis = timeoutMillis;
        this.where = where;
        this.subscriber = subscriber;
        this.delivery = delivery;
    }

    @Override
    boolean readsOnDemand() {
        return true;
    }

    @Override
    void onEnd(Runnable free) {
        this.freeSlot = free;
        if (ended.get()) {
            freeSlotOnce(); // cancelled before its stream opened (in onSubscribe, say)
        }
    }

    // --- the subscription: any thread ---

    @Override
    public void request(long n) {
        if (n <= 0) {
            fail(new IllegalArgumentException("request(" + n + "): Reactive Streams rule 3.9 (expected: > 0)"));
            return;
        }
        demand.accumulateAndGet(n, (now, more) -> now + more < 0 ? Long.MAX_VALUE : now + more);
        Channel ch = channel;
        if (ch != null) {
            ch.eventLoop().execute(this::pump);
        }
    }

    @Override
    public void cancel() {
        if (cancelled.compareAndSet(false, true)) {
            ended.set(true);
            signals.clear();
            finish();
        }
    }

    // --- the stream: its event loop ---

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        if (cancelled.get() || ended.get()) {
            ctx.close();
            return;
        }
        deadline = ctx.executor().schedule(() -> fail(timedOut()), timeoutMillis, TimeUnit.MILLISECONDS);
        writeHeaders(ctx, requestHeaders, where);
        requests.start(ctx, this);
        ctx.read(); // the response headers (and what came with them)
        ctx.fireChannelActive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        requests.writabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (ended.get() || end != null) {
                return;
            }
            if (msg instanceof Http2HeadersFrame headers) {
                onHeaders(headers);
            } else if (msg instanceof Http2DataFrame data) {
                onData(ctx, data);
            }
        } catch (RpcException e) {
            fail(e);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        pump();
        ctx.fireChannelReadComplete();
    }

    private void onHeaders(Http2HeadersFrame frame) {
        Http2Headers headers = frame.headers();
        if (!headersSeen) {
            headersSeen = true;
            RpcException notGrpc = notGrpc(headers, where);
            if (notGrpc != null) {
                throw notGrpc;
            }
            if (!frame.isEndStream()) {
                return;
            }
        }
        RpcException failure = GrpcStatuses.outcome(headers, where);
        end = failure == null ? COMPLETE : failure;
        if (pending != null && pending.isReadable()) {
            end = new RpcException(StatusTable.SERVER_ERROR.status(), where + ": the stream ended inside a message");
        }
    }

    private void onData(ChannelHandlerContext ctx, Http2DataFrame frame) {
        if (!headersSeen) {
            throw new RpcException(StatusTable.UNKNOWN.status(), where + ": a message before the response headers");
        }
        ByteBuf content = frame.content();
        if (content.isReadable()) {
            if (pending == null) {
                pending = ctx.alloc().compositeBuffer();
            }
            pending.addComponent(true, content.retain());
            decode();
        }
        if (frame.isEndStream()) {
            throw new RpcException(StatusTable.SERVER_ERROR.status(), where + ": the stream ended with no trailers"
                    + " (no grpc-status)");
        }
    }

    /** Moves every whole message of {@link #pending} to {@link #decoded}. */
    private void decode() {
        while (pending != null && pending.readableBytes() >= PREFIX) {
            int at = pending.readerIndex();
            if (pending.getByte(at) != 0) {
                throw new RpcException(StatusTable.SERVER_ERROR.status(), where
                        + ": a compressed message (none was asked for)");
            }
            long length = pending.getUnsignedInt(at + 1);
            if (length > maxMessageBytes) {
                throw new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": a message of " + length
                        + " bytes, above the " + maxMessageBytes + "-byte message cap (RESOURCE_EXHAUSTED):"
                        + " stream reset");
            }
            if (pending.readableBytes() < PREFIX + length) {
                return;
            }
            pending.skipBytes(PREFIX);
            try {
                decoded.add(parser.parseFrom(new ByteBufInputStream(pending.readSlice((int) length))));
            } catch (InvalidProtocolBufferException e) {
                throw new RpcException(StatusTable.DESERIALIZATION_FAIL.status(), where + ": unreadable message: "
                        + e.getMessage());
            }
            pending.discardReadComponents();
        }
        if (!pending.isReadable()) {
            releasePending(); // held only while a message is partly here
        }
    }

    /** Hands out what the subscriber asked for; reads more when it asked for more than is decoded. */
    private void pump() {
        if (ended.get()) {
            return;
        }
        while (!decoded.isEmpty() && demand.get() > 0) {
            if (demand.get() != Long.MAX_VALUE) {
                demand.decrementAndGet();
            }
            signal(decoded.poll());
        }
        if (decoded.isEmpty() && end != null) {
            if (ended.compareAndSet(false, true)) {
                signal(end);
                finish();
            }
            return;
        }
        Channel ch = channel;
        if (ch != null && decoded.isEmpty() && demand.get() > 0) {
            ch.read();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(new ConnectionException(StatusTable.CLIENT_ERROR.status(), where + ": " + cause.getMessage(), cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releasePending();
        if (end != null) {
            // The server ended the stream (its channel closes once every frame was read): the messages decoded
            // before the end still go out as the subscriber asks, then the end.
            ctx.fireChannelInactive();
            return;
        }
        if (System.nanoTime() - madeNanos >= TimeUnit.MILLISECONDS.toNanos(timeoutMillis)) {
            // The deadline passed: the server's reset (grpc-java resets a call past its deadline) may come before
            // this side's timer, which started once the stream opened.
            fail(timedOut());
        } else {
            fail(closedBefore(ctx, where, "end"));
        }
        ctx.fireChannelInactive();
    }

    private RpcException timedOut() {
        return StatusTable.exception(StatusTable.SERVER_TIMEOUT.status(),
                where + ": the stream did not end within " + timeoutMillis + " ms (DEADLINE_EXCEEDED)", null);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releasePending();
    }

    /** Ends the stream with {@code error} at once (messages not yet delivered are dropped), if it has not ended. */
    @Override
    void fail(Throwable error) {
        if (ended.compareAndSet(false, true)) {
            signal(error);
            finish();
        }
    }

    /**
     * Stops sending and the timer, closes the stream (a reset if still open), frees its slot; from any thread.
     */
    private void finish() {
        requests.stop();
        Channel ch = channel;
        if (ch == null) {
            freeSlotOnce(); // not open yet: it closes as it opens
            return;
        }
        ch.eventLoop().execute(() -> {
            if (deadline != null) {
                deadline.cancel(false);
            }
            decoded.clear();
            releasePending();
            ch.close();
        });
        freeSlotOnce();
    }

    private void freeSlotOnce() {
        Runnable free = freeSlot;
        if (free != null && slotFreed.compareAndSet(false, true)) {
            free.run();
        }
    }

    private void releasePending() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    // --- signals to the subscriber, one at a time, in order ---

    private void signal(Object signal) {
        signals.add(signal);
        if (signalling.getAndIncrement() == 0) {
            if (delivery == null) {
                drainSignals();
            } else {
                delivery.execute(this::drainSignals);
            }
        }
    }

    private void drainSignals() {
        int missed = 1;
        while (true) {
            Object signal;
            while ((signal = signals.poll()) != null) {
                if (cancelled.get()) {
                    signals.clear();
                    break;
                }
                deliver(signal);
            }
            missed = signalling.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    private void deliver(Object signal) {
        try {
            if (signal == COMPLETE) {
                subscriber.onComplete();
            } else if (signal instanceof Throwable error) {
                subscriber.onError(error);
            } else {
                subscriber.onNext(signal);
            }
        } catch (RuntimeException | Error e) {
            cancel(); // Reactive Streams rule 2.13: a subscriber that throws is cancelled
        }
    }
}
