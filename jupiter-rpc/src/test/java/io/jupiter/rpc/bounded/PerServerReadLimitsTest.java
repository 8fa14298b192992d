package io.jupiter.rpc.bounded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.EchoService;
import io.jupiter.rpc.EchoServiceImpl;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializerType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Read limits and the class allow-list are each server's and each client's own (issue #38's settings item): two
 * servers and two clients in one JVM, over real sockets, with every default serializer. A value nested 20 deep is
 * refused by the server that allows 12 and echoed by the one with the default 100; an answer nested 20 deep is
 * refused by the client that allows 12 and read by the other. A class one server's list trusts and the other's does
 * not is read by the one and refused by the other, and the global list is left as it was.
 */
class PerServerReadLimitsTest {

    private static final ReadLimits SHALLOW = ReadLimits.of(12, 1_000);

    @ParameterizedTest
    @EnumSource(value = SerializerType.class, names = {"PROTOSTUFF", "HESSIAN", "KRYO"})
    void eachServerAndClientReadsWithItsOwnDepth(SerializerType serializer) throws Exception {
        try (JupiterServer shallow = JupiterServer.builder().host("127.0.0.1").port(0).readLimits(SHALLOW).build();
             JupiterServer deep = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient shallowClient = JupiterClient.builder().readLimits(SHALLOW).build();
             JupiterClient deepClient = JupiterClient.builder().build()) {
            shallow.register(new EchoServiceImpl());
            deep.register(new EchoServiceImpl());
            int shallowPort = shallow.start().getPort();
            int deepPort = deep.start().getPort();
            Object nested = nested(20);

            EchoService toShallow = deepClient.proxy(EchoService.class).address("127.0.0.1", shallowPort)
                    .serializer(serializer).build();
            assertThatThrownBy(() -> toShallow.echo(nested)).isInstanceOf(RpcException.class)
                    .hasMessageContaining("nested deeper than 12");
            assertThat(toShallow.echo(nested(2))).isEqualTo(nested(2));

            EchoService toDeep = deepClient.proxy(EchoService.class).address("127.0.0.1", deepPort)
                    .serializer(serializer).build();
            assertThat(toDeep.echo(nested)).isEqualTo(nested);

            EchoService shallowToDeep = shallowClient.proxy(EchoService.class).address("127.0.0.1", deepPort)
                    .serializer(serializer).build();
            assertThatThrownBy(() -> shallowToDeep.nested(20)).isInstanceOf(RpcException.class)
                    .hasMessageContaining("nested deeper than 12");
            assertThat(shallowToDeep.nested(2)).isEqualTo(nested(2));
            assertThat(toDeep.nested(20)).isEqualTo(nested);
        }
    }

    @ParameterizedTest
    @EnumSource(value = SerializerType.class, names = {"PROTOSTUFF", "HESSIAN", "KRYO"})
    void eachServerChecksClassesAgainstItsOwnAllowList(SerializerType serializer) throws Exception {
        ClassAllowList trusting = ClassAllowList.create(ClassAllowList.Mode.STRICT).trust(Parcel.class);
        try (JupiterServer strict = JupiterServer.builder().host("127.0.0.1").port(0)
                     .allowList(ClassAllowList.create(ClassAllowList.Mode.STRICT)).build();
             JupiterServer lenient = JupiterServer.builder().host("127.0.0.1").port(0).allowList(trusting).build();
             JupiterClient client = JupiterClient.builder().allowList(trusting).build()) {
            strict.register(new EchoServiceImpl());
            lenient.register(new EchoServiceImpl());
            EchoService toStrict = client.proxy(EchoService.class).address("127.0.0.1", strict.start().getPort())
                    .serializer(serializer).build();
            EchoService toLenient = client.proxy(EchoService.class).address("127.0.0.1", lenient.start().getPort())
                    .serializer(serializer).build();

            assertThat(toLenient.echo(new Parcel("box"))).isEqualTo(new Parcel("box"));
            assertThatThrownBy(() -> toStrict.echo(new Parcel("box"))).isInstanceOf(RpcException.class)
                    .hasMessageContaining(Parcel.class.getSimpleName());
            assertThat(toStrict.echo("text")).isEqualTo("text");
        }
        assertThat(ClassAllowList.global().isTrusted(Parcel.class.getName())).as("the global list untouched")
                .isFalse();
    }

    private static Object nested(int depth) {
        Object value = "bottom";
        for (int i = 0; i < depth; i++) {
            List<Object> list = new ArrayList<>();
            list.add(value);
            value = list;
        }
        return value;
    }

    /** A class no allow-list trusts unless told to. */
    public static final class Parcel implements Serializable {
        private static final long serialVersionUID = 1L;
        private String label;

        public Parcel() {
        }

        Parcel(String label) {
            this.label = label;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Parcel other && Objects.equals(other.label, label);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(label);
        }
    }
}
