/**
 * The request and response body classes. Their fields mirror Jupiter 1.3.1's so that a 1.3.1 peer reads what we
 * write and we read what it writes.
 */
package io.jupiter.serialization.wire;
