package compat.legacy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import org.jupiter.registry.RegistryService;
import org.jupiter.rpc.DefaultServer;
import org.jupiter.rpc.JServer;
import org.jupiter.rpc.model.metadata.ServiceWrapper;
import org.jupiter.transport.netty.JNettyTcpAcceptor;

/**
 * A Jupiter 1.3.1 provider of {@link CompatService} on 127.0.0.1:{@code args[0]} that publishes itself to the
 * ZooKeeper at 127.0.0.1:{@code args[1]} (run with {@code -Djupiter.local.address=127.0.0.1}, the host it
 * publishes). Prints {@code ready <port>} once bound and published, then serves until its standard input says
 * {@code exit} or ends.
 */
public final class LegacyRegistryProvider {

    private LegacyRegistryProvider() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        JServer server = new DefaultServer(RegistryService.RegistryType.ZOOKEEPER)
                .withAcceptor(new JNettyTcpAcceptor(new InetSocketAddress("127.0.0.1", port)));
        server.connectToRegistryServer("127.0.0.1:" + args[1]);
        // weight: 1.3.1 publishes 0 when none is set
        ServiceWrapper service = server.serviceRegistry().provider(new CompatServiceImpl()).weight(50).register();
        server.start(false);
        server.publish(service);
        System.out.println("ready " + port);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("exit")) {
            // nothing else to do: the tests find this provider through ZooKeeper and call it over TCP
        }
        server.shutdownGracefully();
        System.exit(0);
    }
}
