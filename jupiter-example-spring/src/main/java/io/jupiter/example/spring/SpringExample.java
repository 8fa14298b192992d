package io.jupiter.example.spring;

import io.jupiter.example.spring.consumer.ConsumerApplication;
import io.jupiter.example.spring.provider.ProviderApplication;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;

/**
 * {@code java -jar jupiter-example-spring.jar provider|consumer [--property=value ...]}: runs the provider
 * application (embedded registry on 127.0.0.1:20001, Jupiter server on 127.0.0.1:18091, Actuator on
 * http://127.0.0.1:8081/actuator/health) or the consumer application (calls the provider through the registry, prints
 * the replies and exits: 0 if every call succeeded).
 */
public final class SpringExample {

    private SpringExample() {
    }

    public static void main(String[] args) {
        String which = args.length == 0 ? "" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (which) {
            case "provider" -> ProviderApplication.run(rest);
            case "consumer" -> System.exit(SpringApplication.exit(ConsumerApplication.run(rest)));
            default -> {
                System.err.println("usage: java -jar jupiter-example-spring.jar provider|consumer [--name=value ...]");
                System.exit(2);
            }
        }
    }
}
