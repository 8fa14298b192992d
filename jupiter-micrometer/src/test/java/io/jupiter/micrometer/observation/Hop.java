package io.jupiter.micrometer.observation;

import io.jupiter.rpc.ServiceProvider;

@ServiceProvider(group = "test", name = "hop")
public interface Hop {

    String greet(String name);

    /** Fails with {@link IllegalStateException}. */
    String fail(String why);

    /** Calls {@link #greet} on {@link Impl#downstream} from inside the provider method. */
    String relay(String name);

    final class Impl implements Hop {

        volatile Hop downstream;

        @Override
        public String greet(String name) {
            return "Hello, " + name;
        }

        @Override
        public String fail(String why) {
            throw new IllegalStateException(why);
        }

        @Override
        public String relay(String name) {
            return "via " + downstream.greet(name);
        }
    }
}
