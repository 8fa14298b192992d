#!/usr/bin/env bash
# Side-by-side benchmark on this machine, in one run: the raw Netty echo with the same framing (the ceiling), this
# framework, and the original Jupiter 1.3.1 from Maven Central in its own JVM. Prints a Markdown table.
#
#   bench/compare.sh                      # the default scenarios, 15 s each after 5 s of warm-up
#   SECONDS_PER_RUN=30 bench/compare.sh "sync 32 small" "future 32 small"
#
# A scenario is "<mode> <threads> <payload> [direct]" (mode sync|future, payload small|1k). With "direct" both
# frameworks run the provider method on the IO thread (ours: --provider-threads 0; 1.3.1: its callerRuns provider
# executor), as the raw echo does; without it both use their default provider thread pool. Client and servers share
# the machine's cores: compare the ratios, not the absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."

MEASURE=${SECONDS_PER_RUN:-15}
WARMUP=${WARMUP:-5}
SCENARIOS=("$@")
if [ ${#SCENARIOS[@]} -eq 0 ]; then
  SCENARIOS=("sync 1 small" "sync 32 small" "future 32 small" "sync 32 1k" "sync 128 small" "future 128 small"
    "sync 32 small direct" "future 32 small direct" "sync 32 1k direct")
fi

source bench/build-legacy.sh
RAW_PORT=18098; JUPITER_PORT=18099; LEGACY_PORT=18097; JUPITER_DIRECT_PORT=18096; LEGACY_DIRECT_PORT=18095

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

await_port() {
  for _ in $(seq 1 150); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "nothing listens on port $1" >&2; exit 1
}

java -jar "$JAR" raw-echo-server --host 127.0.0.1 --port $RAW_PORT > /tmp/compare-raw.log 2>&1 & PIDS+=($!)
java -jar "$JAR" benchmark-server --host 127.0.0.1 --port $JUPITER_PORT > /tmp/compare-jupiter.log 2>&1 & PIDS+=($!)
"${LEGACY_JAVA[@]}" compat.legacy.LegacyBenchmarkServer $LEGACY_PORT true > /tmp/compare-legacy.log 2>&1 & PIDS+=($!)
java -jar "$JAR" benchmark-server --host 127.0.0.1 --port $JUPITER_DIRECT_PORT --provider-threads 0 \
  > /tmp/compare-jupiter-direct.log 2>&1 & PIDS+=($!)
"${LEGACY_JAVA[@]}" -Djupiter.executor.factory.provider.factory_name=callerRuns compat.legacy.LegacyBenchmarkServer \
  $LEGACY_DIRECT_PORT true > /tmp/compare-legacy-direct.log 2>&1 & PIDS+=($!)
for port in $RAW_PORT $JUPITER_PORT $LEGACY_PORT $JUPITER_DIRECT_PORT $LEGACY_DIRECT_PORT; do await_port $port; done

# run <client...>: prints "qps p99" of one run
run() {
  local out
  out=$("$@" 2>/dev/null | grep -E "^Request count|^Latency|^Failed" || true)
  local qps p99 failed
  qps=$(echo "$out" | sed -n 's/.*qps: \([0-9]*\).*/\1/p')
  p99=$(echo "$out" | sed -n 's/.*p99=\([0-9]*\).*/\1/p')
  failed=$(echo "$out" | grep -c "^Failed" || true)
  [ "$failed" = "0" ] || qps="${qps}(failures)"
  echo "${qps:-0} ${p99:-?}"
}

printf "| mode | threads | payload | provider | raw echo qps | jupiter qps | 1.3.1 qps | jupiter/raw | jupiter/1.3.1 | p99 µs raw / jupiter / 1.3.1 |\n"
printf "|---|---:|---|---|---:|---:|---:|---:|---:|---|\n"
for scenario in "${SCENARIOS[@]}"; do
  read -r mode threads payload provider <<< "$scenario"
  ours_port=$JUPITER_PORT; old_port=$LEGACY_PORT
  if [ "${provider:-}" = "direct" ]; then ours_port=$JUPITER_DIRECT_PORT; old_port=$LEGACY_DIRECT_PORT; else provider=pool; fi
  flags=(--mode "$mode" --threads "$threads" --payload "$payload" --warmup "$WARMUP" --seconds "$MEASURE")
  read -r raw raw99 <<< "$(run java -jar "$JAR" raw-echo-client --port $RAW_PORT "${flags[@]}")"
  read -r ours ours99 <<< "$(run java -jar "$JAR" benchmark-client --port $ours_port "${flags[@]}")"
  read -r old old99 <<< "$(run "${LEGACY_JAVA[@]}" compat.legacy.LegacyBenchmarkClient --port $old_port "${flags[@]}")"
  ratio_raw=$(awk -v a="${ours%%(*}" -v b="${raw%%(*}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  ratio_old=$(awk -v a="${ours%%(*}" -v b="${old%%(*}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s |\n" "$mode" "$threads" "$payload" "$provider" \
    "$raw" "$ours" \
    "$old" "$ratio_raw" "$ratio_old" "$raw99" "$ours99" "$old99"
done
echo >&2
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(java -version 2>&1 | head -1)" >&2
