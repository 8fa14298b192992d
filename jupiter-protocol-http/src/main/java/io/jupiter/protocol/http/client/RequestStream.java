package io.jupiter.protocol.http.client;

import com.google.protobuf.Message;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import java.util.ArrayDeque;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The caller's stream of a client or bidirectional streaming call: subscribes to the caller's publisher once the
 * HTTP/2 stream is open and asks it only for what the stream can take. It asks while the stream's channel is
 * writable (the server's window for the stream has room, and what the channel holds unwritten is below its write
 * buffer mark), a batch at a time (at most {@value #BATCH} messages and about {@value #BATCH_BYTES} bytes not yet
 * written), and again when the channel becomes writable; so what waits here for the server's window is bounded by
 * that mark plus one batch, never an unbounded queue. Each message is serialized on the publisher's thread; on the
 * stream's event loop the messages given since the last write go out together, in order, in one DATA frame and one
 * flush. The publisher's completion ends the client's side (END_STREAM on the last DATA frame); its error, or a
 * message that is not a protobuf message or is above the message cap, fails the call, which resets the stream
 * ({@code RST_STREAM CANCEL}). The call's end, however it ends, cancels the publisher ({@link #stop}).
 */
final class RequestStream implements Requests, Flow.Subscriber<Object> {

    /** Messages asked of the publisher and not yet written, at most; more are asked once half were written. */
    static final int BATCH = 32;
    /** Bytes of messages asked at a time, at most (as the last message's size says; at least one message). */
    static final int BATCH_BYTES = 64 * 1024;

    private static final Flow.Subscription STOPPED = new Flow.Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private final Flow.Publisher<?> source;
    private final int maxMessageBytes;
    private final String where;
    /** Told just before the publisher is subscribed to: from then on the call cannot be sent again. */
    private final Runnable subscribed;
    private final AtomicReference<Flow.Subscription> upstream = new AtomicReference<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile GrpcCall call;
    private volatile Channel channel;

    /** Messages asked of the publisher and not yet given: below 0, it gave more than asked. */
    private final AtomicInteger asked = new AtomicInteger();

    // Event loop only.
    /** Messages asked of the publisher and not yet written to the channel: what {@link #askMore} bounds. */
    private int unwritten;
    /** Messages given and not yet written: written together, in one DATA frame, by {@link #flush}. */
    private final ArrayDeque<byte[]> given = new ArrayDeque<>();
    private int givenBytes;
    /**
     * The size of the last message given, prefix included: how many fit in a batch of {@value #BATCH_BYTES}. Until
     * a message says, one is asked for.
     */
    private int lastMessageBytes = BATCH_BYTES;
    /** The client's side ended (the publisher completed), or the call did. */
    private boolean ended;
    private boolean flushQueued;

    RequestStream(Flow.Publisher<?> source, int maxMessageBytes, String where, Runnable subscribed) {
        this.source = source;
        this.maxMessageBytes = maxMessageBytes;
        this.where = where;
        this.subscribed = subscribed;
    }

    @Override
    public void start(ChannelHandlerContext ctx, GrpcCall call) {
        this.call = call;
        this.channel = ctx.channel();
        ctx.flush(); // the headers: the server sees the call before the first message
        subscribed.run();
        try {
            source.subscribe(this);
        } catch (RuntimeException e) {
            fail(new StreamException(StatusTable.CLIENT_ERROR.status(), where + ": the stream to send refused its"
                    + " subscriber: " + e, e));
        }
    }

    // --- the caller's publisher: its thread ---

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        if (subscription == null) {
            throw new NullPointerException("subscription (Reactive Streams rule 2.13)");
        }
        if (!upstream.compareAndSet(null, subscription)) {
            subscription.cancel(); // a second subscription (rule 2.5), or the call ended first
            return;
        }
        onLoop(this::askMore);
    }

    @Override
    public void onNext(Object item) {
        if (stopped.get()) {
            return;
        }
        if (asked.decrementAndGet() < 0) {
            fail(new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": the stream to send gave more"
                    + " messages than it was asked for (Reactive Streams rule 1.1): the call was cancelled"));
            return;
        }
        if (!(item instanceof Message message)) {
            fail(new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": the stream to send gave "
                    + (item == null ? "null" : item.getClass().getName()) + " (expected: a protobuf message): the"
                    + " call was cancelled"));
            return;
        }
        int size = message.getSerializedSize();
        if (size > maxMessageBytes) {
            fail(new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": a message of " + size + " bytes to"
                    + " send, above the " + maxMessageBytes + "-byte message cap: the call was cancelled"));
            return;
        }
        byte[] bytes = message.toByteArray();
        onLoop(() -> write(bytes));
    }

    @Override
    public void onError(Throwable error) {
        fail(new StreamException(StatusTable.CLIENT_ERROR.status(), where + ": the stream to send failed: " + error
                + "; the call was cancelled", error));
    }

    @Override
    public void onComplete() {
        onLoop(() -> {
            if (!ended && !stopped.get()) {
                ended = true;
                writeGiven(true); // the client's side ends with the messages before it
            }
        });
    }

    // --- the stream: its event loop ---

    private void write(byte[] message) {
        if (ended || stopped.get()) {
            return;
        }
        given.add(message);
        givenBytes += GrpcCall.PREFIX + message.length;
        lastMessageBytes = GrpcCall.PREFIX + message.length;
        if (!flushQueued) {
            // Runs after the messages queued before it: a burst of them goes out in one DATA frame and one flush.
            flushQueued = true;
            onLoop(this::flush);
        }
    }

    private void flush() {
        flushQueued = false;
        if (ended || stopped.get()) {
            given.clear();
            return;
        }
        writeGiven(false);
        askMore();
    }

    /** Writes the messages given, length-prefixed, in one DATA frame ({@code end}: with END_STREAM), and flushes. */
    private void writeGiven(boolean end) {
        if (given.isEmpty() && !end) {
            return;
        }
        unwritten -= given.size();
        ByteBuf data = channel.alloc().buffer(givenBytes);
        for (byte[] message : given) {
            data.writeByte(0).writeInt(message.length).writeBytes(message);
        }
        given.clear();
        givenBytes = 0;
        channel.writeAndFlush(new DefaultHttp2DataFrame(data, end)).addListener(sent -> {
            if (!sent.isSuccess()) {
                fail(new StreamException(StatusTable.CLIENT_ERROR.status(), where + ": a message could not be"
                        + " sent: " + sent.cause(), sent.cause()));
            }
        });
    }

    /**
     * Asks the publisher for a batch when the channel can take more, what it gave was written, and half the last
     * batch was: a batch is at most {@value #BATCH} messages and {@value #BATCH_BYTES} bytes at the last message's
     * size (at least one message).
     */
    private void askMore() {
        Flow.Subscription s = upstream.get();
        if (ended || stopped.get() || s == null || s == STOPPED || !given.isEmpty() || !channel.isWritable()) {
            return;
        }
        int batch = Math.max(1, Math.min(BATCH, BATCH_BYTES / lastMessageBytes));
        if (unwritten > batch / 2) {
            return;
        }
        int more = batch - unwritten;
        unwritten = batch;
        asked.addAndGet(more);
        try {
            s.request(more);
        } catch (RuntimeException e) {
            fail(new StreamException(StatusTable.CLIENT_ERROR.status(), where + ": the stream to send failed: " + e,
                    e));
        }
    }

    @Override
    public void writabilityChanged() {
        askMore();
    }

    @Override
    public void stop() {
        if (stopped.compareAndSet(false, true)) {
            Flow.Subscription s = upstream.getAndSet(STOPPED);
            if (s == null || s == STOPPED) {
                return;
            }
            Channel ch = channel;
            if (ch == null || ch.eventLoop().inEventLoop()) {
                s.cancel();
            } else {
                try {
                    ch.eventLoop().execute(s::cancel); // where request(n) is called: both stay serial (rule 2.7)
                } catch (RejectedExecutionException e) {
                    s.cancel();
                }
            }
        }
    }

    /** Stops asking the publisher, then ends the call with {@code error} (which resets the stream). */
    private void fail(RpcException error) {
        stop();
        GrpcCall c = call;
        if (c != null) {
            c.fail(error);
        }
    }

    private void onLoop(Runnable task) {
        Channel ch = channel;
        try {
            ch.eventLoop().execute(task);
        } catch (RejectedExecutionException e) {
            stop(); // the protocol closed: the call ends with its connection
        }
    }
}
