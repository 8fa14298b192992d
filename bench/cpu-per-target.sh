#!/usr/bin/env bash
# CPU per call of every target of a driver comparison, 1.3.1's included (bench/cost-per-call.sh runs only ours): runs
# the load driver with the flags given, and for each measurement (one server JVM and one client JVM at a time) reads
# both JVMs' CPU time, user and kernel, from /proc over the measured seconds but the first and the last, then divides
# by the calls the driver counted (its calls/s times the window).
#
#   bench/cpu-per-target.sh --jupiter-classpath J --legacy-classpath L --targets raw,jupiter,legacy \
#     --cases "sync 32 small" --runs 2 --warmup 8 --seconds 8
#
# Takes the driver jar from DRIVER (default: the one the build leaves in jupiter-benchmark/driver/target); needs
# --warmup and --seconds (at least 4) among the flags, and unary cases only (sync, async). Prints the driver's output,
# then one line per measurement.
set -euo pipefail
cd "$(dirname "$0")/.."
DRIVER=${DRIVER:-$(ls jupiter-benchmark/driver/target/jupiter-benchmark-driver-*-standalone.jar)}
warmup=; seconds=
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --warmup) warmup=${args[i + 1]} ;;
    --seconds) seconds=${args[i + 1]} ;;
  esac
done
[ -n "$warmup" ] && [ -n "$seconds" ] && [ "$seconds" -ge 4 ] \
  || { echo "give --warmup W and --seconds S (S >= 4)" >&2; exit 2; }
window=$((seconds - 2))
samples=$(mktemp); output=$(mktemp)

# One measurement at a time, as the driver runs them: wait for a new client JVM of the driver's, then sample it and
# its server.
sample() {
  local seen="" cp sp a b c d
  while true; do
    cp=$(pgrep -P "$driver" -f "DriverMain client" | head -1 || true)
    if [ -n "$cp" ] && [[ " $seen " != *" $cp "* ]]; then
      seen="$seen $cp"
      sp=$(pgrep -P "$driver" -f "DriverMain server" | head -1 || true)
      sleep $((warmup + 1))
      a=$(awk '{print $14, $15}' "/proc/$sp/stat" 2>/dev/null || echo "- -")
      b=$(awk '{print $14, $15}' "/proc/$cp/stat" 2>/dev/null || echo "- -")
      sleep $window
      c=$(awk '{print $14, $15}' "/proc/$sp/stat" 2>/dev/null || echo "- -")
      d=$(awk '{print $14, $15}' "/proc/$cp/stat" 2>/dev/null || echo "- -")
      echo "$a $c $b $d" >> "$samples"
    fi
    sleep 0.1
  done
}
java -jar "$DRIVER" "$@" > "$output" 2>&1 & driver=$!
sample & sampler=$!
trap 'kill $sampler $driver 2>/dev/null || true; rm -f "$samples" "$output"' EXIT
tail -f --pid=$driver "$output"
wait $driver
echo
echo "CPU per call (µs), from /proc over ${window} s of each measurement: server user + kernel, client user + kernel"
grep -E '^\[[0-9]+/[0-9]+\] run [0-9]+, .*: [0-9,]+ calls/s' "$output" | paste -d'|' - "$samples" \
  | awk -F'|' -v hz="$(getconf CLK_TCK)" -v t=$window '{
    line = $1; split($2, s, " ")
    what = line; sub(/: [0-9,]+ calls\/s.*/, "", what); sub(/^\[[0-9]+\/[0-9]+\] /, "", what)
    rate = line; sub(/.*: /, "", rate); sub(/ calls\/s.*/, "", rate); gsub(",", "", rate)
    calls = rate * t
    if (s[1] == "-" || s[5] == "-" || calls == 0) { printf "%s: not sampled\n", what; next }
    su = (s[3] - s[1]) * 1e6 / hz / calls; sk = (s[4] - s[2]) * 1e6 / hz / calls
    cu = (s[7] - s[5]) * 1e6 / hz / calls; ck = (s[8] - s[6]) * 1e6 / hz / calls
    printf "%s: server %.2f (%.2f + %.2f), client %.2f (%.2f + %.2f), both %.2f\n", what, su + sk, su, sk,
      cu + ck, cu, ck, su + sk + cu + ck
  }'
