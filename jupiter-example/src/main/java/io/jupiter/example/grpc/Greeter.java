package io.jupiter.example.grpc;

import java.util.concurrent.Flow;

/**
 * The Java side of {@code greeter.proto}'s {@code service Greeter}: a Jupiter service like any other (callable over
 * the 1.3.1 protocol and HTTP/JSON too), whose methods take and return the messages protoc generated, so that gRPC
 * clients call it on a server with {@code protocols(HttpProtocols.httpAndGrpc())}. A method answers the gRPC method
 * of the same name, or of the name with its first letter upper-cased as {@code .proto} files write them
 * ({@code sayHello} answers {@code SayHello}).
 */
public interface Greeter {

    /** "Hello, {name}!". */
    HelloReply sayHello(HelloRequest request);

    /** {@code count} greetings, numbered from 1 (gRPC server streaming). */
    Flow.Publisher<HelloReply> sayHellos(HelloRequest request);
}
