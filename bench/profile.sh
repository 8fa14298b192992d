#!/usr/bin/env bash
# Where one side's CPU goes, for the same server kinds and client arguments as bench/cost-per-call.sh: the server and
# the client each record JFR execution samples (every 1 ms per thread running Java code) over the measured window,
# and /proc splits each process's CPU time into user and kernel time (system calls, wake-ups: what JFR cannot see).
# Prints per side: CPU per call (user / kernel), the samples by group of the frame they were taken in, the methods
# most often on the stack, and writes the samples as folded stacks (`frame;frame;... count`, the input of flame graph
# tools such as flamegraph.pl or speedscope) to target/profile-<kind>-<side>.folded.
#
#   bench/profile.sh direct --mode future --threads 32     # methods on the IO threads (benchmark-server --provider-threads 0)
#   bench/profile.sh pool --mode sync --threads 32         # the defaults (provider pool)
#   bench/profile.sh raw --mode future --threads 32        # the raw echo: the transport alone
#   JAR=/tmp/other.jar WARMUP=15 SECONDS_PER_RUN=10 bench/profile.sh ...
#
# Needs python3 and the JDK's `jfr` tool. Build the jar first (mvn -B -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."

JAR=${JAR:-jupiter-example/target/jupiter-example.jar}
WARMUP=${WARMUP:-10}
MEASURE=${SECONDS_PER_RUN:-10}
PORT=${PORT:-18195}
OUT=target
HEAP_OPTS="-Xms1g -Xmx1g -XX:+AlwaysPreTouch"
kind=${1:?usage: bench/profile.sh pool|direct|raw <benchmark-client arguments>}
shift
[ "$MEASURE" -ge 4 ] || { echo "SECONDS_PER_RUN must be at least 4" >&2; exit 2; }

case $kind in
  raw) server=(raw-echo-server --port "$PORT"); client=raw-echo-client ;;
  direct) server=(benchmark-server --port "$PORT" --provider-threads 0); client=benchmark-client ;;
  pool) server=(benchmark-server --port "$PORT"); client=benchmark-client ;;
  *) echo "unknown server kind '$kind' (expected: pool|direct|raw)" >&2; exit 2 ;;
esac

mkdir -p "$OUT"
jfc=$OUT/profile-1ms.jfc
cat > "$jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="execution samples every 1 ms">
  <event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">1 ms</setting></event>
</configuration>
JFC
# The window: from 1 s after the warm-up to 1 s before the end of the measured run.
window=$((MEASURE - 2))
# Deep stacks: a sample cut at JFR's default 64 frames loses its thread's root, and the tree below its shape.
recording() {
  echo "-XX:FlightRecorderOptions=stackdepth=512"
  echo "-XX:StartFlightRecording=delay=$((WARMUP + 1))s,duration=${window}s,settings=$jfc,filename=$1"
}
server_jfr=$OUT/profile-$kind-server.jfr
client_jfr=$OUT/profile-$kind-client.jfr
rm -f "$server_jfr" "$client_jfr"

SP=; CP=
cleanup() { for p in $CP $SP; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
# shellcheck disable=SC2086
java $HEAP_OPTS $(recording "$server_jfr") -jar "$JAR" "${server[@]}" > "$OUT/profile-server.log" 2>&1 & SP=$!
for _ in $(seq 1 150); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
  sleep 0.2
done
# shellcheck disable=SC2086
java $HEAP_OPTS $(recording "$client_jfr") -jar "$JAR" "$client" --port "$PORT" --warmup "$WARMUP" \
  --seconds "$MEASURE" "$@" > "$OUT/profile-client.log" 2>&1 & CP=$!

ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }
sleep $((WARMUP + 1))
read -r su0 ss0 <<< "$(ticks $SP)"; read -r cu0 cs0 <<< "$(ticks $CP)"
sleep $window
read -r su1 ss1 <<< "$(ticks $SP)"; read -r cu1 cs1 <<< "$(ticks $CP)"
wait $CP || true
CP=
# The server's recording ends with its duration; wait for the file before stopping the server.
for _ in $(seq 1 50); do [ -s "$server_jfr" ] && break; sleep 0.2; done
sleep 1
kill "$SP" 2>/dev/null || true; wait "$SP" 2>/dev/null || true; SP=

qps=$(sed -n 's/.*qps: \([0-9]*\).*/\1/p' "$OUT/profile-client.log")
if [ -z "$qps" ] || grep -q "^Failed" "$OUT/profile-client.log"; then
  echo "the client failed: see $OUT/profile-client.log" >&2
  exit 1
fi
hz=$(getconf CLK_TCK)
echo "$kind $* | qps $qps"
for side in server client; do
  if [ $side = server ]; then u=$((su1 - su0)); s=$((ss1 - ss0)); else u=$((cu1 - cu0)); s=$((cs1 - cs0)); fi
  jfr_file=$OUT/profile-$kind-$side.jfr
  awk -v side=$side -v u=$u -v s=$s -v hz="$hz" -v q="$qps" -v t=$window 'BEGIN {
    calls = q * t
    printf "\n%s: CPU per call %.2f us (user %.2f, kernel %.2f)\n", side, (u + s) * 1e6 / hz / calls,
      u * 1e6 / hz / calls, s * 1e6 / hz / calls }'
  jfr print --json --stack-depth 512 --events jdk.ExecutionSample "$jfr_file" > "$OUT/profile-$kind-$side.json"
  python3 - "$OUT/profile-$kind-$side.json" "$OUT/profile-$kind-$side.folded" <<'PY'
import collections, json, sys

# A frame's group: the first prefix it starts with.
GROUPS = [
    ("io.jupiter.serialization", "serialization (ours)"),
    ("io.protostuff", "protostuff"),
    ("io.jupiter.transport", "transport (ours)"),
    ("io.jupiter.rpc.internal.provider", "provider chain"),
    ("io.jupiter.rpc.internal.consumer", "consumer"),
    ("io.jupiter.rpc.internal.metrics", "metrics"),
    ("io.jupiter.rpc", "rpc, other"),
    ("io.jupiter.example", "benchmark service and client"),
    ("io.jupiter", "jupiter, other"),
    ("io.netty.buffer", "netty buffers"),
    ("io.netty.util.Recycler", "netty recycler"),
    ("io.netty.channel", "netty channel and event loop"),
    ("io.netty.handler", "netty handlers"),
    ("io.netty", "netty, other"),
    ("io.micrometer", "micrometer"),
    ("org.HdrHistogram", "histograms"),
    ("java.util.concurrent", "JDK concurrency (queues, locks, park)"),
    ("jdk.internal.misc.Unsafe", "JDK concurrency (queues, locks, park)"),
    ("java.lang.invoke", "JDK reflection, method handles"),
    ("jdk.internal.reflect", "JDK reflection, method handles"),
    ("java.lang.reflect", "JDK reflection, method handles"),
    ("java.", "JDK, other"),
    ("jdk.", "JDK, other"),
    ("sun.", "JDK, other"),
]

def group(name):
    for prefix, label in GROUPS:
        if name.startswith(prefix):
            return label
    return "other"

with open(sys.argv[1]) as f:
    events = json.load(f)["recording"]["events"]
leaf = collections.Counter()
leaf_method = collections.Counter()
on_stack = collections.Counter()
folded = collections.Counter()
total = 0
for e in events:
    frames = (e["values"].get("stackTrace") or {}).get("frames") or []
    names = []
    for fr in frames:
        m = fr["method"]
        names.append(m["type"]["name"].replace("/", ".") + "." + m["name"])
    if not names:
        continue
    total += 1
    leaf[group(names[0])] += 1
    leaf_method[names[0]] += 1
    for n in set(names):
        on_stack[n] += 1
    folded[";".join(reversed(names))] += 1
with open(sys.argv[2], "w") as f:
    for stack, n in folded.most_common():
        f.write(f"{stack} {n}\n")
print(f"{total} samples (JFR samples Java code only; the kernel time above is not in them)")
print("by group of the frame sampled:")
for label, n in leaf.most_common():
    print(f"  {100.0 * n / total:5.1f} %  {label}")
print("methods sampled most (self):")
for name, n in leaf_method.most_common(12):
    print(f"  {100.0 * n / total:5.1f} %  {name}")
print("methods most often on the stack (self and below):")
for name, n in on_stack.most_common(40)[:25]:
    print(f"  {100.0 * n / total:5.1f} %  {name}")
print("the samples as a tree (a text flame graph: callers above callees; a branch of at least 3 % is shown, and a")
print("chain of frames without such a branch is shown by its last frame):")
root = {"n": 0, "kids": {}}
for stack, n in folded.items():
    root["n"] += n
    node = root
    for frame in stack.split(";"):
        node = node["kids"].setdefault(frame, {"n": 0, "kids": {}})
        node["n"] += n

def short(frame):
    cls, _, method = frame.rpartition(".")
    return cls.rsplit(".", 1)[-1] + "." + method

def show(name, node, depth, skipped):
    kids = [(k, v) for k, v in node["kids"].items() if v["n"] >= 0.03 * total]
    if len(kids) == 1 and kids[0][1]["n"] >= 0.9 * node["n"]:
        show(kids[0][0], kids[0][1], depth, skipped + 1)
        return
    if name is not None:
        depth = max(depth, 0)
        more = f" (+{skipped} frames above)" if skipped else ""
        print(f"  {100.0 * node['n'] / total:5.1f} %  {'  ' * depth}{short(name)}{more}")
    for k, v in sorted(kids, key=lambda kv: -kv[1]["n"]):
        show(k, v, depth + 1, 0)

show(None, root, -1, 0)
print(f"folded stacks: {sys.argv[2]}")
PY
done
