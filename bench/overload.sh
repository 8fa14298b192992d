#!/usr/bin/env bash
# Issue #35's scenarios (docs/reliability.md "The overload scenario"), everything in one JVM on 127.0.0.1.
#
# overload (the default): one provider with the server's defaults and a method that waits 20 ms, one consumer with a
# 500 ms timeout. Measures the capacity C closed-loop (64 callers, 5 s), then offers calls open-loop (async, at a
# fixed rate whatever the answers) as the schedule says, and prints per second of offer: offered, goodput, shed
# (ServerBusy), throttled here, timed out, failed, p99 of the successes, executions on the provider and those for
# nobody (ended after the caller gave up); then a summary per phase.
#
#   bench/overload.sh                                        # 3x:15s,0.5x:10s
#   bench/overload.sh --schedule 10x:15s,0.5x:10s
#   bench/overload.sh --schedule 500:10s --capacity 180      # absolute rates, capacity given (not measured)
#   bench/overload.sh --deadlines off                        # no deadline sent (cancels still are)
#   JAVA_OPTS=-Djupiter.rpc.consumer.cancel=false bench/overload.sh --deadlines off   # like a 1.3.1 consumer
#   bench/overload.sh --throttling on                        # client-side adaptive throttling on
#
# sick: two providers, 8 callers, fail-over, an idempotent method, 1 s timeout; one provider's method throws an
# undeclared exception on 70 % of its calls from 5 s to 15 s; prints per second the calls, the sick provider's share
# of the executions and the failed calls.
#
#   bench/overload.sh sick
#   bench/overload.sh sick --server-errors off               # outlier ejection counts only timeouts (before #35)
set -euo pipefail
cd "$(dirname "$0")/.."
main=io.jupiter.benchmark.overload.OverloadScenario
if [[ "${1:-}" == "sick" ]]; then
  main=io.jupiter.benchmark.overload.SickProviderScenario
  shift
fi
echo "building..." >&2
mvn -B -q -DskipTests package -pl jupiter-benchmark -am >&2
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options
exec timeout 300 java ${JAVA_OPTS:-} -Xms256m -Xmx512m -cp jupiter-benchmark/target/jupiter-benchmark.jar "$main" "$@"
