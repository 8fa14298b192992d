package io.jupiter.testkit.suites.serialization.model;

/** An enum of the samples. */
public enum Color {
    RED, GREEN, BLUE
}
