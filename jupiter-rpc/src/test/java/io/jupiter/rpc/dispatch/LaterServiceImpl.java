package io.jupiter.rpc.dispatch;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

public final class LaterServiceImpl implements LaterService {

    private record Waiting(CompletableFuture<String> answer, String value) {
    }

    private final BlockingQueue<Waiting> waiting = new LinkedBlockingQueue<>();

    @Override
    public CompletableFuture<String> later(String value) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        waiting.add(new Waiting(answer, value));
        return answer;
    }

    @Override
    public String now(String value) {
        return value;
    }

    /** Answers the oldest waiting call; fails if none arrives within ten seconds. */
    void answerOne() throws InterruptedException {
        Waiting next = waiting.poll(10, TimeUnit.SECONDS);
        if (next == null) {
            throw new AssertionError("no call arrived within 10 s");
        }
        next.answer().complete(next.value());
    }
}
