package io.jupiter.benchmark.overload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The offered load of an open-loop run: phases of a rate held for whole seconds, written
 * {@code 3x:15s,0.5x:10s} (multiples of the measured capacity) or {@code 500:10s} (calls per second), or a mix.
 */
record Schedule(List<Phase> phases) {

    /** A rate held for {@code seconds}: {@code rate} calls per second, or {@code rate} x the capacity if relative. */
    record Phase(double rate, boolean relative, int seconds) {

        /** Calls per second given the capacity. */
        double callsPerSecond(double capacity) {
            return relative ? rate * capacity : rate;
        }

        /** How the phase was written, e.g. {@code 3x} or {@code 500/s}. */
        String label() {
            String number = rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
            return relative ? number + "x" : number + "/s";
        }
    }

    Schedule {
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a schedule needs at least one phase");
        }
        phases = List.copyOf(phases);
    }

    /** Parses {@code 3x:15s,0.5x:10s}; a rate without {@code x} is absolute, in calls per second. */
    static Schedule parse(String text) {
        List<Phase> phases = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] rateAndTime = part.trim().split(":");
            if (rateAndTime.length != 2) {
                throw new IllegalArgumentException("phase '" + part + "' (expected: RATE:SECONDSs, e.g. 3x:15s)");
            }
            String rate = rateAndTime[0].trim().toLowerCase(Locale.ROOT);
            String time = rateAndTime[1].trim().toLowerCase(Locale.ROOT);
            boolean relative = rate.endsWith("x");
            double value = Double.parseDouble(relative ? rate.substring(0, rate.length() - 1) : rate);
            int seconds = Integer.parseInt(time.endsWith("s") ? time.substring(0, time.length() - 1) : time);
            if (value <= 0 || seconds <= 0) {
                throw new IllegalArgumentException("phase '" + part + "': rate and seconds must be positive");
            }
            phases.add(new Phase(value, relative, seconds));
        }
        return new Schedule(phases);
    }

    int seconds() {
        int total = 0;
        for (Phase phase : phases) {
            total += phase.seconds();
        }
        return total;
    }

    /** The phase of second {@code second} of the run. */
    Phase phaseAt(int second) {
        int end = 0;
        for (Phase phase : phases) {
            end += phase.seconds();
            if (second < end) {
                return phase;
            }
        }
        return phases.get(phases.size() - 1);
    }

    /** The first second of {@code phase}. */
    int startOf(Phase phase) {
        int start = 0;
        for (Phase p : phases) {
            if (p == phase) {
                return start;
            }
            start += p.seconds();
        }
        throw new IllegalArgumentException("not a phase of this schedule: " + phase);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Phase phase : phases) {
            text.append(text.length() == 0 ? "" : ",").append(phase.label()).append(':').append(phase.seconds())
                    .append('s');
        }
        return text.toString();
    }
}
