#!/bin/sh
# Cycle-model replay speed: `sim replay --model` (the full model: stages,
# soft TLB, caches, host interference, guest draws) and `--model --platform
# systemc` (the SystemC timed platform) on a synthetic trace, against the
# plain measured replay of the same trace in the same run (warm page cache).
# Prints exits/s, the ratio to the plain replay and the peak RSS of each.
# Targets (issue 4): >= 10 M exits/s through the full model, >= 2 M exits/s
# through SystemC, memory constant whatever the trace size; issue 13: >= 20 M
# exits/s through the full model in CPU time (user + system, best of REPS:
# the machine is shared, so wall time also counts other jobs' load).
set -eu
cd "$(dirname "$0")/.."
EXITS=${EXITS:-10M}
REPS=${REPS:-5}
B=${BUILD:-build-model-rel}
. bench/lib.sh
model_trace
t_plain=$(best "$B/sim" replay "$trace" --accounting 3.1)
t_model=$(best "$B/sim" replay "$trace" --accounting 3.1 --model)
t_sc=$(best "$B/sim" replay "$trace" --accounting 3.1 --model --platform systemc)
# best_cpu CMD...: the best user + system seconds of REPS runs of CMD.
best_cpu() {
  b=""
  i=0
  while [ $i -lt "$REPS" ]; do
    t=$( { /usr/bin/time -f "%U %S" "$@" >/dev/null 2>/dev/null; } 2>&1 |
      tail -1 | awk '{print $1 + $2}')
    if [ -z "$b" ] || [ "$(awk "BEGIN{print ($t < $b)}")" = 1 ]; then b=$t; fi
    i=$((i + 1))
  done
  echo "$b"
}
c_plain=$(best_cpu "$B/sim" replay "$trace" --accounting 3.1)
c_model=$(best_cpu "$B/sim" replay "$trace" --accounting 3.1 --model)
r_plain=$(rss "$B/sim" replay "$trace" --accounting 3.1)
r_model=$(rss "$B/sim" replay "$trace" --accounting 3.1 --model)
r_sc=$(rss "$B/sim" replay "$trace" --accounting 3.1 --model --platform systemc)

awk -v n="$n" -v p="$t_plain" -v cp="$c_plain" -v cm="$c_model" -v m="$t_model" -v s="$t_sc" \
    -v rp="$r_plain" -v rm="$r_model" -v rs="$r_sc" 'BEGIN {
  printf "trace: %d exits (best of '"$REPS"' runs each, warm cache)\n", n
  printf "plain measured replay  %7.3f s %8.2f M exits/s  peak RSS %4d MiB\n", p, n / p / 1e6, rp / 1024
  printf "full model (C)         %7.3f s %8.2f M exits/s  peak RSS %4d MiB  (target >= 10)  %.1fx plain\n", m, n / m / 1e6, rm / 1024, m / p
  printf "CPU time: plain        %7.3f s %8.2f M exits/s\n", cp, n / cp / 1e6
  printf "CPU time: full model   %7.3f s %8.2f M exits/s  (target >= 20)  %.1fx plain\n", cm, n / cm / 1e6, cm / cp
  printf "SystemC platform       %7.3f s %8.2f M exits/s  peak RSS %4d MiB  (target >= 2)   %.1fx plain\n", s, n / s / 1e6, rs / 1024, s / p
}'
