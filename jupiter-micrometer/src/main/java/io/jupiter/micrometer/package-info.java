/**
 * Micrometer for Jupiter: {@link io.jupiter.micrometer.JupiterMeterBinder} publishes the RPC metrics of servers and
 * clients as Micrometer meters with Prometheus-ready histograms. Needs no Spring; the Spring Boot starter binds it to
 * the application's {@code MeterRegistry}.
 */
package io.jupiter.micrometer;
