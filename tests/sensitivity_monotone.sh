#!/bin/sh
# sim sensitivity never words a discrete effect as a saving: on a recorded
# boot (EMUL_WAIT exits idle until the next guest tick) some parameters
# move the run the same way when lowered and raised; those lines must say
# NOT MONOTONE and neither "saves" nor "costs".
# usage: sensitivity_monotone.sh SIM
set -eu
sim=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$sim" record boot --exits 50000 -o "$d/b.bin" >/dev/null 2>&1
"$sim" sensitivity "$d/b.bin" --threads 1 --top 0 > "$d/s.txt" 2>/dev/null
n=$(grep -c "(NOT MONOTONE)" "$d/s.txt" || true)
[ "$n" -gt 0 ] || { echo "no NOT MONOTONE line on a recorded boot"; cat "$d/s.txt"; exit 1; }
if grep "(NOT MONOTONE)" "$d/s.txt" | grep -Eq "(saves|costs) [0-9.]+% of the run"; then
  echo "a NOT MONOTONE line claims a saving or a cost:"; grep "NOT MONOTONE" "$d/s.txt"; exit 1
fi
grep -q "^# note: $n parameter(s) marked NOT MONOTONE" "$d/s.txt" || {
  echo "the note does not count the $n flagged lines"; head -5 "$d/s.txt"; exit 1; }
echo "$n NOT MONOTONE line(s), none worded as a saving or a cost"
