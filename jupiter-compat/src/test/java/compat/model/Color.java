package compat.model;

/** An enum with the same name on both sides (protostuff sends its class name and ordinal). */
public enum Color {
    RED, GREEN, BLUE
}
