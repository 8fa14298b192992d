/**
 * The Kryo 5 serializer (code 3). Not byte-compatible with Jupiter 1.3.1, which used Kryo 2.23.
 */
package io.jupiter.serialization.kryo;
