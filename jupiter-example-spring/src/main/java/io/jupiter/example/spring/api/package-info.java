/** The service interface the example's provider serves and its consumer calls. */
package io.jupiter.example.spring.api;
