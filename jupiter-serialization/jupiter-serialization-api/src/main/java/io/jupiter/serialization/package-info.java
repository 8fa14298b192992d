/**
 * The serializer SPI: {@link io.jupiter.serialization.Serializer} implementations are found by
 * {@link java.util.ServiceLoader} and picked per frame by the code in the header's sign byte.
 */
package io.jupiter.serialization;
