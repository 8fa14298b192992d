/**
 * A Spring Boot provider and consumer talking through the embedded registry; see
 * {@link io.jupiter.example.spring.SpringExample}.
 */
package io.jupiter.example.spring;
