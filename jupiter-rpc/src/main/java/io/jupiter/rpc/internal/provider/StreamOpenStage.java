package io.jupiter.rpc.internal.provider;

import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.internal.Throwables;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.Deadlines;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.rpc.internal.stream.OutboundStream;
import io.jupiter.rpc.internal.stream.SilenceDeadline;
import io.jupiter.rpc.internal.stream.SingleReply;
import io.jupiter.rpc.internal.stream.StreamOpener;
import io.jupiter.rpc.internal.stream.StreamShape;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.rpc.security.Authorizer;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportAddresses;
import io.netty.buffer.ByteBuf;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stages of the provider's request pipeline that a stream's open goes through, in the same order and with the
 * same checks as a request's ({@link ProviderPipeline}): serializer accepted, then from the envelope alone the
 * service, the serializers it is pinned to, the method (which must be a stream method) and the {@link Authorizer};
 * only then the arguments, the interceptors' {@code beforeInvoke}, and the method, on the stream's own thread.
 */
final class StreamOpenStage implements StreamOpener {

    private static final Logger log = LoggerFactory.getLogger(StreamOpenStage.class);
    /** A peer can open refused streams at will: one line a second per peer at most, as for refused requests. */
    private static final ThrottledWarning unauthorized = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final ReadStage read;
    private final ServiceRegistry services;
    /** {@code null}: every caller may call every method. */
    private final Authorizer authorizer;
    private final RpcMetrics metrics;
    /** The argument types of the opens of each stream method name, by service key and method name. */
    private final ConcurrentHashMap<String, ArgumentTypes> openTypes = new ConcurrentHashMap<>();

    StreamOpenStage(ReadStage read, ServiceRegistry services, Authorizer authorizer, RpcMetrics metrics) {
        this.metrics = metrics;
        this.read = read;
        this.services = services;
        this.authorizer = authorizer;
    }

    /**
     * Whether {@code serviceInterface} declares a stream method: one returning or taking a {@link Flow.Publisher}.
     *
     * @throws IllegalArgumentException if a method takes more than one {@link Flow.Publisher}
     */
    static boolean hasStreamMethod(Class<?> serviceInterface) {
        boolean found = false;
        for (Method method : serviceInterface.getMethods()) {
            found |= StreamShape.of(method) != StreamShape.NONE;
        }
        return found;
    }

    private static boolean isStreamMethod(Class<?> serviceInterface, String name) {
        for (Method method : serviceInterface.getMethods()) {
            if (method.getName().equals(name) && StreamShape.of(method) != StreamShape.NONE) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Opened open(Connection connection, long streamId, CallerIdentity caller, byte serializerCode, ByteBuf body,
                       long receivedNanos, Inbound inbound) {
        try {
            return openOrRefuse(connection, streamId, caller, serializerCode, body, receivedNanos, inbound);
        } catch (Refused e) {
            refused(connection, e.status());
            throw e;
        }
    }

    /** Counts a refused open with the refused requests ({@code rejection}), when it is one. */
    @Override
    public void refused(Connection connection, Status status) {
        metrics.streamRefused(status);
    }

    private Opened openOrRefuse(Connection connection, long streamId, CallerIdentity caller, byte serializerCode,
                                ByteBuf body, long receivedNanos, Inbound inbound) {
        Serializer serializer = read.acceptedSerializer(serializerCode);
        if (serializer == null) {
            throw new Refused(Status.BAD_REQUEST, "the provider does not accept the serializer with code "
                    + serializerCode);
        }
        int bodyBytes = body.readableBytes();
        ServiceEntry[] found = new ServiceEntry[1];
        Refused[] refusal = new Refused[1];
        String[] authorizedMethod = new String[1];
        MessageWrapper message;
        try {
            message = serializer.readRequest(body, (appName, metadata, methodName) -> {
                Refused refused = lookUp(found, caller, connection, serializerCode, metadata, methodName);
                refusal[0] = refused;
                authorizedMethod[0] = methodName;
                return refused != null ? null : openArgumentTypes(found[0], methodName);
            });
        } catch (RuntimeException | StackOverflowError e) {
            throw new Refused(ProviderFailures.statusOf(e, ProviderFailures.Where.READ, null),
                    "the provider cannot read the stream's open: " + e.getMessage());
        }
        if (refusal[0] != null) {
            throw refusal[0];
        }
        ServiceEntry service = found[0];
        if (message == null || service == null) {
            throw new Refused(Status.BAD_REQUEST, "the stream's open names no service");
        }
        String methodName = message.getMethodName();
        if (!authorizedMethod[0].equals(methodName) || services.find(message.getMetadata()) != service) {
            // As for a request (ReadStage): what was looked up and authorized is what runs.
            throw new Refused(Status.BAD_REQUEST, "the stream's open names another service or method after the one"
                    + " it was authorized for (" + service.key() + "." + authorizedMethod[0] + ")");
        }
        long deadlineNanos = message.getAttachments() == null ? 0
                : Deadlines.fromAttachment(message.getAttachments().get(Deadlines.KEY), receivedNanos);
        if (deadlineNanos != 0) {
            inbound.deadline(deadlineNanos); // armed before the method runs: a blocking reader may never return
        }
        Map<String, String> sent = message.getAttachments();
        long producerFirst = SilenceDeadline.millis(sent, SilenceDeadline.FIRST_MESSAGE_KEY);
        long producerIdle = SilenceDeadline.millis(sent, SilenceDeadline.IDLE_KEY);
        long consumerFirst = SilenceDeadline.millis(sent, SilenceDeadline.CONSUMER_FIRST_MESSAGE_KEY);
        long consumerIdle = SilenceDeadline.millis(sent, SilenceDeadline.CONSUMER_IDLE_KEY);
        if ((producerFirst | producerIdle | consumerFirst | consumerIdle) != 0) {
            inbound.silenceDeadlines(receivedNanos, producerFirst, producerIdle, consumerFirst, consumerIdle);
        }
        Object[] args = message.getArgs() == null ? new Object[0] : message.getArgs();
        InterceptorChain chain = service.chain();
        DefaultInvocation invocation = DefaultInvocation.provider(service.key(), methodName, args,
                message.getAppName(), connection.remoteAddress(), caller, message.getAttachments(), receivedNanos,
                bodyBytes, streamId);
        invocation.stream(true);
        if (chain != null) {
            try {
                chain.before(invocation);
            } catch (RuntimeException | Error e) {
                throw new Refused(ProviderFailures.statusOf(e, ProviderFailures.Where.INTERCEPTOR, null),
                        String.valueOf(e.getMessage()));
            }
        }
        StreamMetrics streamMetrics = metrics.streamOpened(service.key(), methodName);
        if (streamMetrics != null) {
            inbound.metrics(streamMetrics); // before the method runs: it may read the consumer's messages at once
        }
        Object result;
        DefaultInvocation previous = ContextHolder.enter(invocation);
        Interceptor.MethodScope[] scopes = chain == null ? null : chain.enterMethod(invocation);
        MethodEntry method = null;
        try {
            // The open carries the arguments but the consumer's stream; the method reads that from a publisher.
            Object[] all = withInboundSlot(service, methodName, args);
            method = service.resolve(methodName, all);
            int at = StreamShape.inboundParameter(method.method);
            if (at >= 0 && all.length > args.length) {
                all[at] = inbound.publisher(serializer, StreamShape.inboundType(method.method, at));
            }
            result = method.invoke(all);
            if (method.method.getReturnType() != Flow.Publisher.class) {
                result = SingleReply.of(result); // client streaming: one answer, then the end
            }
        } catch (Throwable t) {
            Throwable cause = Throwables.unwrap(t);
            Status status = ProviderFailures.statusOf(cause, ProviderFailures.Where.METHOD, method);
            if (chain != null) {
                invocation.status(status);
                chain.after(invocation, null, cause);
            }
            throw new Refused(status, String.valueOf(cause));
        } finally {
            InterceptorChain.exitMethod(scopes);
            ContextHolder.exit(previous);
        }
        String name = service.key() + "." + methodName;
        OutboundStream.EndListener onEnd = chain == null ? (status, reason) -> { }
                : (status, reason) -> {
                    invocation.status(status);
                    chain.after(invocation, null, status == Status.OK ? null : new StreamException(status, reason));
                };
        return new Opened((Flow.Publisher<?>) result, serializer, name, onEnd);
    }

    /**
     * The types an open's arguments may have: those of the stream methods named {@code methodName}, without the
     * parameter that is the consumer's stream (its messages travel in frames of their own).
     */
    private ArgumentTypes openArgumentTypes(ServiceEntry service, String methodName) {
        return openTypes.computeIfAbsent(service.key() + "." + methodName, k -> {
            List<Class<?>[]> overloads = new ArrayList<>();
            for (Method method : streamMethods(service, methodName)) {
                overloads.add(withoutInbound(method));
            }
            return ArgumentTypes.of(methodName, overloads);
        });
    }

    private static List<Method> streamMethods(ServiceEntry service, String methodName) {
        List<Method> found = new ArrayList<>();
        for (Method method : service.serviceInterface().getMethods()) {
            if (method.getName().equals(methodName) && StreamShape.of(method) != StreamShape.NONE) {
                found.add(method);
            }
        }
        return found;
    }

    private static Class<?>[] withoutInbound(Method method) {
        Class<?>[] types = method.getParameterTypes();
        int at = StreamShape.inboundParameter(method);
        if (at < 0) {
            return types;
        }
        Class<?>[] rest = new Class<?>[types.length - 1];
        System.arraycopy(types, 0, rest, 0, at);
        System.arraycopy(types, at + 1, rest, at, types.length - at - 1);
        return rest;
    }

    /**
     * {@code args} with a {@code null} slot where the method that takes them as its other arguments takes the
     * consumer's stream, or {@code args} itself if that method takes none (a server stream).
     */
    private static Object[] withInboundSlot(ServiceEntry service, String methodName, Object[] args) {
        for (Method method : streamMethods(service, methodName)) {
            int at = StreamShape.inboundParameter(method);
            if (at >= 0 && method.getParameterCount() == args.length + 1) {
                Object[] all = new Object[args.length + 1];
                System.arraycopy(args, 0, all, 0, at);
                System.arraycopy(args, at, all, at + 1, args.length - at);
                return all;
            }
        }
        return args;
    }

    /** The lookup stage from the envelope; the refusal, or {@code null} with the service in {@code found[0]}. */
    private Refused lookUp(ServiceEntry[] found, CallerIdentity caller, Connection connection, byte serializerCode,
                           ServiceMetadata metadata, String methodName) {
        if (metadata == null) {
            return new Refused(Status.BAD_REQUEST, "the stream's open names no service");
        }
        ServiceEntry service = services.find(metadata);
        if (service == null) {
            return new Refused(Status.SERVICE_NOT_FOUND, "service not found: " + metadata.directory());
        }
        if (!service.acceptsSerializer(serializerCode)) {
            return new Refused(Status.BAD_REQUEST, "service " + service.key() + " accepts only "
                    + service.pinnedSerializers() + " serializers");
        }
        if (service.argumentTypes(methodName) == null || !isStreamMethod(service.serviceInterface(), methodName)) {
            return new Refused(Status.BAD_REQUEST, service.key() + "." + methodName + " is not a stream method");
        }
        if (authorizer != null && !authorizer.permits(caller, service.key(), methodName)) {
            unauthorized.warnFor(TransportAddresses.ipOf(connection.remoteAddress()),
                    "{}: stream refused: caller {} may not call {}.{}", connection.remoteAddress(),
                    LogText.of(caller.toString()), service.key(), LogText.of(methodName));
            return new Refused(Status.BAD_REQUEST, "caller " + caller + " is not authorized to call "
                    + service.key() + "." + methodName);
        }
        found[0] = service;
        return null;
    }
}
