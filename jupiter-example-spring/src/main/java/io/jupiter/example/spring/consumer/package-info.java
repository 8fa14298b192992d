/** The example's consumer application. */
package io.jupiter.example.spring.consumer;
