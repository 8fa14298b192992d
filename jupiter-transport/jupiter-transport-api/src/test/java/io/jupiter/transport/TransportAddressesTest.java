package io.jupiter.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TransportAddressesTest {

    @Test
    void eachKindParsesAndFormatsBack() {
        assertThat(TransportAddresses.parse("127.0.0.1:18090")).isEqualTo(new InetSocketAddress("127.0.0.1", 18090));
        assertThat(TransportAddresses.parse("unix:/run/jupiter.sock"))
                .isEqualTo(UnixDomainSocketAddress.of("/run/jupiter.sock"));
        assertThat(TransportAddresses.parse("inprocess:orders")).isEqualTo(InProcessAddress.of("orders"));
        for (String text : new String[] {"127.0.0.1:18090", "unix:/run/jupiter.sock", "inprocess:orders"}) {
            assertThat(TransportAddresses.format(TransportAddresses.parse(text))).isEqualTo(text);
        }
        // An IPv6 literal comes back bracketed (in the JDK's long form), and parses again to the same address.
        String v6 = TransportAddresses.format(TransportAddresses.parse("[::1]:8080"));
        assertThat(v6).isEqualTo("[0:0:0:0:0:0:0:1]:8080");
        assertThat(TransportAddresses.parse(v6)).isEqualTo(TransportAddresses.parse("[::1]:8080"));
        assertThat(TransportAddresses.format(UnixDomainSocketAddress.of(Path.of("rel.sock"))))
                .isEqualTo("unix:rel.sock");
    }

    @Test
    void badTextIsRefusedNamingWhatIsExpected() {
        assertThatThrownBy(() -> TransportAddresses.parse("localhost")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("address: 'localhost' (expected: host:port, unix:PATH or inprocess:NAME)");
        assertThatThrownBy(() -> TransportAddresses.parse("host:http")).hasMessageContaining("expected: host:port");
        assertThatThrownBy(() -> TransportAddresses.parse("host:0")).hasMessageContaining("port");
        assertThatThrownBy(() -> TransportAddresses.parse("unix:")).hasMessageContaining("expected: unix:PATH");
        assertThatThrownBy(() -> TransportAddresses.parse("inprocess: ")).hasMessageContaining("inprocess:NAME");
        assertThatThrownBy(() -> InProcessAddress.of("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyTcpHasAnIp() throws Exception {
        InetSocketAddress tcp = new InetSocketAddress("127.0.0.1", 1);
        assertThat(TransportAddresses.ipOf(tcp)).isEqualTo(InetAddress.getByName("127.0.0.1"));
        assertThat(TransportAddresses.ipOf(UnixDomainSocketAddress.of("/x"))).isNull();
        assertThat(TransportAddresses.ipOf(InProcessAddress.of("x"))).isNull();
        assertThat(TransportAddresses.isTcp(tcp)).isTrue();
        assertThat(TransportAddresses.isTcp(InProcessAddress.of("x"))).isFalse();
    }

    @Test
    void inProcessAddressesAreValues() {
        assertThat(InProcessAddress.of("a")).isEqualTo(InProcessAddress.of("a"))
                .hasSameHashCodeAs(InProcessAddress.of("a")).isNotEqualTo(InProcessAddress.of("b"))
                .hasToString("inprocess:a");
        assertThat(InProcessAddress.of("a").name()).isEqualTo("a");
    }
}
