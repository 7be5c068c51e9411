#!/bin/sh
# record_replay_same.sh SIM ARGS...: `sim record ARGS -o T` prints a table;
# `sim replay T` must print the same table (rows and traced duration) from
# the trace alone. Extra replay options come after "--".
sim=$1; shift
rec_args=""; rep_args=""; side=rec
for a in "$@"; do
  if [ "$a" = "--" ]; then side=rep; continue; fi
  if [ $side = rec ]; then rec_args="$rec_args $a"; else rep_args="$rep_args $a"; fi
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck disable=SC2086
"$sim" record $rec_args -o "$t/rec.bin" >"$t/rec.txt" || { echo "record failed"; cat "$t/rec.txt"; exit 1; }
# shellcheck disable=SC2086
"$sim" replay "$t/rec.bin" $rep_args >"$t/rep.txt" || { echo "replay failed"; cat "$t/rep.txt"; exit 1; }
table() { sed -n '/^unit is/,/^\*never hit/p' "$1"; }
table "$t/rec.txt" >"$t/a"; table "$t/rep.txt" >"$t/b"
[ -s "$t/a" ] || { echo "record printed no table"; cat "$t/rec.txt"; exit 1; }
diff -u "$t/a" "$t/b" || { echo "replay differs from the table printed when recording"; exit 1; }
echo "same table: $(grep -c . "$t/a") lines"
