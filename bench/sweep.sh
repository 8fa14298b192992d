#!/usr/bin/env bash
# The load sweep: sync and future x 1/32/128/256 client threads x small and 1k payloads x the three write-batching
# modes (DISABLE / ENABLE / AUTO, set on both server and client). Prints a Markdown table of qps and p99.
#
#   bench/sweep.sh                                   # everything: 48 runs of WARMUP + SECONDS_PER_RUN seconds
#   MODES="sync" THREADS="1 32" PAYLOADS="small" bench/sweep.sh
#
# Client and server share the machine's cores: compare the modes with each other, not with other machines.
set -euo pipefail
cd "$(dirname "$0")/.."

MEASURE=${SECONDS_PER_RUN:-10}
WARMUP=${WARMUP:-3}
MODES=${MODES:-"sync future"}
THREADS=${THREADS:-"1 32 128 256"}
PAYLOADS=${PAYLOADS:-"small 1k"}
BATCHING=${BATCHING:-"disable enable auto"}

mvn -B -q -DskipTests package -pl jupiter-example -am >&2
JAR=jupiter-example/target/jupiter-example.jar
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

port=18120
declare -A PORTS
for b in $BATCHING; do
  java -Djupiter.io.write.batching="$b" -jar "$JAR" benchmark-server --host 127.0.0.1 --port $port > /dev/null 2>&1 &
  PIDS+=($!)
  PORTS[$b]=$port
  port=$((port + 1))
done
sleep 3

printf "| mode | threads | payload |"; for b in $BATCHING; do printf " %s qps (p99 µs) |" "$b"; done; printf "\n"
printf "|---|---:|---|"; for b in $BATCHING; do printf -- "---:|"; done; printf "\n"
for mode in $MODES; do
  for threads in $THREADS; do
    for payload in $PAYLOADS; do
      printf "| %s | %s | %s |" "$mode" "$threads" "$payload"
      for b in $BATCHING; do
        out=$(java -Djupiter.io.write.batching="$b" -jar "$JAR" benchmark-client --port "${PORTS[$b]}" --mode "$mode" \
          --threads "$threads" --payload "$payload" --warmup "$WARMUP" --seconds "$MEASURE" 2>/dev/null || true)
        qps=$(echo "$out" | sed -n 's/.*qps: \([0-9]*\).*/\1/p')
        p99=$(echo "$out" | sed -n 's/.*p99=\([0-9]*\).*/\1/p')
        failed=$(echo "$out" | grep -c "^Failed" || true)
        [ "$failed" = "0" ] || qps="${qps} (failures)"
        printf " %s (%s) |" "${qps:-0}" "${p99:-?}"
      done
      printf "\n"
    done
  done
done
