package io.jupiter.rpc;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

@ServiceProvider(group = "test", name = "echo")
public interface EchoService {

    String hello(String name);

    /** Returns its argument: a parameter of type {@code Object}, which only the allow-list restricts. */
    Object echo(Object value);

    /** A string in lists nested {@code depth} deep: a deep answer to a shallow request. */
    Object nested(int depth);

    int add(int a, int b);

    long twice(long value);

    String ping();

    void touch(String key);

    String nothing();

    byte[] bytes(byte[] data);

    byte[] fill(int size);

    List<String> list(List<String> values);

    Map<String, Integer> map(Map<String, Integer> values);

    BigDecimal decimal(BigDecimal value);

    Color color(Color color);

    Person person(Person person);

    String describe(int value);

    String describe(String value);

    String sleep(long millis) throws InterruptedException;

    String failChecked(String message) throws CheckedFailure;

    String failUnchecked(String message);

    CompletableFuture<String> helloLater(String name);

    CompletableFuture<String> failLater(String message);

    enum Color { RED, GREEN, BLUE }

    final class Person implements Serializable {
        private static final long serialVersionUID = 1L;
        private String name;
        private int age;
        private List<String> tags;

        public Person() {
        }

        public Person(String name, int age, List<String> tags) {
            this.name = name;
            this.age = age;
            this.tags = tags;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Person p && p.age == age && Objects.equals(p.name, name)
                    && Objects.equals(p.tags, tags);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, age, tags);
        }

        @Override
        public String toString() {
            return "Person{" + name + ", " + age + ", " + tags + '}';
        }
    }

    final class CheckedFailure extends Exception {
        private static final long serialVersionUID = 1L;

        public CheckedFailure(String message) {
            super(message);
        }
    }
}
