/** OpenTelemetry tracing for Jupiter calls: see {@link io.jupiter.tracing.opentelemetry.OpenTelemetryFilter}. */
package io.jupiter.tracing.opentelemetry;
