package io.jupiter.rpc.internal.provider;

/**
 * Where calls and stream opens part, at the method, the first point where they really differ: a call goes on to
 * {@link #next} (its method and its answer frame), a stream's open to its own last stage (the stream method and
 * the stream's start).
 */
final class StreamForkStage extends ProviderStage {

    private final ProviderStage streamOpen;

    StreamForkStage(ProviderStage streamOpen, ProviderStage call) {
        super(call);
        this.streamOpen = streamOpen;
    }

    @Override
    void serve(ProviderRequest request) {
        (request.opensStream() ? streamOpen : next).serve(request);
    }
}
