#!/bin/sh
# Sweep speed (issue 13): a 1000-point sweep over a 10M-exit synthetic trace
# against 1000 full replays of it, extrapolated from a few timed in the
# same run (warm page cache). Target: the sweep under 60 s on this machine.
#   linear (defaults): every point from one replay's sufficient statistics,
#     first order on the base trajectory (host interrupts in simulated time)
#   auto, no host arrivals: the same points, each equal to its replay
# Plus the two threads of a replay-per-point sweep against one, and a
# sensitivity ranking. The machine is shared: best of REPS; read ratios.
set -eu
cd "$(dirname "$0")/.."
EXITS=${EXITS:-10M}
REPS=${REPS:-3}
B=${BUILD:-build}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$B" -j2 --target sim >/dev/null
mkdir -p "$B/bench"
trace=$B/bench/sweep-$EXITS.bin
[ -f "$trace" ] || "$B/sim" trace synth --exits "$EXITS" --seed 1 -o "$trace" 2>/dev/null
n=$("$B/sim" trace info "$trace" | awk '/^exits/ {print $2; exit}' | tr -d ,)
out=$B/bench/sweep.csv
quiet="--set host_tick_hz=0 --set host_irq_hz=0"

. bench/lib.sh
cat "$trace" >/dev/null # warm the page cache
t_rep=$(best "$B/sim" replay "$trace" --model --accounting 3.1)
t_lin=$(best "$B/sim" sweep "$trace" --param emul_spr_gen_insns=0:999:1 \
          --method linear -o "$out")
t_auto=$(best "$B/sim" sweep "$trace" --param emul_spr_gen_insns=0:999:1 \
          $quiet -o "$out")
exact=$(awk -F, 'NR > 1 && $2 == 1' "$out" | wc -l)
t_grid=$(best "$B/sim" sweep "$trace" --param emul_spr_gen_insns=0:990:10 \
          --param icache_miss_cycles=10:100:10 --method linear -o "$out")
REPS0=$REPS; REPS=1
t_r1=$(best "$B/sim" sweep "$trace" --param decode_insns=10:40:10 --method replay \
          --threads 1 -o "$out")
t_r2=$(best "$B/sim" sweep "$trace" --param decode_insns=10:40:10 --method replay \
          --threads 2 -o "$out")
t_sens=$(best "$B/sim" sensitivity "$trace")

awk -v n="$n" -v r="$t_rep" -v l="$t_lin" -v a="$t_auto" -v g="$t_grid" \
    -v x="$exact" -v r1="$t_r1" -v r2="$t_r2" -v s="$t_sens" 'BEGIN {
  printf "trace: %d exits (best of '"$REPS0"' runs each, 1 for the last three, warm cache; shared machine)\n", n
  printf "one full replay (--model)        %8.3f s  %6.2f M exits/s\n", r, n / r / 1e6
  printf "1000 replays, extrapolated       %8.1f s\n", 1000 * r
  printf "1000-point sweep, linear         %8.3f s  (target < 60 s)  %6.0fx faster than 1000 replays\n", l, 1000 * r / l
  printf "1000-point sweep, auto, no host  %8.3f s  %d of 1000 points equal a replay  %6.0fx faster\n", a, x, 1000 * r / a
  printf "1000-point 2-D grid, linear      %8.3f s\n", g
  printf "4 replays, 1 thread / 2 threads  %8.3f s / %.3f s  (%.2fx)\n", r1, r2, r1 / r2
  printf "sim sensitivity (all parameters) %8.3f s  = %.1f replays\n", s, s / r
}'
