#!/usr/bin/env bash
# A change measured before and after in one run of the load driver: the example jar built at another commit (the
# baseline) beside this working tree, targets interleaved, ratios within each run.
#
#   bench/before-after.sh HEAD~1                                  # baseline,jupiter: the 4 default cases, 2 runs
#   bench/before-after.sh main --targets baseline,jupiter,baseline-direct,jupiter-direct --cases "async 32 small"
#
# The baseline commit must have the driver (jupiter-benchmark/driver, 2026-11-25 or later). Other flags go to
# io.jupiter.benchmark.driver.Compare (docs/benchmark.md).
set -euo pipefail
cd "$(dirname "$0")/.."
REF=${1:?usage: bench/before-after.sh <commit> [Compare flags...]}
shift
DIR=target/baseline-build
mkdir -p target
rm -rf "$DIR"
git worktree prune
git worktree add --detach "$DIR" "$REF" >&2
(cd "$DIR" && mvn -B -q -DskipTests package -pl jupiter-example -am >&2)
cp "$DIR/jupiter-example/target/jupiter-example.jar" target/baseline.jar
git worktree remove --force "$DIR"
source bench/build-legacy.sh
exec java -jar "$DRIVER_JAR" --jupiter-classpath "$JAR" --legacy-classpath "$LEGACY_CP" \
  --baseline-classpath target/baseline.jar --targets baseline,jupiter "$@"
