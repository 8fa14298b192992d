/**
 * Jupiter 1.3.1's Spring XML namespace on our classes: {@link io.jupiter.spring.xml.JupiterNamespaceHandler} and the
 * beans its elements become. A 1.3.1 file works with its namespace URI and schema location changed; attributes and
 * values without a counterpart fail the context when it starts, naming what to use instead.
 */
package io.jupiter.spring.xml;
