package io.jupiter.protocol.http.client;

import com.google.protobuf.Message;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The caller's stream of a client or bidirectional streaming call: subscribes to the caller's publisher once the
 * HTTP/2 stream is open and asks it only for what the stream can take. It asks while the stream's channel is
 * writable (the server's window for the stream has room, and what the channel holds unwritten is below its write
 * buffer mark), at most {@value #BATCH} messages not yet written at a time, and again when the channel becomes
 * writable; so what waits here for the server's window is bounded by that mark plus one batch, never an unbounded
 * queue. Each message is
 * serialized on the publisher's thread and written on the stream's event loop, in order; the publisher's
 * completion ends the client's side (an empty DATA frame with END_STREAM); its error, or a message that is not a
 * protobuf message or is above the message cap, fails the call, which resets the stream ({@code RST_STREAM CANCEL}).
 * The call's end, however it ends, cancels the publisher ({@link #stop}).
 */
final class RequestStream implements Requests, Flow.Subscriber<Object> {

    /** Messages asked of the publisher and not yet written, at most; more are asked once half were written. */
    static final int BATCH = 8;

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
    /** Messages asked of the publisher and not yet written: what {@link #askMore} bounds. */
    private int unwritten;
    /** The client's side ended (the publisher completed), or the call did. */
    private boolean ended;

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
                channel.writeAndFlush(new DefaultHttp2DataFrame(true)); // the client's side ends
            }
        });
    }

    // --- the stream: its event loop ---

    private void write(byte[] message) {
        if (ended || stopped.get()) {
            return;
        }
        unwritten--;
        channel.writeAndFlush(GrpcCall.message(channel.alloc(), message, false)).addListener(sent -> {
            if (!sent.isSuccess()) {
                fail(new StreamException(StatusTable.CLIENT_ERROR.status(), where + ": a message could not be"
                        + " sent: " + sent.cause(), sent.cause()));
            }
        });
        askMore();
    }

    /** Asks the publisher for a batch when the channel can take more and half the last batch was written. */
    private void askMore() {
        Flow.Subscription s = upstream.get();
        if (ended || stopped.get() || s == null || s == STOPPED || !channel.isWritable() || unwritten > BATCH / 2) {
            return;
        }
        int more = BATCH - unwritten;
        unwritten = BATCH;
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
