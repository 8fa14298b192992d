package io.jupiter.apicheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.apicheck.fixture.api.Clean;
import io.jupiter.apicheck.fixture.api.Leaky;
import io.jupiter.apicheck.fixture.internal.Hidden;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker itself, on fixtures: it finds each kind of leak and nothing else. */
class InternalApiCheckerTest {

    private static final String HIDDEN = "io.jupiter.apicheck.fixture.internal.Hidden";
    private static final String LEAKY = "io.jupiter.apicheck.fixture.api.Leaky";

    @Test
    void internalPackagesAreThoseWithAnInternalName() {
        assertThat(InternalApiChecker.isInternal("io.jupiter.rpc.internal")).isTrue();
        assertThat(InternalApiChecker.isInternal("io.jupiter.rpc.internal.consumer")).isTrue();
        assertThat(InternalApiChecker.isInternal("io.netty.util.internal")).isTrue();
        assertThat(InternalApiChecker.isInternal("io.jupiter.rpc")).isFalse();
        assertThat(InternalApiChecker.isInternal("io.jupiter.internals")).isFalse();
        assertThat(InternalApiChecker.isInternal("")).isFalse();
    }

    @Test
    void findsEveryWayASignatureCanMentionAnInternalType() {
        List<String> violations = InternalApiChecker.check(List.of(Leaky.class, Leaky.Subclass.class));

        assertThat(violations).containsExactlyInAnyOrder(
                "public " + HIDDEN + " " + LEAKY + ".field -> " + HIDDEN,
                "protected " + HIDDEN + "[] " + LEAKY + ".protectedArrayField -> " + HIDDEN,
                "public " + LEAKY + "(" + HIDDEN + ") -> " + HIDDEN,
                "public java.util.List " + LEAKY + ".genericReturn() -> " + HIDDEN,
                "protected void " + LEAKY + ".protectedParameter(java.util.Map) -> " + HIDDEN + "$Nested",
                "public void " + LEAKY + ".throwsInternal() throws io.jupiter.apicheck.fixture.internal.HiddenException"
                        + " -> io.jupiter.apicheck.fixture.internal.HiddenException",
                "public void " + LEAKY + ".boundedTypeParameter(java.util.function.Supplier) -> " + HIDDEN,
                "class " + LEAKY + "$Subclass -> " + HIDDEN);
    }

    @Test
    void ignoresWhatNoUserCompilesAgainst() throws Exception {
        List<Class<?>> classes = new ArrayList<>();
        classes.add(Clean.class);
        for (Class<?> nested : Clean.class.getDeclaredClasses()) {
            classes.add(nested);
        }
        classes.add(Class.forName("io.jupiter.apicheck.fixture.api.PackagePrivate"));
        // Internal classes themselves are not API, whatever they mention.
        classes.add(Hidden.class);

        assertThat(classes).hasSize(5);
        assertThat(InternalApiChecker.check(classes)).isEmpty();
    }

    @Test
    void listsTheClassesOfADirectory() throws Exception {
        Path testClasses = Path.of(Leaky.class.getProtectionDomain().getCodeSource().getLocation().toURI());

        List<String> names = InternalApiChecker.classNames(testClasses, "io.jupiter.apicheck.fixture.");

        assertThat(names).contains(LEAKY, LEAKY + "$Subclass", HIDDEN, HIDDEN + "$Nested")
                .allMatch(name -> name.startsWith("io.jupiter.apicheck.fixture."));
    }
}
