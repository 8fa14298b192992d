package io.jupiter.protocol.http;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.stream.StreamShape;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The protobuf side of gRPC methods: a method is callable over gRPC when its request and response messages are
 * protobuf messages ({@link Message}), in any of the four shapes below; its request's parser is found once and
 * kept.
 *
 * <pre>
 * gRPC                     Java
 * unary                    R m(Q)
 * server streaming         Flow.Publisher&lt;R&gt; m(Q)
 * client streaming         R m(Flow.Publisher&lt;Q&gt;), CompletableFuture&lt;R&gt; m(Flow.Publisher&lt;Q&gt;)
 * bidirectional streaming  Flow.Publisher&lt;R&gt; m(Flow.Publisher&lt;Q&gt;)
 * </pre>
 */
final class ProtobufMethods {

    private final ConcurrentHashMap<Method, Parser<?>> parsers = new ConcurrentHashMap<>();

    /** Whether {@code method} is callable over gRPC: one parameter, and the shapes above of protobuf messages. */
    static boolean callable(Method method) {
        return method.getParameterCount() == 1 && Message.class.isAssignableFrom(requestType(method))
                && Message.class.isAssignableFrom(responseType(method));
    }

    /** Whether {@code method} answers with a stream ({@code Flow.Publisher<R> m(Q)}, or a bidirectional one). */
    static boolean serverStreaming(Method method) {
        StreamShape shape = StreamShape.of(method);
        return shape == StreamShape.SERVER || shape == StreamShape.BIDI;
    }

    /** Whether {@code method} reads a stream of the client's messages (client or bidirectional streaming). */
    static boolean clientStreaming(Method method) {
        StreamShape shape = StreamShape.of(method);
        return shape == StreamShape.CLIENT || shape == StreamShape.BIDI;
    }

    /** The class of {@code method}'s request messages: its one parameter, or the {@code Q} of its publisher. */
    static Class<?> requestType(Method method) {
        return clientStreaming(method) ? StreamShape.inboundType(method, 0) : method.getParameterTypes()[0];
    }

    /**
     * The class of {@code method}'s response messages: its return type, the {@code R} of a stream's publisher, or
     * of a client stream's {@code CompletableFuture}.
     */
    static Class<?> responseType(Method method) {
        if (serverStreaming(method)) {
            return StreamShape.messageType(method.getGenericReturnType());
        }
        return method.getReturnType() == CompletableFuture.class
                ? StreamShape.messageType(method.getGenericReturnType()) : method.getReturnType();
    }

    /** The prototype of a protobuf message class (its default instance). */
    static Message prototype(Class<?> type) {
        try {
            return (Message) type.getMethod("getDefaultInstance").invoke(null);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new ForeignCallException(StatusTable.SERVER_ERROR.status(),
                    "no default instance of " + type.getName() + ": " + e);
        }
    }

    /**
     * The parser of {@code method}'s parameter.
     *
     * @throws ForeignCallException UNIMPLEMENTED (SERVICE_NOT_FOUND) if the method is not one of protobuf messages
     */
    Parser<?> parameterParser(Method method) {
        Parser<?> parser = parsers.get(method);
        if (parser != null) {
            return parser;
        }
        if (!callable(method)) {
            throw new ForeignCallException(StatusTable.SERVICE_NOT_FOUND.status(),
                    method.getDeclaringClass().getName() + "."
                    + method.getName() + " is not callable over gRPC (expected: one protobuf message parameter, or"
                    + " a Flow.Publisher of them, and a protobuf message result, or a Flow.Publisher of them)");
        }
        parser = prototype(requestType(method)).getParserForType();
        parsers.putIfAbsent(method, parser);
        return parser;
    }
}
