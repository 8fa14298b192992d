package io.jupiter.rpc.discovery;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;

/** A service to broadcast to: every provider records the notices it got. */
@ServiceProvider(group = "test", name = "notice")
public interface NoticeService {

    /** Records the notice; answers "{provider}:{notice}". */
    CompletableFuture<?> notify(String notice);

    /** Records the notice; throws in the provider named {@code failIn}, answers the provider's name elsewhere. */
    CompletableFuture<?> notifyOrFail(String notice, String failIn);

    /** A synchronous method: broadcast only with InvokeType.ASYNC. */
    String name();
}
