#!/usr/bin/env bash
# Bytes the consumer JVM allocates per sync call (the client side of bench/alloc.sh): a server of this build serving
# the @NonBlocking benchmark services, and a driver client from JAR (default: this build) with a JFR recording of
# per-thread allocation every 500 ms; the allocation of all threads over the measured window over its calls.
#
#   bench/client-alloc.sh                          # this build's client, 32 threads, 3 s warm-up, 8 s measured
#   bench/client-alloc.sh target/baseline.jar      # another build's client (bench/before-after.sh makes one)
#
# Needs python3. Client and server share the machine's cores.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests package -pl jupiter-example -am >&2
SERVER_JAR=jupiter-example/target/jupiter-example.jar
CLIENT_JAR=${1:-$SERVER_JAR}
THREADS=${THREADS:-32}
PORT=${PORT:-18420}
OUT=target/client-alloc
mkdir -p "$OUT"
cat > "$OUT/alloc.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="allocation per thread">
  <event name="jdk.ThreadAllocationStatistics"><setting name="enabled">true</setting><setting name="period">500 ms</setting></event>
</configuration>
JFC
java -cp "$SERVER_JAR" io.jupiter.benchmark.driver.DriverMain server \
  --target io.jupiter.example.benchmark.NonBlockingJupiterTarget --port "$PORT" > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do grep -q '^ready' "$OUT/server.log" && break; sleep 0.2; done
java -XX:StartFlightRecording=filename="$OUT/client.jfr,settings=$OUT/alloc.jfc" -cp "$CLIENT_JAR" \
  io.jupiter.benchmark.driver.DriverMain client --target io.jupiter.example.benchmark.JupiterTarget --port "$PORT" \
  --mode sync --threads "$THREADS" --warmup 3 --seconds 8 > "$OUT/client.log" 2>&1
jfr print --json --events jdk.ThreadAllocationStatistics "$OUT/client.jfr" > "$OUT/client.json"
python3 - "$OUT" <<'PY'
import collections, datetime, json, re, sys
out = sys.argv[1]
events = json.load(open(out + '/client.json'))['recording']['events']
# Samples of one period share their start time to a tenth of a second; allocation counters are per thread.
by_time = collections.defaultdict(dict)
for e in events:
    v = e['values']
    by_time[v['startTime'][:21]][v['thread']['javaThreadId']] = v['allocated']
times = sorted(by_time)
def at(t):
    return datetime.datetime.fromisoformat(t[:19])
first = at(times[0])
start = next(t for t in times if (at(t) - first).total_seconds() >= 3.5)
end = times[-3]
allocated = sum(v - by_time[start].get(thread, 0) for thread, v in by_time[end].items())
calls_per_second = int(re.search(r'Request count: (\d+)', open(out + '/client.log').read()).group(1)) / 8
seconds = (at(end) - at(start)).total_seconds()
print('client: %.0f calls/s, %.0f bytes per call' % (calls_per_second, allocated / (calls_per_second * seconds)))
PY
