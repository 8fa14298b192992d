package io.jupiter.rpc;

import java.util.concurrent.CountDownLatch;

/** A provider in its own JVM, for tests that kill it: prints {@code ready <port>} once it serves. */
public final class StandaloneProvider {

    private StandaloneProvider() {
    }

    public static void main(String[] args) throws InterruptedException {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(Integer.parseInt(args[0])).build();
        server.register(new EchoServiceImpl());
        System.out.println("ready " + server.start().getPort());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
