package io.jupiter.protocol.http.client;

import com.google.protobuf.Parser;
import io.netty.handler.codec.http2.Http2Headers;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * What a server-streaming or bidirectional method of the proxy returns: the call, not started. Subscribing opens
 * its stream on the connection chosen for the attempt ({@link StreamingCall}), which sends its {@link Requests};
 * one subscriber, as a Jupiter stream has.
 */
final class ResponseStream implements Flow.Publisher<Object> {

    private final GrpcConnection connection;
    private final Http2Headers headers;
    /** Made for the one subscriber: a bidirectional stream's subscribes to the caller's publisher. */
    private final Supplier<Requests> requests;
    private final Parser<?> parser;
    private final int maxMessageBytes;
    private final long timeoutMillis;
    private final String where;
    private final Executor delivery;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    ResponseStream(GrpcConnection connection, Http2Headers headers, Supplier<Requests> requests, Parser<?> parser,
                   int maxMessageBytes, long timeoutMillis, String where, Executor delivery) {
        this.connection = connection;
        this.headers = headers;
        this.requests = requests;
        this.parser = parser;
        this.maxMessageBytes = maxMessageBytes;
        this.timeoutMillis = timeoutMillis;
        this.where = where;
        this.delivery = delivery;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super Object> subscriber) {
        if (subscriber == null) {
            throw new NullPointerException("subscriber (Reactive Streams rule 1.9)");
        }
        boolean first = subscribed.compareAndSet(false, true);
        // A refused subscriber's call never opens: it sends nothing.
        Requests sent = first ? requests.get() : (ctx, call) -> { };
        StreamingCall call = new StreamingCall(headers, sent, parser, maxMessageBytes, timeoutMillis, where,
                subscriber, delivery);
        subscriber.onSubscribe(call);
        if (!first) {
            call.fail(new IllegalStateException(where + ": this stream has a subscriber already (one per call)"));
            return;
        }
        connection.start(call, where);
    }
}
