package io.jupiter.protocol.http;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.jupiter.rpc.internal.StatusTable;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The protobuf side of gRPC methods: a method is callable over gRPC when it takes one parameter and returns a value,
 * both protobuf messages ({@link Message}); its parameter's parser is found once and kept.
 */
final class ProtobufMethods {

    private final ConcurrentHashMap<Method, Parser<?>> parsers = new ConcurrentHashMap<>();

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
        Class<?>[] types = method.getParameterTypes();
        if (types.length != 1 || !Message.class.isAssignableFrom(types[0])
                || !Message.class.isAssignableFrom(method.getReturnType())) {
            throw new ForeignCallException(StatusTable.SERVICE_NOT_FOUND.status(),
                    method.getDeclaringClass().getName() + "."
                    + method.getName() + " is not callable over gRPC (expected: one protobuf message parameter and"
                    + " a protobuf message result)");
        }
        try {
            Message prototype = (Message) types[0].getMethod("getDefaultInstance").invoke(null);
            parser = prototype.getParserForType();
        } catch (ReflectiveOperationException e) {
            throw new ForeignCallException(StatusTable.SERVER_ERROR.status(),
                    "no parser for " + types[0].getName() + ": " + e);
        }
        parsers.putIfAbsent(method, parser);
        return parser;
    }
}
