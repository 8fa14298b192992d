package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.Throwables;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.stream.SingleReply;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.transport.Status;

/**
 * The last stage of a stream's open: its metrics, then the stream method inside the call's context, with the
 * consumer's stream in the parameter that takes it (the open carries the other arguments); the outcome goes to the
 * {@link Responder}: the method's publisher (a client stream's one answer as a publisher of one message), or its
 * failure with the status {@link ProviderFailures} gives it.
 */
final class StreamInvokeStage extends ProviderStage {

    private final RpcMetrics metrics;
    private final Responder respond;

    StreamInvokeStage(RpcMetrics metrics, Responder respond) {
        super(null);
        this.metrics = metrics;
        this.respond = respond;
    }

    @Override
    void serve(ProviderRequest request) {
        ServiceEntry service = request.service;
        String methodName = request.authorizedMethod;
        StreamMetrics streamMetrics = metrics.streamOpened(service.key(), methodName);
        if (streamMetrics != null) {
            request.stream.metrics(streamMetrics); // before the method runs: it may read the consumer's messages
        }
        ProviderCall call = request.call;
        Object[] args = call.invocation.args();
        Object result;
        Status status = Status.OK;
        DefaultInvocation previous = call.enter();
        MethodEntry method = null;
        try {
            Object[] all = withInboundSlot(service.methods(methodName), args);
            method = service.resolve(methodName, all);
            if (method.inboundParameter >= 0 && all.length > args.length) {
                all[method.inboundParameter] = request.stream.publisher(request.serializer, method.inboundType);
            }
            result = method.invoke(all);
            if (method.answersOnce) {
                result = SingleReply.of(result); // client streaming: one answer, then the end
            }
        } catch (Throwable t) {
            result = Throwables.unwrap(t);
            status = ProviderFailures.statusOf((Throwable) result, ProviderFailures.Where.METHOD, method);
        } finally {
            call.exit(previous);
        }
        respond.answer(request, status, result, 0L);
    }

    /**
     * {@code args} with a {@code null} slot where the stream method that takes them as its other arguments takes
     * the consumer's stream, or {@code args} itself if that method takes none (a server stream).
     */
    private static Object[] withInboundSlot(MethodEntry[] overloads, Object[] args) {
        for (MethodEntry method : overloads) {
            int at = method.inboundParameter;
            if (method.streams && at >= 0 && method.parameterTypes.length == args.length + 1) {
                Object[] all = new Object[args.length + 1];
                System.arraycopy(args, 0, all, 0, at);
                System.arraycopy(args, at, all, at + 1, args.length - at);
                return all;
            }
        }
        return args;
    }
}
