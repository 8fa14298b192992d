package io.jupiter.protocol.http.client;

import com.google.protobuf.Parser;
import io.netty.handler.codec.http2.Http2Headers;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a server-streaming method of the proxy returns: the call, not started. Subscribing opens its stream on the
 * connection chosen for the attempt ({@link ServerStreamCall}); one subscriber, as a Jupiter stream has.
 */
final class ServerStream implements Flow.Publisher<Object> {

    private final GrpcConnection connection;
    private final Http2Headers headers;
    private final byte[] message;
    private final Parser<?> parser;
    private final int maxMessageBytes;
    private final long timeoutMillis;
    private final String where;
    private final Executor delivery;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    ServerStream(GrpcConnection connection, Http2Headers headers, byte[] message, Parser<?> parser,
                 int maxMessageBytes, long timeoutMillis, String where, Executor delivery) {
        this.connection = connection;
        this.headers = headers;
        this.message = message;
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
        ServerStreamCall call = new ServerStreamCall(headers, message, parser, maxMessageBytes, timeoutMillis,
                where, subscriber, delivery);
        subscriber.onSubscribe(call);
        if (!subscribed.compareAndSet(false, true)) {
            call.fail(new IllegalStateException(where + ": this stream has a subscriber already (one per call)"));
            return;
        }
        connection.start(call, where);
    }
}
