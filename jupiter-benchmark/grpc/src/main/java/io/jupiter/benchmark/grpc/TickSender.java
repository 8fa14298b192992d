package io.jupiter.benchmark.grpc;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * The server side of one {@code Ticks} stream, with gRPC's outbound flow control used as its documentation asks: it
 * sends only while {@link ServerCallStreamObserver#isReady()} is true and resumes from the on-ready handler, so its
 * queue never grows past gRPC's ready threshold; a cancel stops it.
 */
final class TickSender implements Runnable {

    private final byte[] request;
    private final ServerCallStreamObserver<byte[]> call;
    private volatile boolean cancelled;

    private TickSender(byte[] request, ServerCallStreamObserver<byte[]> call) {
        this.request = request;
        this.call = call;
    }

    /** The method's body: installs the handlers; gRPC calls {@link #run()} each time the stream becomes ready. */
    static void start(byte[] request, StreamObserver<byte[]> responses) {
        ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) responses;
        TickSender sender = new TickSender(request, call);
        call.setOnCancelHandler(() -> sender.cancelled = true);
        call.setOnReadyHandler(sender);
    }

    @Override
    public void run() {
        while (!cancelled && call.isReady()) {
            call.onNext(BenchmarkMethods.tick(request));
        }
    }
}
