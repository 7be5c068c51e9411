#!/bin/sh
# selffit_check.sh SIM TABLE EXITS SEED BUDGET [TIG_BUDGET]: the pipeline on
# a table nobody traced - synth --like it, calibrate on it - reproduces the
# table's own total within BUDGET percent (and its TIMEINGUEST avg within
# TIG_BUDGET percent when given): a table of another guest or board must
# calibrate (docs/calibration.md, "Guest run lengths").
set -eu
sim=$1 table=$2 exits=$3 seed=$4 budget=$5 tig=${6:-}
dir=selffit.$$
rm -rf "$dir"; mkdir "$dir"; cd "$dir"
trap 'cd .. && rm -rf "$dir"' EXIT
"$sim" trace synth --like "$table" --exits "$exits" --seed "$seed" -o t.bin 2>synth.txt
"$sim" calibrate --trace t.bin --table "$table" -o p.ini >cal.txt 2>&1 || {
  rc=$?; test $rc -eq 1 || { cat cal.txt; exit 1; }; }
total=$(sed -n 's/^# traced duration: .*(\([-+0-9.]*\)%)$/\1/p' cal.txt)
test -n "$total" || { echo "no traced duration in the report"; cat cal.txt; exit 1; }
tigerr=$(awk '$1 == "TIMEINGUEST" { sub("%", "", $6); print $6 }' cal.txt)
echo "$(basename "$table"): calibrated model on its own table: total $total%, TIMEINGUEST avg $tigerr% ($(grep 'guest runs' synth.txt | sed 's/.*: //'))"
awk -v t="$total" -v b="$budget" 'BEGIN { if (t < 0) t = -t; exit !(t <= b) }' || {
  echo "total $total% outside $budget%"; exit 1; }
if [ -n "$tig" ]; then
  awk -v t="$tigerr" -v b="$tig" 'BEGIN { if (t < 0) t = -t; exit !(t <= b) }' || {
    echo "TIMEINGUEST avg $tigerr% outside $tig%"; exit 1; }
fi
