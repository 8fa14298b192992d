/**
 * Utilities every Jupiter module shares: argument checks, thread factories. Settings are declared in
 * {@link io.jupiter.common.config}.
 */
package io.jupiter.common;
