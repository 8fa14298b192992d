/** Generic invoke: calls by method name, without the service interface. */
package io.jupiter.rpc.generic;
