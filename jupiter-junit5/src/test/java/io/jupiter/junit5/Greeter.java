package io.jupiter.junit5;

import io.jupiter.rpc.ServiceProvider;

@ServiceProvider(group = "junit", name = "greeter")
public interface Greeter {

    String greet(String name);

    /** An implementation that greets. */
    final class Impl implements Greeter {
        @Override
        public String greet(String name) {
            return "hello, " + name;
        }
    }
}
