package io.jupiter.rpc.internal.provider;

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
final class StreamInvokeStage extends MethodStage {

    StreamInvokeStage(RpcMetrics metrics, Responder respond) {
        super(metrics, respond);
    }

    @Override
    Object invoke(ProviderRequest request) throws Throwable {
        ServiceEntry service = request.service;
        String methodName = request.authorizedMethod;
        StreamMetrics streamMetrics = metrics.streamOpened(service.key(), methodName);
        if (streamMetrics != null) {
            request.stream().metrics(streamMetrics); // before the method runs: it may read the consumer's messages
        }
        Object[] args = request.call.invocation.args();
        Object[] all = withInboundSlot(service.methods(methodName), args);
        MethodEntry method = service.resolve(methodName, all);
        request.method = method;
        if (method.inboundParameter >= 0 && all.length > args.length) {
            all[method.inboundParameter] = request.stream().publisher(request.serializer, method.inboundType);
        }
        Object result = method.invoke(all);
        return method.answersOnce ? SingleReply.of(result) : result; // client streaming: one answer, then the end
    }

    @Override
    void invoked(ProviderRequest request, Status status, Object result, long started, long done) {
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
