package io.jupiter.rpc;

/** Lets stream tests in other packages read how many streams a server has open ({@code JupiterServer.streams()}). */
public final class ServerStreamsAccess {

    private ServerStreamsAccess() {
    }

    /** Streams open now on {@code server}, on every connection. */
    public static int openStreams(JupiterServer server) {
        return server.streams().openStreams();
    }

    /** Streams of {@code server} that hold one of its stream threads now. */
    public static int streamsHoldingAThread(JupiterServer server) {
        return server.streams().streamsHoldingAThread();
    }

    /** Opens waiting for one of {@code server}'s stream threads now. */
    public static int opensWaitingForAThread(JupiterServer server) {
        return server.streams().opensWaitingForAThread();
    }
}
