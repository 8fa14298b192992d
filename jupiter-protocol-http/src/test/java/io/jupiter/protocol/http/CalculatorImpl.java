package io.jupiter.protocol.http;

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
}
