/**
 * The monitor: {@link io.jupiter.monitor.MonitorServer} (telnet console and HTTP metrics endpoint), the metric
 * formats ({@link io.jupiter.monitor.TextReport}, {@link io.jupiter.monitor.PrometheusText},
 * {@link io.jupiter.monitor.JsonReport}) and the {@link io.jupiter.monitor.RegistryView} a registry plugs in.
 */
package io.jupiter.monitor;
