package io.jupiter.transport.netty;

import io.jupiter.transport.IoTransport;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportException;
import io.jupiter.transport.netty.internal.Transports;
import java.net.InetSocketAddress;

/**
 * Run by {@link TransportChoiceTest} in a JVM where Netty's native transports are switched off: prints what asking
 * for each transport gives, one line each, and whether an acceptor on io_uring started.
 */
final class UnavailableTransportMain {

    private UnavailableTransportMain() {
    }

    public static void main(String[] args) {
        for (IoTransport transport : IoTransport.values()) {
            try {
                Transports chosen = Transports.of(TransportConfig.builder().transport(transport).build());
                System.out.println(transport.settingName() + ": " + chosen.kind());
            } catch (TransportException e) {
                System.out.println(transport.settingName() + ": " + e.getMessage());
            }
        }
        TransportConfig ioUring = TransportConfig.builder().transport(IoTransport.IO_URING)
                .threadNamePrefix("unavailable").build();
        NettyAcceptor acceptor = new NettyAcceptor(ioUring, new InetSocketAddress("127.0.0.1", 0),
                (connection, frame) -> frame.release());
        boolean started;
        try {
            acceptor.start();
            started = true;
        } catch (TransportException e) {
            started = false;
        } finally {
            acceptor.close();
        }
        System.out.println("started: " + started);
    }
}
