package io.jupiter.benchmark.grpc;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * The server side of one {@code echo} stream, with gRPC's flow control both ways as its manual-flow-control example
 * does: automatic requests are off, and the next tick is asked for only while the echoes can be sent
 * ({@link ServerCallStreamObserver#isReady()}), else once the stream is ready again; so nothing queues without bound
 * when the client stops reading. gRPC runs the callbacks of one call one at a time.
 */
final class TickEchoer implements StreamObserver<byte[]>, Runnable {

    private final ServerCallStreamObserver<byte[]> call;
    /** Whether a tick has been asked for and not yet arrived. */
    private boolean asked;

    private TickEchoer(ServerCallStreamObserver<byte[]> call) {
        this.call = call;
    }

    /** The method's body: takes over the inbound flow control; gRPC calls {@link #run()} whenever it is ready. */
    static StreamObserver<byte[]> start(StreamObserver<byte[]> responses) {
        ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) responses;
        call.disableAutoRequest();
        TickEchoer echoer = new TickEchoer(call);
        call.setOnReadyHandler(echoer);
        return echoer;
    }

    @Override
    public void run() {
        if (!asked && call.isReady()) {
            asked = true;
            call.request(1);
        }
    }

    @Override
    public void onNext(byte[] tick) {
        asked = false;
        call.onNext(tick);
        run();
    }

    @Override
    public void onError(Throwable error) {
    }

    @Override
    public void onCompleted() {
        call.onCompleted();
    }
}
