/** The example's provider application. */
package io.jupiter.example.spring.provider;
