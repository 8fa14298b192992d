package io.jupiter.rpc;

import java.util.List;

/** Lets tests in other packages serve {@link EchoService} and make its values. */
public final class EchoServiceAccess {

    private EchoServiceAccess() {
    }

    public static void register(JupiterServer server) {
        server.register(new EchoServiceImpl());
    }

    public static Object person(String name, int age) {
        return new EchoService.Person(name, age, List.of("tag"));
    }
}
