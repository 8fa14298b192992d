package io.jupiter.rpc;

import io.jupiter.testkit.OwnThreads;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

@ServiceProviderImpl(version = "1.0.0")
public class EchoServiceImpl implements EchoService {

    final Map<String, Integer> touched = new ConcurrentHashMap<>();

    @Override
    public String hello(String name) {
        return "hello, " + name;
    }

    @Override
    public Object echo(Object value) {
        return value;
    }

    @Override
    public Object nested(int depth) {
        Object value = "bottom";
        for (int i = 0; i < depth; i++) {
            value = new ArrayList<>(List.of(value));
        }
        return value;
    }

    @Override
    public int add(int a, int b) {
        return a + b;
    }

    @Override
    public long twice(long value) {
        return value * 2;
    }

    @Override
    public String ping() {
        return "pong";
    }

    @Override
    public void touch(String key) {
        touched.merge(key, 1, Integer::sum);
    }

    @Override
    public String nothing() {
        return null;
    }

    @Override
    public byte[] bytes(byte[] data) {
        return data;
    }

    @Override
    public byte[] fill(int size) {
        byte[] data = new byte[size];
        Arrays.fill(data, (byte) 'x');
        return data;
    }

    @Override
    public List<String> list(List<String> values) {
        List<String> copy = new ArrayList<>(values);
        copy.add("!");
        return copy;
    }

    @Override
    public Map<String, Integer> map(Map<String, Integer> values) {
        Map<String, Integer> copy = new HashMap<>(values);
        copy.put("size", values.size());
        return copy;
    }

    @Override
    public BigDecimal decimal(BigDecimal value) {
        return value.add(BigDecimal.ONE);
    }

    @Override
    public Color color(Color color) {
        return color == Color.RED ? Color.BLUE : Color.RED;
    }

    @Override
    public Person person(Person person) {
        return person;
    }

    @Override
    public String describe(int value) {
        return "int:" + value;
    }

    @Override
    public String describe(String value) {
        return "string:" + value;
    }

    @Override
    public String sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return "slept " + millis;
    }

    @Override
    public String failChecked(String message) throws CheckedFailure {
        throw new CheckedFailure(message);
    }

    @Override
    public String failUnchecked(String message) {
        throw new IllegalStateException(message);
    }

    @Override
    public CompletableFuture<String> helloLater(String name) {
        return CompletableFuture.supplyAsync(() -> "later, " + name, OwnThreads.EXECUTOR);
    }

    @Override
    public CompletableFuture<String> failLater(String message) {
        CompletableFuture<String> future = new CompletableFuture<>();
        future.completeExceptionally(new IllegalArgumentException(message));
        return future;
    }
}
