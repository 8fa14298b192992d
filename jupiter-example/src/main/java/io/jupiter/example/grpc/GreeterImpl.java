package io.jupiter.example.grpc;

import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;

/** The example's {@link Greeter}. */
public final class GreeterImpl implements Greeter {

    @Override
    public HelloReply sayHello(HelloRequest request) {
        return HelloReply.newBuilder().setMessage("Hello, " + request.getName() + "!").build();
    }

    @Override
    public Flow.Publisher<HelloReply> sayHellos(HelloRequest request) {
        return subscriber -> {
            SubmissionPublisher<HelloReply> publisher = new SubmissionPublisher<>();
            publisher.subscribe(subscriber);
            // submit() waits while the subscriber is behind: a thread of its own, not the provider's.
            Thread producer = new Thread(() -> {
                try (publisher) {
                    for (int i = 1; i <= request.getCount(); i++) {
                        publisher.submit(HelloReply.newBuilder()
                                .setMessage("Hello " + i + ", " + request.getName() + "!").build());
                    }
                }
            }, "greeter-hellos");
            producer.setDaemon(true);
            producer.start();
        };
    }
}
