/**
 * The Hessian 2 serializer (code 2), writing and reading the body classes under Jupiter 1.3.1's class names.
 */
package io.jupiter.serialization.hessian;
