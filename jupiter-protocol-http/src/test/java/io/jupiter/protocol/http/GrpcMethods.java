package io.jupiter.protocol.http;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.StringValue;
import io.grpc.MethodDescriptor;

/** grpc-java method descriptors of {@link Greeter}'s methods, as a client generated from its .proto has them. */
final class GrpcMethods {

    static final MethodDescriptor<StringValue, StringValue> SAY_HELLO = unary("sayHello", StringValue.parser(),
            StringValue.parser());

    private GrpcMethods() {
    }

    static <Q extends Message, R extends Message> MethodDescriptor<Q, R> unary(String name, Parser<Q> request,
                                                                                Parser<R> response) {
        return of(MethodDescriptor.MethodType.UNARY, name, request, response);
    }

    static <Q extends Message, R extends Message> MethodDescriptor<Q, R> of(MethodDescriptor.MethodType type,
                                                                             String name, Parser<Q> request,
                                                                             Parser<R> response) {
        return MethodDescriptor.<Q, R>newBuilder()
                .setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(Greeter.class.getName(), name))
                .setRequestMarshaller(new ProtoMarshaller<>(request))
                .setResponseMarshaller(new ProtoMarshaller<>(response))
                .build();
    }
}
