package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.Deadlines;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.rpc.internal.stream.ClientStream;
import io.jupiter.rpc.internal.stream.ConsumerStreams;
import io.jupiter.rpc.internal.stream.DeadlinePublisher;
import io.jupiter.rpc.internal.stream.DeadlineSubscriber;
import io.jupiter.rpc.internal.stream.ResumeSubscriber;
import io.jupiter.rpc.internal.stream.SilenceDeadline;
import io.jupiter.rpc.internal.stream.StreamShape;
import io.jupiter.rpc.stream.StreamDeadlines;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Status;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The pipeline of a proxy's stream method (server, client or bidirectional stream), a {@link CallStage} of its own:
 * each stream it opens picks a connection as a call does (the proxy's load balancer), checks that its provider
 * announced streams, and opens the stream there. The interceptors run inside it, around the stream's open and its
 * end, not around the call that returns the publisher; no cluster stage: a stream is not retried. A server
 * or bidirectional stream opens when the publisher a call returns is subscribed to; a client stream at the call.
 */
final class StreamCallStage extends CallStage {

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
    private final StreamShape shape;
    /** The index of the consumer's stream among the arguments; -1 for a server stream. */
    private final int inboundAt;
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
        this.shape = StreamShape.of(info.method);
        this.inboundAt = StreamShape.inboundParameter(info.method);
        this.messageType = messageType(info.method, shape);
    }

    /**
     * Whether {@code method} is a stream method: it returns or takes a {@link Flow.Publisher}.
     *
     * @throws IllegalArgumentException if it takes more than one
     */
    static boolean isStreamMethod(Method method) {
        return StreamShape.of(method) != StreamShape.NONE;
    }

    /** What the provider's messages are read as: the stream's {@code T}, or a client stream's answer. */
    private static Class<?> messageType(Method method, StreamShape shape) {
        if (shape != StreamShape.CLIENT) {
            return StreamShape.messageType(method.getGenericReturnType());
        }
        Class<?> returned = method.getReturnType();
        if (Future.class.isAssignableFrom(returned) || CompletionStage.class.isAssignableFrom(returned)) {
            return StreamShape.messageType(method.getGenericReturnType());
        }
        return returned.isPrimitive() ? MethodType.methodType(returned).wrap().returnType() : returned;
    }

    /**
     * A call of the method: a cold publisher for a server or bidirectional stream, which opens one stream for its
     * first subscriber; for client streaming, the answer, waited for within the method's timeout. The stream makes
     * its own invocation when it opens ({@code invocation} is not used): the interceptors see its open and its end.
     */
    @Override
    Object invokeSync(Object[] arguments, DefaultInvocation invocation) {
        if (shape != StreamShape.CLIENT) {
            return replies(arguments);
        }
        return answer(arguments).await(info.toString());
    }

    /**
     * A call of a client stream method that returns a future: the answer's future; cancelling it cancels the stream.
     * A server or bidirectional stream's publisher is asynchronous already: the future holds it.
     *
     * @throws IllegalArgumentException if the stream to send is {@code null}, as {@link #invokeSync} does
     */
    @Override
    InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
        if (shape != StreamShape.CLIENT) {
            InvokeFuture<Object> publisher = new InvokeFuture<>(InvokeIds.next());
            publisher.complete(replies(arguments));
            return publisher;
        }
        return answer(arguments).result;
    }

    /** The provider's messages: a server stream's, or those answering the consumer's stream among the arguments. */
    private Flow.Publisher<Object> replies(Object[] args) {
        if (shape == StreamShape.SERVER) {
            return publisher(args, null);
        }
        Flow.Publisher<?> upload = (Flow.Publisher<?>) args[inboundAt];
        if (upload == null) {
            throw new IllegalArgumentException(info + ": the stream to send (argument " + inboundAt + ") is null");
        }
        // The open carries the other arguments; the stream's messages go in frames of their own.
        Object[] sent = new Object[args.length - 1];
        System.arraycopy(args, 0, sent, 0, inboundAt);
        System.arraycopy(args, inboundAt + 1, sent, inboundAt, args.length - inboundAt - 1);
        return publisher(sent, upload);
    }

    /** Opens a client stream and reads its one answer, within the method's timeout. */
    private Answer answer(Object[] args) {
        Flow.Publisher<Object> replies = replies(args);
        if (info.timeoutMillis > 0) {
            replies = Streams.withDeadlines(replies, StreamDeadlines.builder()
                    .whole(Duration.ofMillis(info.timeoutMillis)).build());
        }
        Answer answer = new Answer();
        replies.subscribe(answer);
        return answer;
    }

    /** The publisher of a stream call; it opens one stream, for its first subscriber. */
    private Flow.Publisher<Object> publisher(Object[] args, Flow.Publisher<?> upload) {
        AtomicBoolean subscribed = new AtomicBoolean();
        return subscriber -> {
            if (!subscribed.compareAndSet(false, true)) {
                subscriber.onSubscribe(NOTHING);
                subscriber.onError(new IllegalStateException(info + ": a stream call's publisher takes one"
                        + " subscriber; call the method again for another stream"));
                return;
            }
            open(args, upload, subscriber);
        };
    }

    /**
     * Reads a client stream's one answer: asks for one message, so a second is beyond the credit. Cancelling its
     * future cancels the stream.
     */
    private static final class Answer implements Flow.Subscriber<Object> {
        final InvokeFuture<Object> result = new InvokeFuture<>(InvokeIds.next());
        private volatile Flow.Subscription subscription;
        private Object value;

        Answer() {
            result.whenComplete((v, error) -> {
                Flow.Subscription s = subscription;
                if (error instanceof CancellationException && s != null) {
                    s.cancel();
                }
            });
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(Object item) {
            value = item;
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            result.complete(value);
        }

        Object await(String what) {
            try {
                return result.get();
            } catch (InterruptedException e) {
                Flow.Subscription s = subscription;
                if (s != null) {
                    s.cancel();
                }
                Thread.currentThread().interrupt();
                throw new StreamException(StatusTable.CLIENT_ERROR.status(),
                        what + ": interrupted while waiting for the answer; the"
                        + " stream was cancelled", e);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw new StreamException(StatusTable.CLIENT_ERROR.status(), what + ": " + cause, cause);
            }
        }
    }

    private void open(Object[] args, Flow.Publisher<?> upload, Flow.Subscriber<Object> downstream) {
        Flow.Subscriber<Object> subscriber = downstream;
        Map<String, String> attachments = null;
        DefaultInvocation intercepted = null;
        if (chain != null) {
            // The interceptors see the open (beforeInvoke, which may refuse it) and the end (afterInvoke, once).
            DefaultInvocation invocation = DefaultInvocation.consumer(key, info.name, args, appName,
                    info.timeoutMillis, ContextHolder.active());
            invocation.stream(true);
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
            intercepted = invocation;
        }
        Map<String, String> hints = openHints(downstream, upload);
        if (!hints.isEmpty()) {
            Map<String, String> sent = attachments == null ? new HashMap<>() : attachments;
            sent.putAll(hints);
            attachments = sent;
        }
        Map<String, String> toSend = attachments;
        Connection connection;
        try {
            Endpoint endpoint = selector.select(info, null);
            connection = ConnectionSelector.connectionOf(endpoint);
            if (connection == null) {
                throw new StreamException(StatusTable.CLIENT_ERROR.status(), "stream " + info + ": no connection to "
                        + endpoint.address() + "; not sent");
            }
            streams.awaitStreams(connection, info.toString());
            long id = InvokeIds.next();
            if (intercepted != null) {
                // As a call's (Dispatch): where it went and its id, for the interceptors' afterInvoke and spans.
                intercepted.remoteAddress(connection.remoteAddress());
                intercepted.invokeId(id);
            }
            ClientStream.open(streams, id, connection, serializer, cast(messageType), info.toString(),
                    key, info.name,
                    frame -> serializer.write(frame, new MessageWrapper(appName, metadata, info.name, args, toSend)),
                    upload, subscriber);
        } catch (RuntimeException e) {
            subscriber.onSubscribe(NOTHING);
            subscriber.onError(e);
        }
    }

    /**
     * What the wrappers between the stream and its subscriber ask the open to carry: the stream's deadlines (the
     * earliest of each; the whole one sent as a call's timeout is, so the provider ends the stream itself), the
     * first-message and idle deadlines of the consumer's messages when {@code upload} carries them, and the last
     * sequence a resumed stream saw.
     */
    private static Map<String, String> openHints(Flow.Subscriber<?> subscriber, Flow.Publisher<?> upload) {
        Map<String, String> hints = new HashMap<>();
        Duration whole = null;
        Duration first = null;
        Duration idle = null;
        Object s = subscriber;
        while (true) {
            if (s instanceof DeadlineSubscriber<?> timed) {
                StreamDeadlines d = timed.deadlines();
                whole = earliest(whole, d.whole());
                first = earliest(first, d.firstMessage());
                idle = earliest(idle, d.idle());
                s = timed.downstream();
            } else if (s instanceof ResumeSubscriber<?> resumed) {
                hints.putIfAbsent(ResumeSubscriber.KEY, Long.toString(resumed.lastSeen()));
                s = resumed.downstream();
            } else {
                break;
            }
        }
        if (whole != null) {
            hints.put(Deadlines.KEY, Long.toString(Math.max(1, whole.toMillis())));
        }
        putMillis(hints, SilenceDeadline.FIRST_MESSAGE_KEY, first);
        putMillis(hints, SilenceDeadline.IDLE_KEY, idle);
        if (upload instanceof DeadlinePublisher<?> timedUpload) {
            putMillis(hints, SilenceDeadline.CONSUMER_FIRST_MESSAGE_KEY, timedUpload.deadlines().firstMessage());
            putMillis(hints, SilenceDeadline.CONSUMER_IDLE_KEY, timedUpload.deadlines().idle());
        }
        return hints;
    }

    private static Duration earliest(Duration a, Duration b) {
        return b != null && (a == null || b.compareTo(a) < 0) ? b : a;
    }

    private static void putMillis(Map<String, String> hints, String key, Duration deadline) {
        if (deadline != null) {
            hints.put(key, Long.toString(Math.max(1, deadline.toMillis())));
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
                    end(StatusTable.STREAM_CANCELLED.status(), null);
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
