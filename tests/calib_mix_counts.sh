#!/bin/sh
# Counts agree everywhere (issue 10): the exit mix sim calibrate prints per
# row equals the counts of sim replay's table of the same trace (the last
# exit is charged by no one, in both).
# usage: calib_mix_counts.sh SIM TABLE
set -eu
sim=$1 table=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
trace=$d/t.bin
"$sim" trace synth --exits 500 --seed 1 -o "$trace" 2>/dev/null
rc=0
"$sim" calibrate --trace "$trace" --table "$table" --fit cpi --max-iter 1 \
  -o "$d/p.ini" > "$d/cal.txt" 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat "$d/cal.txt"; exit 1; }
"$sim" replay "$trace" --format csv > "$d/replay.csv" 2>/dev/null
# mix lines: "  ROW  table-count share trace-count share diff ..."
awk '/^# exit mix/ { on = 1; next } on && /^# / { if (n) exit; next }
     on && NF >= 6 && $4 + 0 > 0 { print $1, $4; n++ }' "$d/cal.txt" | sort > "$d/cal.counts"
awk -F, 'NR > 1 && $1 != "TIMEINGUEST" { print $1, $2 }' "$d/replay.csv" | sort > "$d/replay.counts"
[ -s "$d/cal.counts" ] || { echo "no exit mix in calibrate's output"; cat "$d/cal.txt"; exit 1; }
if ! diff "$d/replay.counts" "$d/cal.counts"; then
  echo "calibrate's exit mix (right) differs from replay's table (left)"
  exit 1
fi
echo "calibrate's exit mix equals replay's counts ($(wc -l < "$d/cal.counts") rows)"
