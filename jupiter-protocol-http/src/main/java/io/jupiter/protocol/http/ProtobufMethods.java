package io.jupiter.protocol.http;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.stream.StreamShape;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The protobuf side of gRPC methods: a method is callable over gRPC when it takes one protobuf message
 * ({@link Message}) and returns one, or a {@code Flow.Publisher} of them (a server stream); its parameter's parser is
 * found once and kept.
 */
final class ProtobufMethods {

    private final ConcurrentHashMap<Method, Parser<?>> parsers = new ConcurrentHashMap<>();

    /**
     * Whether {@code method} is callable over gRPC: it takes one protobuf message and returns one (unary), or a
     * {@code Flow.Publisher} of them (a server stream).
     */
    static boolean callable(Method method) {
        Class<?>[] types = method.getParameterTypes();
        return types.length == 1 && Message.class.isAssignableFrom(types[0])
                && Message.class.isAssignableFrom(responseType(method));
    }

    /** Whether {@code method} answers with a stream ({@code Flow.Publisher<R> m(Q)}). */
    static boolean serverStreaming(Method method) {
        return StreamShape.of(method) == StreamShape.SERVER;
    }

    /** The class of {@code method}'s response messages: its return type, or the {@code R} of a stream's publisher. */
    static Class<?> responseType(Method method) {
        return serverStreaming(method) ? StreamShape.messageType(method.getGenericReturnType())
                : method.getReturnType();
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
                    + method.getName() + " is not callable over gRPC (expected: one protobuf message parameter and"
                    + " a protobuf message result, or a Flow.Publisher of them)");
        }
        parser = prototype(method.getParameterTypes()[0]).getParserForType();
        parsers.putIfAbsent(method, parser);
        return parser;
    }
}
