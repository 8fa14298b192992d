#!/usr/bin/env bash
# Cost curves with the one load driver (docs/benchmark.md, "Cost curves"): how throughput and p99 move as the body
# grows or the callers grow, targets interleaved within each case, 2 runs, ratios to the raw echo within each run;
# and the heap and direct memory per idle connection from 1 to 10,000 connections.
#
#   bench/curves.sh body          # sync 32 x 16b, 1k, 16k, 256k and sync 8 x 1m; raw, jupiter, jupiter-nonblocking,
#                                 # legacy-pool (1.3.1's default)
#   bench/curves.sh callers       # sync 1, 8, 32, 128, 512 x small; the same targets
#   bench/curves.sh connections   # connection-cost for jupiter and raw, 1 .. 10,000 connections, 2 runs
#   bench/curves.sh body --big-callers 4                 # callers of the 1m case (default 8: 32 x 1 MiB over 2
#                                 # connections queues 16 MiB on one, where the transport closes a peer not reading)
#   bench/curves.sh body --runs 1 --warmup 1 --seconds 1 --targets raw,jupiter   # a smoke run
#   bench/curves.sh connections --counts 1,10,100 --runs 1
#
# body and callers take any flag of io.jupiter.benchmark.driver.Compare after the curve's name (they override the
# curve's defaults: --runs 2 --warmup 5 --seconds 5, about 9 minutes a curve); connections takes --runs,
# --targets and any flag of the example jar's connection-cost command. Logs of every JVM go to target/curves-logs.
set -euo pipefail
cd "$(dirname "$0")/.."
CURVE=${1:?usage: bench/curves.sh body|callers|connections [flags...]}
shift

TARGETS=
BIG_CALLERS=8
RUNS=2
REST=()
while [ $# -gt 0 ]; do
  case "$1" in
    --big-callers) BIG_CALLERS=${2:?--big-callers needs a number}; shift 2 ;;
    --targets) TARGETS=${2:?--targets needs a list}; shift 2 ;;
    --runs) RUNS=${2:?--runs needs a number}; shift 2 ;;
    *) REST+=("$1"); shift ;;
  esac
done

case "$CURVE" in
  body)
    CASES="sync 32 16b,sync 32 1k,sync 32 16k,sync 32 256k,sync $BIG_CALLERS 1m" ;;
  callers)
    CASES="sync 1 small,sync 8 small,sync 32 small,sync 128 small,sync 512 small" ;;
  connections)
    mvn -B -q -DskipTests package -pl jupiter-example -am >&2
    JAR=jupiter-example/target/jupiter-example.jar
    # Each JVM holds one descriptor per connection; connection-cost refuses to start when ulimit -n is too low.
    echo "ulimit -n: $(ulimit -n)" >&2
    mkdir -p target/curves-logs
    for run in $(seq 1 "$RUNS"); do
      for target in $(echo "${TARGETS:-jupiter,raw}" | tr , " "); do
        echo "### Run $run, $target"
        echo
        java -Xms1g -Xmx1g -jar "$JAR" connection-cost --target "$target" "${REST[@]}" \
          2> "target/curves-logs/connections-run$run-$target.log"
        echo
      done
    done
    exit 0 ;;
  *)
    echo "usage: bench/curves.sh body|callers|connections [flags...] (not '$CURVE')" >&2
    exit 64 ;;
esac

source bench/build-legacy.sh
TARGETS=${TARGETS:-raw,jupiter,jupiter-nonblocking,legacy-pool}
exec java -jar "$DRIVER_JAR" --jupiter-classpath "$JAR" --legacy-classpath "$LEGACY_CP" \
  --targets "$TARGETS" --cases "$CASES" --runs "$RUNS" --warmup 5 --seconds 5 --logs target/curves-logs \
  "${REST[@]}"
