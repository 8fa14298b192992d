package compat.legacy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import org.jupiter.rpc.DefaultServer;
import org.jupiter.rpc.JServer;
import org.jupiter.rpc.model.metadata.ServiceWrapper;
import org.jupiter.transport.netty.JNettyTcpAcceptor;

/**
 * A Jupiter 1.3.1 provider of {@link CompatService} on 127.0.0.1:{@code args[0]} that publishes it to the embedded
 * registry at {@code args[1]} ({@code host:port}), as 1.3.1 does it (an empty host: the registry fills it in).
 * Prints {@code ready <port>} once bound and published, then serves until its standard input says {@code exit}.
 */
public final class LegacyRegistryProvider {

    private LegacyRegistryProvider() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        JServer server = new DefaultServer().withAcceptor(new JNettyTcpAcceptor(new InetSocketAddress("127.0.0.1", port)));
        server.connectToRegistryServer(args[1]);
        ServiceWrapper service = server.serviceRegistry().provider(new CompatServiceImpl()).register();
        server.publish(service);
        server.start(false);
        System.out.println("ready " + port);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("exit")) {
            // nothing else to do
        }
        server.shutdownGracefully();
        System.exit(0);
    }
}
