/**
 * The protostuff serializer (code 1, the default), byte-compatible with Jupiter 1.3.1's.
 */
package io.jupiter.serialization.protostuff;
