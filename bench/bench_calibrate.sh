#!/bin/sh
# Calibration speed (issue 11): `sim calibrate` on traces made by `sim trace
# synth --like` the no-PV table, of 1M and 10M exits, against one cycle-model
# replay of the same trace in the same run (the unit a fit is made of).
# Prints the wall time, CPU time, replays done, their ratio to one replay,
# and the subsample's bias (the total at the subsample stage's point on the
# subsample against the whole trace, which calibrate measures on every
# run before it refines on the whole trace).
# Target: a 10M-exit trace calibrates in under 5 minutes on 2 cores.
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build-calib-rel}
THREADS=${THREADS:-2}
NOPV=validation/hw/ppc440-ubuntu-boot-nopv.txt
. bench/lib.sh
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$B" -j2 --target sim >/dev/null
mkdir -p "$B/bench"
# the traces are kept between runs, keyed by the binary that drew them: a
# changed profile or synthesis must not be benchmarked on an old trace
key=$(sha256sum "$B/sim" | cut -c1-12)
for n in 1M 10M; do
  t=$B/bench/like-$n-$key.bin
  rm -f $(ls "$B"/bench/like-$n*.bin 2>/dev/null | grep -v -- "-$key.bin") 2>/dev/null || true
  [ -f "$t" ] || "$B/sim" trace synth --like "$NOPV" --exits "$n" -o "$t" 2>/dev/null
  cat "$t" >/dev/null
  REPS=3
  one=$(best "$B/sim" replay "$t" --model)
  out=$B/bench/cal-$n.txt
  s=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$B/bench/cal-$n.time" \
    "$B/sim" calibrate --trace "$t" --table "$NOPV" --threads "$THREADS" \
    -o "$B/bench/cal-$n.ini" >"$out" || true
  e=$(date +%s.%N)
  cpu=$(awk '{print $1 + $2}' "$B/bench/cal-$n.time")
  replays=$(sed -n 's/.* \([0-9]*\) replays.*/\1/p' "$out" | head -1)
  # the subsample's exits (a refined fit then goes on on the whole trace)
  sub=$(sed -n 's/^# refined: the subsample stage (\([0-9]*\) exits.*/\1 then all/p' "$out")
  [ -n "$sub" ] || sub=$(sed -n 's/^# fit: \([0-9]*\) of .*/\1/p' "$out")
  bias=$(sed -n 's/.*subsample bias \([-+0-9.]*%\).*/\1/p' "$out")
  total=$(sed -n 's/^# traced duration: .*fitted [0-9]* usec (\([-+0-9.]*%\)).*/\1/p' "$out")
  awk -v n="$n" -v w="$(awk "BEGIN{print $e - $s}")" -v c="$cpu" -v one="$one" \
      -v r="$replays" -v nsub="$sub" -v bias="${bias:-none (whole trace fitted)}" \
      -v tot="$total" 'BEGIN {
    printf "%-4s exits: calibrate %6.1f s wall, %6.1f s CPU (%s threads), %s replays of %s exits;\n", n, w, c, '"$THREADS"', r, nsub
    printf "           one full replay %.3f s: calibrate = %.0f full replays; total duration error %s, subsample bias %s%s\n", one, w / one, tot, bias, (n == "10M" ? (w < 300 ? "  (target < 300 s: met)" : "  (target < 300 s: NOT met)") : "")
  }'
done
