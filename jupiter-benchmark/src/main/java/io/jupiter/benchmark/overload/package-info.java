/**
 * Issue #35's scenarios (bench/overload.sh, docs/reliability.md): an open-loop overload of one provider
 * ({@link io.jupiter.benchmark.overload.OverloadScenario}) and a provider failing most calls
 * ({@link io.jupiter.benchmark.overload.SickProviderScenario}), each printing a table per second.
 */
package io.jupiter.benchmark.overload;
