package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.Deadlines;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.rpc.internal.stream.ClientStream;
import io.jupiter.rpc.internal.stream.ConsumerStreams;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Status;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A proxy's stream method: each call returns a cold publisher that, when subscribed to, picks a connection as a call
 * does (the proxy's load balancer), checks that its provider announced streams, and opens the stream there.
 */
final class StreamCallStage {

    private static final Flow.Subscription NOTHING = new Flow.Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private final MethodInfo info;
    private final ConnectionSelector selector;
    private final Serializer serializer;
    private final ConsumerStreams streams;
    private final ServiceMetadata metadata;
    private final String appName;
    private final Class<?> messageType;
    private final ServiceKey key;
    /** The proxy's interceptors; {@code null}: none. */
    private final InterceptorChain chain;

    StreamCallStage(ProxySettings settings, MethodInfo info, ConnectionSelector selector, Serializer serializer,
                    ConsumerStreams streams, InterceptorChain chain) {
        this.info = info;
        this.key = settings.key;
        this.chain = chain;
        this.selector = selector;
        this.serializer = serializer;
        this.streams = streams;
        this.metadata = new ServiceMetadata(settings.key.group(), settings.key.name(), settings.key.version());
        this.appName = settings.appName;
        this.messageType = messageType(info.method);
    }

    /** Whether {@code method} is a stream method: it returns {@link Flow.Publisher}. */
    static boolean isStreamMethod(Method method) {
        return method.getReturnType() == Flow.Publisher.class;
    }

    /** The {@code T} of a method returning {@code Flow.Publisher<T>}; {@code Object} when it is not a class. */
    private static Class<?> messageType(Method method) {
        Type returned = method.getGenericReturnType();
        if (returned instanceof ParameterizedType parameterized) {
            Type argument = parameterized.getActualTypeArguments()[0];
            if (argument instanceof Class<?> type) {
                return type;
            }
            if (argument instanceof ParameterizedType nested && nested.getRawType() instanceof Class<?> raw) {
                return raw;
            }
        }
        return Object.class;
    }

    /** The publisher a call of the method returns; it opens one stream, for its first subscriber. */
    Flow.Publisher<Object> publisher(Object[] args) {
        AtomicBoolean subscribed = new AtomicBoolean();
        return subscriber -> {
            if (!subscribed.compareAndSet(false, true)) {
                subscriber.onSubscribe(NOTHING);
                subscriber.onError(new IllegalStateException(info + ": a stream call's publisher takes one"
                        + " subscriber; call the method again for another stream"));
                return;
            }
            open(args, subscriber);
        };
    }

    private void open(Object[] args, Flow.Subscriber<Object> downstream) {
        Flow.Subscriber<Object> subscriber = downstream;
        Map<String, String> attachments = null;
        if (chain != null) {
            // The interceptors see the open (beforeInvoke, which may refuse it) and the end (afterInvoke, once).
            DefaultInvocation invocation = DefaultInvocation.consumer(key, info.name, args, appName,
                    info.timeoutMillis, ContextHolder.active());
            try {
                chain.before(invocation);
            } catch (RuntimeException | Error e) {
                downstream.onSubscribe(NOTHING);
                downstream.onError(e);
                return;
            }
            Map<String, String> sent = new HashMap<>(invocation.attachments());
            sent.remove(Deadlines.KEY); // a call's timeout is not a stream's deadline
            attachments = sent.isEmpty() ? null : sent;
            subscriber = new InterceptedSubscriber(downstream, chain, invocation);
        }
        Map<String, String> toSend = attachments;
        Connection connection;
        try {
            Endpoint endpoint = selector.select(info, null);
            connection = ConnectionSelector.connectionOf(endpoint);
            if (connection == null) {
                throw new StreamException(Status.CLIENT_ERROR, "stream " + info + ": no connection to "
                        + endpoint.address() + "; not sent");
            }
            streams.awaitStreams(connection, info.toString());
            ClientStream.open(streams, InvokeIds.next(), connection, serializer, cast(messageType), info.toString(),
                    frame -> serializer.write(frame, new MessageWrapper(appName, metadata, info.name, args, toSend)),
                    subscriber);
        } catch (RuntimeException e) {
            subscriber.onSubscribe(NOTHING);
            subscriber.onError(e);
        }
    }

    /** Runs the interceptors' {@code afterInvoke} once, when the stream ends or is cancelled. */
    private static final class InterceptedSubscriber implements Flow.Subscriber<Object> {
        private final Flow.Subscriber<Object> downstream;
        private final InterceptorChain chain;
        private final DefaultInvocation invocation;
        private final AtomicBoolean ended = new AtomicBoolean();

        InterceptedSubscriber(Flow.Subscriber<Object> downstream, InterceptorChain chain,
                              DefaultInvocation invocation) {
            this.downstream = downstream;
            this.chain = chain;
            this.invocation = invocation;
        }

        private void end(Status status, Throwable error) {
            if (ended.compareAndSet(false, true)) {
                invocation.status(status);
                chain.after(invocation, null, error);
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            downstream.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    subscription.request(n);
                }

                @Override
                public void cancel() {
                    subscription.cancel();
                    end(Status.STREAM_CANCELLED, null);
                }
            });
        }

        @Override
        public void onNext(Object item) {
            downstream.onNext(item);
        }

        @Override
        public void onError(Throwable throwable) {
            end(DefaultInvocation.statusOf(throwable), throwable);
            downstream.onError(throwable);
        }

        @Override
        public void onComplete() {
            end(Status.OK, null);
            downstream.onComplete();
        }
    }

    @SuppressWarnings("unchecked")
    private static Class<Object> cast(Class<?> type) {
        return (Class<Object>) type;
    }
}
