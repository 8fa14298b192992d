#!/usr/bin/env bash
# Where the CPU of TLS goes, per call: for `jupiter` and `jupiter-tls` in turn (one driver run each, 8 s warm-up +
# 12 s), Linux perf counts 8 s of the server and client JVMs: CPU time (task-clock), context switches, socket sends
# and receives (sendto/recvfrom: the epoll transport's only socket system calls), and on the TLS run the records
# sealed and opened (calls of BoringSSL's SSL_write and SSL_read, through uprobes on netty-tcnative's library).
# Prints, per side and per call: CPU µs, sends, records. Needs perf with tracepoints and uprobes (root, or
# perf_event_paranoid <= 1 and access to tracefs).
#
#   bench/tls-certs.sh target/bench-tls && bench/tls-cost.sh                 # sync 32 small
#   bench/tls-cost.sh --cases "sync 1 small"                                  # one record each way per call
#
# A CPU profile of the same runs: `perf record -g -p <server>,<client>` with `-XX:+PreserveFramePointer` and
# `jcmd <pid> Compiler.perfmap` (docs/benchmark.md, "TLS: where the cost goes").
set -euo pipefail
cd "$(dirname "$0")/.."
TLS_DIR=${TLS_DIR:-target/bench-tls}
[ -f "$TLS_DIR/ca.crt" ] || { echo "no $TLS_DIR/ca.crt: run bench/tls-certs.sh $TLS_DIR first" >&2; exit 1; }
source bench/build-legacy.sh
OUT=target/tls-cost
mkdir -p "$OUT"
CASE_FLAGS=(--cases "sync 32 small")
[[ " $* " == *" --cases "* ]] && CASE_FLAGS=()
# Not the driver's default ports (18190 on): another driver on the machine would take them, and our client would
# measure its server.
PORT_FLAGS=(--base-port 28190)
[[ " $* " == *" --base-port "* ]] && PORT_FLAGS=()
EVENTS=task-clock,sched:sched_switch,syscalls:sys_enter_sendto,syscalls:sys_enter_recvfrom

for target in jupiter jupiter-tls; do
  # The library stays on disk while the JVMs run, so that uprobes can be placed in it.
  java -jar "$DRIVER_JAR" --jupiter-classpath "$JAR" --legacy-classpath "$LEGACY_CP" --tls-dir "$TLS_DIR" \
    --runs 1 --warmup 8 --seconds 12 --targets "$target" "${CASE_FLAGS[@]}" "${PORT_FLAGS[@]}" \
    --jvm-options "-Xms1g -Xmx1g -XX:+AlwaysPreTouch -Dio.netty.native.deleteLibAfterLoading=false" "$@" \
    > "$OUT/$target.log" 2>&1 &
  driver=$!
  sleep 12
  probes=()
  for pid in $(pgrep -P "$driver"); do
    role=$(tr '\0' ' ' < "/proc/$pid/cmdline" | grep -o ' \(server\|client\) ' | head -1 | tr -d ' ' || true)
    [ -n "$role" ] || continue
    events=$EVENTS
    if [ "$target" = jupiter-tls ]; then
      lib=$(grep -o '/[^ ]*libnetty_tcnative[^ ]*\.so' "/proc/$pid/maps" | head -1)
      group=$(basename "$lib" .so | tr -c 'a-zA-Z0-9_\n' _)
      perf probe -q -x "$lib" --add "seal_$role=SSL_write" --add "open_$role=SSL_read"
      probes+=("probe_$group:*")
      events="$events,probe_$group:seal_$role,probe_$group:open_$role"
    fi
    perf stat -x, -e "$events" -p "$pid" -o "$OUT/$target-$role.csv" -- sleep 8 &
  done
  wait "$driver"
  if grep -q "FAILED" "$OUT/$target.log"; then
    echo "calls failed in $OUT/$target.log (a port taken? see target/compare-logs): counts not trusted" >&2
  fi
  for probe in "${probes[@]}"; do perf probe -q -d "$probe" || true; done
done

python3 - "$OUT" <<'EOF'
import csv, re, sys
out = sys.argv[1]
for target in ('jupiter', 'jupiter-tls'):
    log = open(f'{out}/{target}.log').read()
    rate = float(re.search(r'run 1, [^:]*: ([\d,]+) calls/s', log).group(1).replace(',', ''))
    calls = rate * 8
    print(f'{target}: {rate:,.0f} calls/s')
    for role in ('server', 'client'):
        counts = {}
        for row in csv.reader(l for l in open(f'{out}/{target}-{role}.csv') if l.strip() and l[0] != '#'):
            counts[re.sub(r'.*:', '', row[2])] = float(row[0]) if row[0][0].isdigit() else 0.0
        line = (f'  {role}: CPU {counts["task-clock"] * 1000 / calls:.2f} µs/call, '
                f'switches {counts["sched_switch"] / calls:.2f}, sends {counts["sys_enter_sendto"] / calls:.3f}, '
                f'receives {counts["sys_enter_recvfrom"] / calls:.3f}')
        if f'seal_{role}' in counts:
            line += (f', records sealed {counts[f"seal_{role}"] / calls:.3f}, '
                     f'SSL_read calls {counts[f"open_{role}"] / calls:.3f}')
        print(line)
EOF
