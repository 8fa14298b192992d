package io.jupiter.rpc.dispatch;

import io.jupiter.rpc.NonBlocking;
import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;

/** Methods that answer with the name of the thread they ran on, one for each way a method can be declared. */
@ServiceProvider(group = "test", name = "threads")
public interface ThreadService {

    /** Not declared: may block. */
    String plain();

    @NonBlocking
    String declaredOnInterface();

    /** Declared by the implementation's method. */
    String declaredOnImplementation();

    /** Declared on the interface, undone by the implementation. */
    @NonBlocking
    String undeclaredByImplementation();

    /** A stage, undeclared: it may block before it returns, so it runs on the pool. */
    CompletableFuture<String> stage();

    @NonBlocking
    CompletableFuture<String> declaredStage();

    @NonBlocking(false)
    CompletableFuture<String> blockingStage();

    /** An overload pair where only one is declared non-blocking: the name is learned, starting on the pool. */
    @NonBlocking
    String overloaded(String a);

    String overloaded(int a);

    /** Not declared: waits {@code micros} microseconds (0: returns at once), then answers. */
    String sleepy(long micros);

    /** Not declared: answers with its thread; {@code payload} makes the request as large as wanted. */
    String echoThread(String payload);
}
