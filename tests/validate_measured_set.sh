#!/bin/sh
# measured.record's own `--set K=V` reaches the measured recording and not
# the baseline's (docs/validation.md, the cpu440-tlbslots case): the case's
# measured DTLBVIRT and ITLBVIRT counts are those of the same recording
# made by hand with utlb_entries = 96, and differ from the 440's 64.
# usage: validate_measured_set.sh SIM SRCDIR
set -eu
sim=$1 src=$2
d=$(mktemp -d "${TMPDIR:-/tmp}/valset.XXXXXX")
trap 'rm -rf "$d"' EXIT
rc=0
"$sim" validate measuredset --cases "$src/tests/data/cases" > "$d/case.txt" || rc=$?
[ "$rc" -le 1 ] || { echo "validate failed ($rc)"; cat "$d/case.txt"; exit 1; }
# the measured (ref) count of a row: the case's table, column 2
ref() { awk -v r="$1" '$1 == r { gsub(",", "", $2); print $2 }' "$d/case.txt"; }
# the same recording by hand (seed 1 and the case's set, as validate runs it)
rec() {
  "$sim" record boot --model "$@" --exits 20000 --set seed=1 \
    --set signal_hz=0 --set host_irq_hz=0 --set stall_hz=0 --no-console \
    -o "$d/r.bin" > "$d/r.txt"
}
row() { awk -v r="$1" '$1 == r { gsub(",", "", $2); print $2 }' "$d/r.txt"; }
rec --set utlb_entries=96
i96=$(row ITLBVIRT) d96=$(row DTLBVIRT)
rec
i64=$(row ITLBVIRT) d64=$(row DTLBVIRT)
echo "measured ITLBVIRT $(ref ITLBVIRT) DTLBVIRT $(ref DTLBVIRT);" \
  "by hand at 96: $i96 $d96, at 64: $i64 $d64"
[ -n "$i96" ] && [ -n "$d96" ] && [ -n "$i64" ] && [ -n "$d64" ] || {
  echo "a count is missing"; exit 1; }
[ "$(ref ITLBVIRT)" = "$i96" ] && [ "$(ref DTLBVIRT)" = "$d96" ] || {
  echo "the measured run is not the 96-entry recording"; exit 1; }
[ "$i96" != "$i64" ] || [ "$d96" != "$d64" ] || {
  echo "96 entries recorded the same misses as 64"; exit 1; }
echo ok
