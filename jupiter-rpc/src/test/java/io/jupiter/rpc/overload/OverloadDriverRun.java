package io.jupiter.rpc.overload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Runs the {@link OverloadDriver} from Maven, only when asked (it takes about a minute per factor):
 * <pre>
 * mvn -B -o -pl jupiter-rpc -am verify -Dtest=OverloadDriverRun -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Djacoco.skip=true -Doverload.driver=3,10:15:10 [-Djupiter.rpc.provider.queue.target.millis=0 ...]
 * </pre>
 * The property is the driver's arguments, {@code factors:overloadSeconds:afterSeconds[:C]}.
 */
class OverloadDriverRun {

    @Test
    @EnabledIfSystemProperty(named = "overload.driver", matches = ".+")
    void run() throws Exception {
        OverloadDriver.main(System.getProperty("overload.driver").split(":"));
    }
}
