#!/bin/sh
# The kernel's what-if policies reach the cycle model pricing a recording
# (sim record --mmio kernel, --iccci off; docs/cpu440.md): with in-kernel
# MMIO the MMIO row is a light exit's price (under half the QEMU round
# trip's avg), without the iccci the EMULINST row (EMUL_* folded) is
# cheaper, and neither leaves the other row as it was by accident of
# parsing (both rows present in every run).
# usage: record_policies.sh SIM
set -eu
sim=$1
d=$(mktemp -d "${TMPDIR:-/tmp}/recpol.XXXXXX")
trap 'rm -rf "$d"' EXIT
run() {
  "$sim" record boot --model "$@" --exits 20000 --set seed=1 \
    --set signal_hz=0 --set host_irq_hz=0 --set stall_hz=0 --no-console \
    --fold-emul -o "$d/r.bin"
}
# a row's avg (column 6 of the kvm table)
avg() { awk -v r="$1" '$1 == r { gsub(",", "", $6); print $6; exit }' "$2"; }
run > "$d/plain.txt"
run --mmio kernel > "$d/kernel.txt"
run --iccci off > "$d/noiccci.txt"
mq=$(avg MMIO "$d/plain.txt") mk=$(avg MMIO "$d/kernel.txt")
eq=$(avg EMULINST "$d/plain.txt") en=$(avg EMULINST "$d/noiccci.txt")
echo "MMIO avg: QEMU $mq, in the kernel $mk; EMULINST avg: iccci $eq, none $en"
[ -n "$mq" ] && [ -n "$mk" ] && [ -n "$eq" ] && [ -n "$en" ] || {
  echo "a row is missing"; exit 1; }
awk -v q="$mq" -v k="$mk" 'BEGIN { exit !(k < q / 2) }' || {
  echo "MMIO in the kernel is not priced light"; exit 1; }
awk -v a="$eq" -v b="$en" 'BEGIN { exit !(b < a) }' || {
  echo "without the iccci EMULINST is not cheaper"; exit 1; }
grep -q "^# kernel: MMIO served by in-kernel devices" "$d/kernel.txt"
grep -q "^# kernel: no I-cache invalidate on guest entry" "$d/noiccci.txt"
! grep -q "^# kernel:" "$d/plain.txt"
echo ok
