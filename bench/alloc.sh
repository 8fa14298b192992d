#!/usr/bin/env bash
# Bytes allocated per call on the provider, this framework against Jupiter 1.3.1, in one run: each provider runs in
# its own JVM with a JFR recording of per-thread allocation (jdk.ThreadAllocationStatistics every 500 ms), and the
# same client (ours, sync calls, small payload) loads each in turn. The allocation of all threads but JFR's own
# (its periodic task, about 0.4 MB/s) over a window of the steady state is divided by the calls made in it.
#
#   bench/alloc.sh                     # 32 threads, 3 s warm-up, 8 s measured
#   WARMUP=10 bench/alloc.sh           # a longer warm-up (a loaded machine compiles the hot path later)
#   THREADS=1 bench/alloc.sh
#   ONLY_OURS=1 bench/alloc.sh         # this framework's row only (no 1.3.1 build or run)
#   ONLY_OURS=1 JAR=/tmp/before.jar bench/alloc.sh   # a jar built before (no build), to compare two commits
#   PORT=18141 ONLY_OURS=1 JAR=... bench/alloc.sh    # another port and output folder (two measurements side by side)
#   SAMPLE=1 ONLY_OURS=1 JAR=... bench/alloc.sh      # also where it goes: JFR's allocation samples (with stacks) in the
#                                                    # window, as bytes per call by class and by class + first frames
#   SAMPLE=1 SAMPLE_RATE=300/s ...                   # fewer samples (default 2000/s): the server slowed less
#
# Needs python3 (to read the recording's JSON). Client and server share the machine's cores.
set -euo pipefail
cd "$(dirname "$0")/.."

THREADS=${THREADS:-32}
WARMUP=${WARMUP:-3}
PORT=${PORT:-18131}
OUT=target/alloc-bench-$PORT
mkdir -p "$OUT"
if [ "${ONLY_OURS:-0}" = 1 ]; then
  if [ -z "${JAR:-}" ]; then
    echo "building..." >&2
    mvn -B -q -DskipTests package -pl jupiter-example -am >&2
    JAR=jupiter-example/target/jupiter-example.jar
  fi
else
  source bench/build-legacy.sh
fi
cat > "$OUT/alloc.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="allocation per thread">
  <event name="jdk.ThreadAllocationStatistics"><setting name="enabled">true</setting><setting name="period">500 ms</setting></event>
JFC
if [ "${SAMPLE:-0}" = 1 ]; then
  cat >> "$OUT/alloc.jfc" <<JFC
  <event name="jdk.ObjectAllocationSample"><setting name="enabled">true</setting><setting name="throttle">${SAMPLE_RATE:-2000/s}</setting><setting name="stackTrace">true</setting></event>
JFC
fi
echo '</configuration>' >> "$OUT/alloc.jfc"

# measure <name> <port> <server command...>: prints "<name> <qps> <bytes per call>"
measure() {
  local name=$1 port=$2; shift 2
  JDK_JAVA_OPTIONS="-XX:StartFlightRecording=filename=$OUT/$name.jfr,settings=$OUT/alloc.jfc" "$@" > /dev/null 2>&1 &
  local server=$!
  for _ in $(seq 1 150); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.2; done
  local started=$(date +%s.%N)
  local qps
  qps=$(java -jar "$JAR" benchmark-client --port "$port" --mode sync --threads "$THREADS" --warmup "$WARMUP" --seconds 8 \
    2>/dev/null | sed -n 's/.*qps: \([0-9]*\).*/\1/p')
  kill "$server"; wait "$server" 2>/dev/null || true
  jfr print --json --events jdk.ThreadAllocationStatistics "$OUT/$name.jfr" > "$OUT/$name.json"
  # The window: from 1.5 s after the client's warm-up (its JVM start + warm-up) for 5 s, inside its 8 measured seconds.
  python3 - "$OUT/$name.json" "$started" "$qps" "$name" "$WARMUP" <<'PY'
import json, sys, datetime
events = json.load(open(sys.argv[1]))["recording"]["events"]
started, qps, name, warmup = float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], float(sys.argv[5])
lo, hi = started + warmup + 1.5, started + warmup + 6.5
def at(e):
    return datetime.datetime.fromisoformat(e["values"]["startTime"].replace("Z", "+00:00")).timestamp()
per_thread, names = {}, {}
for e in events:
    thread = e["values"].get("thread") or {}
    per_thread.setdefault(thread.get("javaThreadId"), []).append((at(e), e["values"]["allocated"]))
    names[thread.get("javaThreadId")] = thread.get("javaName") or "?"
# On a loaded machine the recording may end early (the server is stopped while JFR writes): the window ends at its
# last counters then, and a window under 2 s is no measurement.
hi = min(hi, max(t for samples in per_thread.values() for t, _ in samples))
if hi - lo < 2:
    print(f"{name} {int(qps)} n/a")
    sys.exit(0)
total, by_name = 0, {}
for thread, samples in per_thread.items():
    if names[thread].startswith("JFR "):
        continue  # the recording's own threads (its periodic task reads every thread's counter): not the provider's
    before = [v for t, v in samples if t <= lo]
    until = [v for t, v in samples if t <= hi]
    if until:
        allocated = until[-1] - (before[-1] if before else 0)
        total += allocated
        by_name[names[thread]] = allocated
calls = qps * (hi - lo)
print(f"{name} {int(qps)} {total / calls:.0f}")
print("  per thread, bytes per call: " + ", ".join(f"{n} {b / calls:.0f}" for n, b in
      sorted(by_name.items(), key=lambda kv: -kv[1]) if b / calls >= 1), file=sys.stderr)
PY
  if [ "${SAMPLE:-0}" = 1 ]; then
    jfr print --json --stack-depth 16 --events jdk.ObjectAllocationSample "$OUT/$name.jfr" > "$OUT/$name-samples.json"
    python3 - "$OUT/$name-samples.json" "$started" "$qps" "$WARMUP" > "$OUT/$name-samples.txt" <<'PY'
import json, sys, datetime, collections
events = json.load(open(sys.argv[1]))["recording"]["events"]
started, qps, warmup = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
lo, hi = started + warmup + 1.5, started + warmup + 6.5
calls = qps * (hi - lo)
by_class, by_site = collections.Counter(), collections.Counter()
def frame(f):
    m = f["method"]
    return m["type"]["name"].rsplit(".", 1)[-1] + "." + m["name"] + ":" + str(f.get("lineNumber"))
for e in events:
    v = e["values"]
    t = datetime.datetime.fromisoformat(v["startTime"].replace("Z", "+00:00")).timestamp()
    if not lo <= t <= hi:
        continue
    cls = v["objectClass"]["name"]
    frames = (v.get("stackTrace") or {}).get("frames") or []
    by_class[cls] += v["weight"]
    by_site[(cls, " < ".join(frame(f) for f in frames[:4]))] += v["weight"]
total = sum(by_class.values())
print(f"sampled bytes per call: {total / calls:.0f}")
for cls, w in by_class.most_common(40):
    print(f"{w / calls:8.1f}  {cls}")
print()
for (cls, site), w in by_site.most_common(60):
    print(f"{w / calls:8.1f}  {cls}  {site}")
PY
    echo "allocation samples: $OUT/$name-samples.txt" >&2
  fi
}

read -r _ ours_qps ours <<< "$(measure jupiter "$PORT" java -jar "$JAR" benchmark-server --host 127.0.0.1 --port "$PORT")"
if [ "${ONLY_OURS:-0}" = 1 ]; then
  printf "| provider | qps (sync, %s threads) | bytes allocated per call |\n|---|---:|---:|\n" "$THREADS"
  printf "| jupiter | %s | %s |\n" "$ours_qps" "$ours"
  echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1)" >&2
  exit 0
fi
read -r _ old_qps old <<< "$(measure jupiter-1.3.1 "$((PORT + 1))" "${LEGACY_JAVA[@]}" compat.legacy.LegacyBenchmarkServer "$((PORT + 1))" true)"
printf "| provider | qps (sync, %s threads) | bytes allocated per call |\n|---|---:|---:|\n" "$THREADS"
printf "| jupiter | %s | %s |\n| jupiter 1.3.1 | %s | %s |\n" "$ours_qps" "$ours" "$old_qps" "$old"
awk -v a="$ours" -v b="$old" 'BEGIN { printf "\nratio jupiter / 1.3.1: %.2f\n", a / b }'
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1)" >&2
