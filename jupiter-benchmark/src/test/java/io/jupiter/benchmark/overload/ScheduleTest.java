package io.jupiter.benchmark.overload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScheduleTest {

    @Test
    void readsRelativeAndAbsolutePhases() {
        Schedule schedule = Schedule.parse("3x:15s, 0.5x:10s,500:2");
        assertThat(schedule.seconds()).isEqualTo(27);
        assertThat(schedule.phaseAt(0).callsPerSecond(100)).isEqualTo(300);
        assertThat(schedule.phaseAt(15).callsPerSecond(100)).isEqualTo(50);
        assertThat(schedule.phaseAt(26).callsPerSecond(100)).isEqualTo(500);
        assertThat(schedule.startOf(schedule.phaseAt(20))).isEqualTo(15);
        assertThat(schedule).hasToString("3x:15s,0.5x:10s,500/s:2s");
    }

    @Test
    void refusesWhatItCannotRead() {
        assertThatThrownBy(() -> Schedule.parse("3x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schedule.parse("0x:5s")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schedule.parse("2x:0s")).isInstanceOf(IllegalArgumentException.class);
    }
}
