#!/bin/sh
# What-if speed: `sim whatif --transform pv` (two cycle models in lockstep:
# the untransformed prediction and the transformed one, plus the prescan
# when a template limit is given) against a plain replay and a model replay
# (`sim replay --model`) of the same synthetic trace, in the same run (warm
# page cache). Prints seconds, exits/s and the ratios, and peak RSS.
# Expectation: about 2x the model replay (two models), constant memory.
set -eu
cd "$(dirname "$0")/.."
EXITS=${EXITS:-10M}
REPS=${REPS:-3}
B=${BUILD:-build-model-rel}
. bench/lib.sh
model_trace
t_plain=$(best "$B/sim" replay "$trace" --format csv)
t_model=$(best "$B/sim" replay "$trace" --model --format csv)
t_pv=$(best "$B/sim" whatif "$trace" --transform pv --format csv)
t_all=$(best "$B/sim" whatif "$trace" --transform pv:template-bytes=65536,no-iccci,tlb-slots=100 --format csv)
r_model=$(rss "$B/sim" replay "$trace" --model --format csv)
r_pv=$(rss "$B/sim" whatif "$trace" --transform pv --format csv)

awk -v n="$n" -v p="$t_plain" -v m="$t_model" -v w="$t_pv" -v a="$t_all" \
    -v rm="$r_model" -v rw="$r_pv" 'BEGIN {
  printf "trace: %d exits (best of '"$REPS"' runs each, warm cache)\n", n
  printf "plain replay                    %7.3f s %7.2f M exits/s\n", p, n / p / 1e6
  printf "model replay (--model)          %7.3f s %7.2f M exits/s  %5.1fx plain  peak RSS %d MiB\n", m, n / m / 1e6, m / p, rm / 1024
  printf "whatif pv                       %7.3f s %7.2f M exits/s  %5.1fx plain  %4.2fx model  peak RSS %d MiB\n", w, n / w / 1e6, w / p, w / m, rw / 1024
  printf "whatif pv:template,no-iccci,tlb %7.3f s %7.2f M exits/s  %5.1fx plain  %4.2fx model\n", a, n / a / 1e6, a / p, a / m
}'
