package io.jupiter.example.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConnectionCostTest {

    @Test
    void countsAscendFromOne() {
        assertThat(ConnectionCost.counts(" 1, 10,100 ,10000")).containsExactly(1, 10, 100, 10_000);
        assertThatThrownBy(() -> ConnectionCost.counts("10,1")).hasMessageContaining("must ascend");
        assertThatThrownBy(() -> ConnectionCost.counts("0,10")).hasMessageContaining("from 1");
        assertThatThrownBy(() -> ConnectionCost.counts("ten")).hasMessageContaining("ascending numbers");
    }
}
