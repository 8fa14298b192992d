/**
 * The JDK serialization serializer (code 4), writing and reading the body classes under Jupiter 1.3.1's class names.
 */
package io.jupiter.serialization.java;
