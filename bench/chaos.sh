#!/usr/bin/env bash
# Issue #26's chaos scenario (io.jupiter.benchmark.chaos.ChaosScenario, docs/reliability.md "Chaos scenario"): two
# providers, each behind a fault-injecting TCP proxy, one client with 8 threads calling an idempotent method with
# failOver(2), timeoutMillis(1000), connections(2); scripted faults on a 60 s timeline (after 5 s of warm-up): A
# half-open 10 s, A +300 ms 5 s, every connection reset, all down 10 s. Prints a Markdown table per second: calls
# ok, failed, p99 and worst latency. Everything in one JVM on 127.0.0.1; about 70 s plus the build.
#
#   bench/chaos.sh                              # the defaults
#   bench/chaos.sh --keepalive-millis 0         # keepalive pings off: the behaviour before issue #26
#   bench/chaos.sh --threads 4
set -euo pipefail
cd "$(dirname "$0")/.."
echo "building..." >&2
mvn -B -q -DskipTests package -pl jupiter-benchmark -am >&2
exec timeout 180 java -Xms256m -Xmx512m -cp jupiter-benchmark/target/jupiter-benchmark.jar \
  io.jupiter.benchmark.chaos.ChaosScenario "$@"
