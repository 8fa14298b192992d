package io.jupiter.rpc.discovery;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

public final class NoticeServiceImpl implements NoticeService {

    final String name;
    final List<String> notices = new CopyOnWriteArrayList<>();

    NoticeServiceImpl(String name) {
        this.name = name;
    }

    @Override
    public CompletableFuture<?> notify(String notice) {
        notices.add(notice);
        return CompletableFuture.completedFuture(name + ':' + notice);
    }

    @Override
    public CompletableFuture<?> notifyOrFail(String notice, String failIn) {
        notices.add(notice);
        if (name.equals(failIn)) {
            throw new IllegalStateException("refused by " + name);
        }
        return CompletableFuture.completedFuture(name);
    }

    @Override
    public String name() {
        notices.add("name");
        return name;
    }
}
