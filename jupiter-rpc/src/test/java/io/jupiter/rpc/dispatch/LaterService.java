package io.jupiter.rpc.dispatch;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;

/** Answers when the test says so, so that a caller's callbacks are in place before the response arrives. */
@ServiceProvider(group = "test", name = "later")
public interface LaterService {

    CompletableFuture<String> later(String value);

    String now(String value);
}
