/** Utilities every Jupiter module shares: argument checks, typed system properties, thread factories. */
package io.jupiter.common;
