package io.jupiter.protocol.http;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** What a grpc-java call's response observer saw: its messages, then how the call ended. */
final class Received<R> implements StreamObserver<R> {

    final List<R> messages = new CopyOnWriteArrayList<>();
    final CompletableFuture<Status> closed = new CompletableFuture<>();

    @Override
    public void onNext(R value) {
        messages.add(value);
    }

    @Override
    public void onError(Throwable t) {
        closed.complete(Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
        closed.complete(Status.OK);
    }
}
