package io.jupiter.example.spring.consumer;

import io.jupiter.example.spring.api.Greeter;
import io.jupiter.spring.boot.JupiterReference;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.PropertySource;
import org.springframework.stereotype.Component;

/** The consumer: finds the provider in the registry, calls it a few times, prints the replies. */
@SpringBootApplication
@PropertySource("classpath:consumer.properties")
public class ConsumerApplication {

    /** Runs the consumer (without a web server) and returns its context once the calls were made. */
    public static ConfigurableApplicationContext run(String... args) {
        return new SpringApplicationBuilder(ConsumerApplication.class).web(WebApplicationType.NONE).run(args);
    }

    /** Calls the greeter once per name; the exit code is the number of failed calls. */
    @Component
    public static class Greetings implements CommandLineRunner, ExitCodeGenerator {

        private static final List<String> NAMES = List.of("ada", "grace", "linus");

        private final Greeter greeter;
        private final List<String> replies = new ArrayList<>();
        private int failures;

        public Greetings(@JupiterReference(timeoutMillis = 5_000) Greeter greeter) {
            this.greeter = greeter;
        }

        @Override
        public void run(String... args) {
            for (String name : NAMES) {
                try {
                    String reply = greeter.greet(name);
                    replies.add(reply);
                    System.out.println(reply);
                } catch (RuntimeException e) {
                    failures++;
                    System.out.println("call failed: " + e);
                }
            }
        }

        /** The replies received, in order. */
        public List<String> replies() {
            return List.copyOf(replies);
        }

        @Override
        public int getExitCode() {
            return failures;
        }
    }
}
