#!/bin/sh
# calibrate_chain.sh SIM: the chain of issue 11 on ftrace text of a no-PV
# run and its table: import -> calibrate -> replay --params reproduces the
# table (csv with the usual header). The ftrace text is a cpu440 boot
# exported as the kernel's tracepoints; the table is made by the tool
# itself at known parameter values (qemu_mmio_usec 90, not the default 40).
set -eu
sim=$1
dir=chain.$$
rm -rf "$dir"; mkdir "$dir"; cd "$dir"
trap 'cd .. && rm -rf "$dir"' EXIT
"$sim" record boot -o rec.bin >/dev/null
"$sim" trace dump --ftrace rec.bin >nopv.txt
"$sim" import ftrace nopv.txt -o t.bin >/dev/null 2>&1
"$sim" replay t.bin --set qemu_mmio_usec=90 -o nopv-table.txt >/dev/null
"$sim" calibrate --trace t.bin --table nopv-table.txt --fit qemu_mmio_usec,qemu_dcr_usec -o p.ini >cal.txt
grep -q '^qemu_mmio_usec = ' p.ini
"$sim" replay t.bin --params p.ini --format csv >out.csv 2>/dev/null
head -1 out.csv | grep -qx 'type,count,min,max,sum,avg,stddev,time_percent'
# the fitted value and the MMIO row: back to what made the table
v=$(sed -n 's/^qemu_mmio_usec = //p' p.ini)
awk -v v="$v" 'BEGIN { d = v - 90; if (d < 0) d = -d; exit !(d < 2) }' || {
  echo "qemu_mmio_usec fitted $v, made with 90"; exit 1; }
want=$(awk '$1 == "MMIO" { print $6 }' nopv-table.txt)
got=$(awk -F, '$1 == "MMIO" { print $6 }' out.csv)
awk -v a="$want" -v b="$got" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d < 0.01) }' || {
  echo "MMIO avg: table $want, replay with p.ini $got"; exit 1; }
echo "chain ok: qemu_mmio_usec $v (made with 90), MMIO avg $got (table $want)"
