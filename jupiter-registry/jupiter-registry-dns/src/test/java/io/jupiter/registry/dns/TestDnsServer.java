package io.jupiter.registry.dns;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny DNS server on 127.0.0.1 (UDP, an ephemeral port) the test controls: it answers A queries from a table,
 * NXDOMAIN for names it does not know, an empty answer to every other type, and nothing at all while
 * {@link #silent(boolean) silent}.
 */
final class TestDnsServer implements AutoCloseable {

    private final Map<String, List<String>> records = new ConcurrentHashMap<>();
    private final AtomicInteger queries = new AtomicInteger();
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel channel;
    private volatile boolean silent;

    TestDnsServer() throws InterruptedException {
        channel = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                .handler(new ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel ch) {
                        ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                                new Responder());
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** Sets the A records of {@code name} (IPv4 literals); none removes the name (NXDOMAIN). */
    void set(String name, String... ipv4) {
        if (ipv4.length == 0) {
            records.remove(name);
        } else {
            records.put(name, List.of(ipv4));
        }
    }

    void silent(boolean silent) {
        this.silent = silent;
    }

    int queries() {
        return queries.get();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Responder extends SimpleChannelInboundHandler<DatagramDnsQuery> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) throws Exception {
            queries.incrementAndGet();
            if (silent) {
                return;
            }
            DnsQuestion question = query.recordAt(DnsSection.QUESTION);
            String name = question.name().endsWith(".") ? question.name().substring(0, question.name().length() - 1)
                    : question.name();
            List<String> addresses = records.get(name);
            DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
            response.setRecursionDesired(query.isRecursionDesired()).setRecursionAvailable(true)
                    .setAuthoritativeAnswer(true);
            response.addRecord(DnsSection.QUESTION, question);
            if (addresses == null) {
                response.setCode(DnsResponseCode.NXDOMAIN);
            } else if (question.type() == DnsRecordType.A) {
                for (String address : addresses) {
                    byte[] bytes = InetAddress.getByName(address).getAddress();
                    response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), DnsRecordType.A,
                            0, Unpooled.wrappedBuffer(bytes)));
                }
            }
            ctx.writeAndFlush(response);
        }
    }
}
