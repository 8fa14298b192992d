package io.jupiter.protocol.http;

import io.jupiter.rpc.context.RpcContext;
import java.util.Arrays;
import java.util.List;

final class CalculatorImpl implements Calculator {

    @Override
    public int add(int a, int b) {
        return a + b;
    }

    @Override
    public String greet(Person person) {
        return "Hello, " + person.getName() + " (" + person.getAge() + ")";
    }

    @Override
    public List<String> split(String text) {
        return Arrays.asList(text.split(","));
    }

    @Override
    public String now() {
        return "now";
    }

    @Override
    public void boom(String why) {
        throw new IllegalStateException(why);
    }

    @Override
    public String attachment(String key) {
        return RpcContext.attachment(key);
    }

    @Override
    public long sleep(long millis) {
        long left = RpcContext.remainingMillis();
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return left;
    }
}
