/**
 * One load driver for every benchmark target. A target (this framework, the raw Netty echo, Jupiter 1.3.1) is
 * loaded through a small adapter, {@link io.jupiter.benchmark.driver.BenchmarkTarget}; {@link
 * io.jupiter.benchmark.driver.DriverMain} runs its server or its client in a JVM of its own, on the target's own
 * class path; {@link io.jupiter.benchmark.driver.LoadDriver} is the one load loop; {@link
 * io.jupiter.benchmark.driver.Compare} interleaves the targets, repeats, and prints Markdown tables of means and
 * ratios. Nothing here depends on Netty or on any Jupiter, so the same classes run beside 1.3.1.
 */
package io.jupiter.benchmark.driver;
