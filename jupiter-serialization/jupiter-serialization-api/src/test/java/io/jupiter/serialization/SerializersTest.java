package io.jupiter.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The API module alone has no serializer: asking for one names the artifact to add (issue #37's first run). */
class SerializersTest {

    @Test
    void aMissingSerializerNamesTheArtifactToAdd() {
        assertThat(Serializers.find(SerializerType.HESSIAN.code())).isNull();
        assertThatThrownBy(() -> Serializers.get(SerializerType.HESSIAN))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no hessian serializer on the class path")
                .hasMessageContaining("io.jupiter:jupiter-serialization-hessian")
                .hasMessageContaining("io.jupiter:jupiter-all");
    }
}
