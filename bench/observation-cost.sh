#!/usr/bin/env bash
# What the Micrometer Observation instrumentation costs per call (docs/observability.md): bench/cost-per-call.sh on
# the example jar as it is, then with RpcObservationFilter service-loaded on both sides (jupiter-micrometer's test
# class ObservedBenchmarkFilter: a Prometheus meter handler with the call timers' histograms and, unless
# OBSERVATION=metrics, micrometer-tracing's OpenTelemetry bridge sampling every trace, spans batched and dropped),
# alternating, RUNS times each.
#
#   bench/observation-cost.sh pool --mode sync --threads 32       # arguments as bench/cost-per-call.sh's
#   RUNS=3 OBSERVATION=metrics WARMUP=10 SECONDS_PER_RUN=10 bench/observation-cost.sh pool --mode future --threads 32
#
# Build first: mvn -B -q -pl jupiter-example,jupiter-micrometer -am package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-2}
MODE=${OBSERVATION:-tracing}
EXAMPLE=$PWD/jupiter-example/target/jupiter-example.jar
[ -f "$EXAMPLE" ] || { echo "no $EXAMPLE: build first (see above)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# (test-compile: in the reactor the modules resolve to their classes.) The observed jar: a manifest only, whose Class-Path is the example jar, jupiter-micrometer's classes and test
# classes, its test dependencies but Jupiter's own (in the example jar) and a services file naming the filter.
mvn -B -q -pl jupiter-micrometer -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$work/cp.txt" >/dev/null
mkdir -p "$work/services/META-INF/services"
echo io.jupiter.micrometer.observation.ObservedBenchmarkFilter \
    > "$work/services/META-INF/services/io.jupiter.rpc.filter.Filter"
python3 - "$work" "$EXAMPLE" "$PWD" <<'PY'
import sys, zipfile, pathlib
work, example, root = sys.argv[1:]
target = root + "/jupiter-micrometer/target"
dirs = [target + "/classes", target + "/test-classes", work + "/services"]
jars = [p for p in open(work + "/cp.txt").read().strip().split(":")
        if p and "/io/jupiter/" not in p and not p.startswith(root + "/")]
uris = [pathlib.Path(example).as_uri()] + [pathlib.Path(d).as_uri() + "/" for d in dirs]
uris += [pathlib.Path(j).as_uri() for j in jars]
text = "Manifest-Version: 1.0\nMain-Class: io.jupiter.example.Main\nClass-Path: " + " ".join(uris) + "\n"
lines = []
for line in text.splitlines():
    raw = line.encode()
    lines.append(raw[:70])
    raw = raw[70:]
    while raw:
        lines.append(b" " + raw[:69])
        raw = raw[69:]
with zipfile.ZipFile(work + "/observed.jar", "w") as jar:
    jar.writestr("META-INF/MANIFEST.MF", b"\r\n".join(lines) + b"\r\n")
PY

HEAP_OPTS="-Xms1g -Xmx1g -XX:+AlwaysPreTouch"
for run in $(seq 1 "$RUNS"); do
  echo "== run $run: without an observation registry"
  bench/cost-per-call.sh "$@"
  echo "== run $run: with RpcObservationFilter ($MODE)"
  JAR="$work/observed.jar" SERVER_JAVA_OPTS="$HEAP_OPTS -Djupiter.bench.observation=$MODE" \
    CLIENT_JAVA_OPTS="$HEAP_OPTS -Djupiter.bench.observation=$MODE" bench/cost-per-call.sh "$@"
  grep -q "observation filter on" /tmp/cost-per-call-server.log \
    || { echo "the server did not load the observation filter: see /tmp/cost-per-call-server.log" >&2; exit 1; }
done
