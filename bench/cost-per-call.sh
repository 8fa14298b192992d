#!/usr/bin/env bash
# What one call costs each side: CPU time of the server process and of the client process (from /proc, over the
# measured window only), context switches of the whole machine and, where perf can count them, the server's system
# calls (all, and futex) and context switches, each divided by the calls made in that window. Counts are steadier
# than throughput on a shared machine: compare them between builds or settings.
#
#   bench/cost-per-call.sh pool   --mode sync --threads 32        # benchmark-server with its provider pool
#   bench/cost-per-call.sh direct --mode future --threads 32      # benchmark-server --provider-threads 0
#   bench/cost-per-call.sh raw    --mode sync --threads 32        # raw-echo-server / raw-echo-client
#   JAR=/tmp/other.jar SERVER_JAVA_OPTS=-Djupiter.rpc.pool.parallelism=2 bench/cost-per-call.sh pool ...
#
# The client arguments are benchmark-client's (--warmup and --seconds are set from WARMUP and SECONDS_PER_RUN).
# Both JVMs get a fixed, pre-touched heap unless SERVER_JAVA_OPTS / CLIENT_JAVA_OPTS are set, which replace it (the driver's
# default, see Compare.DEFAULT_JVM_OPTIONS: a growing heap costs a page fault per new page of eden).
# Build the jar first (mvn -B -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."

JAR=${JAR:-jupiter-example/target/jupiter-example.jar}
WARMUP=${WARMUP:-5}
MEASURE=${SECONDS_PER_RUN:-10}
PORT=${PORT:-18190}
HEAP_OPTS="-Xms1g -Xmx1g -XX:+AlwaysPreTouch"
SERVER_JAVA_OPTS=${SERVER_JAVA_OPTS-$HEAP_OPTS}
CLIENT_JAVA_OPTS=${CLIENT_JAVA_OPTS-$HEAP_OPTS}
kind=${1:?usage: bench/cost-per-call.sh pool|direct|raw <benchmark-client arguments>}
shift
[ "$MEASURE" -ge 4 ] || { echo "SECONDS_PER_RUN must be at least 4" >&2; exit 2; }

case $kind in
  raw) server=(raw-echo-server --port "$PORT"); client=raw-echo-client ;;
  direct) server=(benchmark-server --port "$PORT" --provider-threads 0); client=benchmark-client ;;
  pool) server=(benchmark-server --port "$PORT"); client=benchmark-client ;;
  *) echo "unknown server kind '$kind' (expected: pool|direct|raw)" >&2; exit 2 ;;
esac

SP=; CP=
cleanup() { for p in $CP $SP; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
# shellcheck disable=SC2086
java $SERVER_JAVA_OPTS -jar "$JAR" "${server[@]}" > /tmp/cost-per-call-server.log 2>&1 & SP=$!
for _ in $(seq 1 150); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
  sleep 0.2
done
# shellcheck disable=SC2086
java $CLIENT_JAVA_OPTS -jar "$JAR" "$client" --port "$PORT" --warmup "$WARMUP" --seconds "$MEASURE" "$@" > /tmp/cost-per-call-client.log 2>&1 &
CP=$!

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
machine_switches() { awk '/^ctxt/ {print $2}' /proc/stat; }
# The window: from 1 s after the warm-up to 1 s before the end of the measured run.
window=$((MEASURE - 2))
sleep $((WARMUP + 1))
s0=$(cpu_ticks $SP); c0=$(cpu_ticks $CP); x0=$(machine_switches)
PERF_OUT=/tmp/cost-per-call-perf.txt
if command -v perf >/dev/null && perf stat -e context-switches -o /dev/null true 2>/dev/null; then
  perf stat ${PERF_FLAGS:-} -e 'raw_syscalls:sys_enter,syscalls:sys_enter_futex,context-switches' -p $SP -o $PERF_OUT \
    -- sleep $window 2>/dev/null || sleep $window
else
  : > $PERF_OUT
  sleep $window
fi
s1=$(cpu_ticks $SP); c1=$(cpu_ticks $CP); x1=$(machine_switches)
wait $CP || true
CP=

qps=$(sed -n 's/.*qps: \([0-9]*\).*/\1/p' /tmp/cost-per-call-client.log)
p99=$(sed -n 's/.*p99=\([0-9]*\).*/\1/p' /tmp/cost-per-call-client.log)
if [ -z "$qps" ] || grep -q "^Failed" /tmp/cost-per-call-client.log; then
  echo "the client failed: see /tmp/cost-per-call-client.log" >&2
  exit 1
fi
hz=$(getconf CLK_TCK)
count() { awk -v e="$1" '$2 == e {gsub(",", "", $1); print $1}' $PERF_OUT; }
awk -v kind="$kind" -v q="$qps" -v p99="$p99" -v s=$((s1 - s0)) -v c=$((c1 - c0)) -v x=$((x1 - x0)) -v t="$window" \
    -v hz="$hz" -v sys="$(count raw_syscalls:sys_enter)" -v futex="$(count syscalls:sys_enter_futex)" \
    -v cs="$(count context-switches)" 'BEGIN {
  calls = q * t
  printf "%-6s qps %d  p99 %s us | CPU us/call: server %.2f  client %.2f | machine context switches/call %.2f",
    kind, q, p99, s * 1e6 / hz / calls, c * 1e6 / hz / calls, x / calls
  if (sys != "") printf " | server/call: syscalls %.3f  futex %.3f  context switches %.3f", sys / calls, futex / calls, cs / calls
  printf "\n"
}'
