#!/usr/bin/env bash
# Side-by-side benchmark with one load driver (jupiter-benchmark/driver, docs/benchmark.md): the raw Netty echo
# with the same framing (the ceiling), this framework with its defaults and with calls on the IO threads, and the
# original Jupiter 1.3.1 from Maven Central at its fastest settings, each server and client in JVMs of their own,
# targets interleaved, runs as the outer loop. Prints Markdown tables of means, p50/p99 and same-run ratios.
#
#   bench/compare.sh                                      # 2 runs of the 4 cases, 20 s warm-up + 10 s each: ~18 min
#   bench/compare.sh --runs 1 --cases "sync 32 small" --targets jupiter,legacy
#   bench/compare.sh --cases "sync 32 getUser,sync 32 listUser" --targets jupiter,jupiter-direct
#   bench/compare.sh --cases "stream 1 small,stream 100 small" --targets jupiter,grpc   # against gRPC-java
#   bench/compare.sh --cases "sync 32 small,stream 1 small" --targets grpc-direct,grpc-on-jupiter   # gRPC served by us
#   bench/compare.sh --transport io_uring --targets raw,jupiter   # ours and the raw echo on io_uring (auto|nio|epoll)
#
# Any flag of io.jupiter.benchmark.driver.Compare may be given; logs of every JVM go to target/compare-logs.
# Client and servers share the machine's cores: compare the ratios, not the absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/build-legacy.sh
# The gRPC-java target: the driver, its adapter and gRPC in one jar, on no class path of ours. The target
# grpc-on-jupiter (gRPC-java's client against our provider serving gRPC): jupiter-benchmark's jar.
mvn -B -q -DskipTests package -pl jupiter-benchmark/grpc,jupiter-benchmark -am >&2
GRPC_JAR=$(ls jupiter-benchmark/grpc/target/jupiter-benchmark-grpc-*standalone.jar)
GRPC_ON_JUPITER_JAR=jupiter-benchmark/target/jupiter-benchmark.jar
exec java -jar "$DRIVER_JAR" --jupiter-classpath "$JAR" --legacy-classpath "$LEGACY_CP" --grpc-classpath "$GRPC_JAR" \
  --grpc-on-jupiter-classpath "$GRPC_ON_JUPITER_JAR" "$@"
