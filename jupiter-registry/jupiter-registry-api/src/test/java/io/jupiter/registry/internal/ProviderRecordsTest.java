package io.jupiter.registry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.internal.ProviderRecords.HostRule;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The one record check every registry shares (issue #37). */
class ProviderRecordsTest {

    private static final ServiceMeta KEY = new ServiceMeta("g", "n", "1");

    @Test
    void checksPortHostFamilyAndKey() {
        ProviderRecords records = new ProviderRecords("test");
        assertThat(records.accept("s", KEY, KEY, "10.0.0.1", HostRule.IPV4, 8080, 50, 4)).isNotNull();
        assertThat(records.accept("s", KEY, KEY, "fe80::1", HostRule.IPV6, 8080, 50, 4)).isNotNull();
        assertThat(records.accept("s", KEY, KEY, "::ffff:10.0.0.1", HostRule.IPV6, 1, 50, 4)).isNotNull();
        assertThat(records.accept("s", KEY, KEY, "provider-1.shop.svc", HostRule.IP_OR_HOST_NAME, 65535, 50, 4))
                .isNotNull();
        for (String bad : List.of("localhost", "300.1.2.3", "1.2.3", "1.2.3.4.5", "01234.1.1.1", "::1", "",
                "0.0.0.0", "224.0.0.1", "255.255.255.255", "10.0.0.1 ", "10.0.0.-1")) {
            assertThat(records.accept("s", KEY, KEY, bad, HostRule.IPV4, 8080, 50, 4)).as(bad).isNull();
        }
        for (String bad : List.of("127.0.0.1", "::", "ff02::1", "1::2::3", "12345::1", "g::1", "1:2:3:4:5:6:7:8:9",
                "fe80::1%eth0", "[::1]")) {
            assertThat(records.accept("s", KEY, KEY, bad, HostRule.IPV6, 8080, 50, 4)).as(bad).isNull();
        }
        for (String bad : List.of("300.1.2.3", "-a.b", "a..b", "a_b", "x".repeat(64))) {
            assertThat(records.accept("s", KEY, KEY, bad, HostRule.IP_OR_HOST_NAME, 8080, 50, 4)).as(bad).isNull();
        }
        for (Integer port : new Integer[] {null, 0, -1, 65536, 70000}) {
            assertThat(records.accept("s", KEY, KEY, "10.0.0.1", HostRule.IP, port, 50, 4)).isNull();
        }
        assertThat(records.accept("s", KEY, new ServiceMeta("g", "n", "2"), "10.0.0.1", HostRule.IP, 80, 50, 4))
                .isNull();
        assertThat(records.accept("s", KEY, null, "10.0.0.1", HostRule.IP, 80, 50, 4)).isNull();
        RegisterMeta clamped = records.accept("s", KEY, KEY, "10.0.0.1", HostRule.IP, 80, 500, 0);
        assertThat(clamped.weight()).isEqualTo(RegisterMeta.MAX_WEIGHT);
        assertThat(clamped.connCount()).isEqualTo(1);
    }

    @Test
    void aRecordThatStaysBadIsCountedAndLoggedOnce() {
        ProviderRecords records = new ProviderRecords("test");
        for (int update = 0; update < 100; update++) {
            records.accept("slice-a", KEY, KEY, "10.0.0.1", HostRule.IPV4, 70000, 50, 4);
            records.accept("slice-b", KEY, KEY, "localhost", HostRule.IPV4, 80, 50, 4);
        }
        assertThat(records.skipped()).isEqualTo(2);
    }

    @Test
    void randomTextNeverThrowsAndNeverPassesUnlessItIsALiteral() {
        Random random = new Random(37);
        ProviderRecords records = new ProviderRecords("test");
        String alphabet = "0123456789abcdef:.%[]-x ";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int c = random.nextInt(48); c > 0; c--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String host = text.toString();
            RegisterMeta meta = records.accept("s", KEY, KEY, host, HostRule.IP, random.nextInt(70000) - 1000,
                    random.nextInt(), random.nextInt());
            if (meta != null) {
                assertThat(HostLiterals.ipv4(host) != null || HostLiterals.ipv6(host) != null).as(host).isTrue();
            }
        }
    }
}
