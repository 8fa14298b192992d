package io.jupiter.protocol.http;

import java.util.List;

/** A service the HTTP/JSON tests call. */
public interface Calculator {

    int add(int a, int b);

    String greet(Person person);

    List<String> split(String text);

    String now();

    void boom(String why);

    /** The call's attachment {@code key}, or {@code null}. */
    String attachment(String key);

    /** Sleeps {@code millis}; returns the milliseconds its deadline left when it started. */
    long sleep(long millis);

    /** A parameter object, as JSON {@code {"name": ..., "age": ...}}. */
    final class Person {
        private String name;
        private int age;

        public Person() {
        }

        public Person(String name, int age) {
            this.name = name;
            this.age = age;
        }

        public String getName() {
            return name;
        }

        public int getAge() {
            return age;
        }

        public void setName(String name) {
            this.name = name;
        }

        public void setAge(int age) {
            this.age = age;
        }
    }
}
