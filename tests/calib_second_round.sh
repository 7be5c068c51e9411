#!/bin/sh
# Identifiability decided at the start alone stranded a fit: on a 533 MHz
# board (the seed's no-PV table) guest_cpi was held at the start as a near
# copy of icache_miss_cycles, and the fit ended with TIMEINGUEST +78% off
# its own table. The candidates are identified again at the fitted point
# and the fit goes on with the new set (docs/calibration.md,
# "Identifiability"): the guest row now fits (a guard of 10%, not a claim
# of precision), and the report says the second round was kept.
# usage: calib_second_round.sh SIM NOPV_TABLE
set -eu
sim=$1 table=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$sim" trace synth --like "$table" --exits 100k --seed 1 --tb-hz 533000000 \
  -o "$d/t.bin" 2>/dev/null
rc=0
"$sim" calibrate --trace "$d/t.bin" --table "$table" -o "$d/p.ini" \
  > "$d/cal.txt" 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat "$d/cal.txt"; exit 1; }
grep '^# second identification' "$d/cal.txt" || true
err=$(awk '$1 == "TIMEINGUEST" && $2 == 10000000 { sub("%", "", $6); print $6 }' "$d/cal.txt")
[ -n "$err" ] || { echo "no TIMEINGUEST row"; cat "$d/cal.txt"; exit 1; }
echo "TIMEINGUEST avg error $err%"
if ! awk -v e="$err" 'BEGIN { exit !(e < 10 && e > -10) }'; then
  echo "the calibrated guest row is more than 10% off its own table"
  cat "$d/cal.txt"
  exit 1
fi
# the fitted point replays: the file alone gives the report's guest row
"$sim" replay "$d/t.bin" --model --params "$d/p.ini" --format csv 2>/dev/null |
  grep '^TIMEINGUEST,' || { echo "the parameters file does not replay"; exit 1; }
