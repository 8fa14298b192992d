/**
 * The chaos scenario of issue #26 ({@code bench/chaos.sh}): two providers, each behind a fault-injecting proxy, one
 * client under load, scripted network faults on a timeline, and a per-second table of what the client saw.
 */
package io.jupiter.benchmark.chaos;
