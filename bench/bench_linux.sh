#!/bin/sh
# Linux boot speed, in one run on this machine: the unmodified Linux 6.1
# guest (workloads/linux) booted to its power-off by cpu440 (`sim record
# linux-boot`, the default kvm clock) and by QEMU TCG (the oracle's machine).
# Wall seconds are whole processes, best of REPS (lib.sh best):
#  - cpu440: `sim record linux-boot` from start to exit (load, boot to
#    machine_halt, trace and report);
#  - QEMU: qemu-oracle.sh's command line (its -append read from it) without
#    its logging (-d int, -D, -trace), from start until the console prints
#    "System Halted" (read through a FIFO, no polling); QEMU never exits by
#    itself, so it is then stopped. The oracle's full line, logging on, is
#    timed too.
# Exits/s and guest MIPS are sim's own "# host:" line (the boot loop alone),
# best of REPS. Skips (exit 0) without the image or qemu-system-ppc.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
REPS=${REPS:-5}
# the build directory (another one than build/ lets benchmarks run beside
# someone else's build) and the image (the linux-image target's output)
BUILD=${BUILD:-build}
LINUX_DIR=${LINUX_DIR:-$BUILD/linux}

for f in vmlinux sim440.dtb; do
  if [ ! -f "$LINUX_DIR/$f" ]; then
    echo "bench_linux: skipped, $LINUX_DIR/$f is absent (cmake --build $BUILD --target linux-image, or set LINUX_DIR)"
    exit 0
  fi
done
if ! command -v qemu-system-ppc >/dev/null 2>&1; then
  echo "bench_linux: skipped, qemu-system-ppc is absent (run workloads/linux/install-deps.sh)"
  exit 0
fi
LINUX_DIR=$(cd "$LINUX_DIR" && pwd)
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j2 --target sim >/dev/null
dir="$BUILD"/bench/linux
mkdir -p "$dir/fw"
dir=$(cd "$dir" && pwd)
cp "$LINUX_DIR/sim440.dtb" "$dir/fw/bamboo.dtb" # see qemu-oracle.sh on -L
# the kernel command line QEMU patches into the tree: the oracle's own
# (it matches the tree's bootargs, which cpu440's guest reads)
append=$(sed -n 's/.*-append "\([^"]*\)".*/\1/p' workloads/linux/qemu-oracle.sh)
[ -n "$append" ] || { echo "bench_linux: no -append line in workloads/linux/qemu-oracle.sh" >&2; exit 1; }

cpu440_boot() { "$BUILD"/sim record linux-boot --no-console --linux-dir "$LINUX_DIR" -o "$dir/linux-boot.bin"; }

# qemu_boot [LOGGING...]: one QEMU boot until "System Halted" on its console
# shellcheck disable=SC2120 # best passes the arguments
qemu_boot() {
  rm -f "$dir/console.fifo"
  mkfifo "$dir/console.fifo"
  grep -q "System Halted" <"$dir/console.fifo" &
  gpid=$!
  timeout 120 qemu-system-ppc -M bamboo -m 128 -nographic -nic none -no-reboot -monitor none \
    -L "$dir/fw" -icount shift=1,sleep=off \
    -kernel "$LINUX_DIR/vmlinux" -append "$append" \
    -serial stdio "$@" </dev/null >"$dir/console.fifo" 2>"$dir/qemu.err" &
  qpid=$!
  rc=0
  wait $gpid || rc=$?
  kill $qpid 2>/dev/null || true
  wait $qpid 2>/dev/null || true
  rm -f "$dir/console.fifo"
  return $rc
}
qemu_boot || { echo "bench_linux: QEMU did not reach \"System Halted\" ($dir/qemu.err)" >&2; exit 1; }

# best of REPS "# host:" lines: exits/s and MIPS of the run with most MIPS
be=0; bm=0; i=0
while [ $i -lt "$REPS" ]; do
  out=$(cpu440_boot)
  line=$(echo "$out" | grep '^# host:')
  r=$(echo "$line" | awk '{print $6}')
  m=$(echo "$line" | awk '{print $8}')
  if [ "$(awk "BEGIN{print ($m > $bm)}")" = 1 ]; then be=$r; bm=$m; fi
  i=$((i + 1))
done
exits=$(echo "$out" | awk '/^# sim record linux-boot:/ { for (i = 1; i < NF; i++) if ($(i + 1) ~ /^exits/) print $i }')
tc=$(best cpu440_boot)
tq=$(best qemu_boot)
tl=$(best qemu_boot -d int -D "$dir/int.log" -trace serial_read -trace serial_write -trace 'ppc_dcr_*')
awk -v tc="$tc" -v tq="$tq" -v tl="$tl" -v n="$exits" -v e="$be" -v m="$bm" 'BEGIN {
  printf "Linux 6.1 boot to power-off (workloads/linux), best of '"$REPS"':\n"
  printf "  cpu440 (sim record linux-boot)   %6.2f s wall   %d exits   %.0f exits/s   %.1f guest MIPS\n", tc, n, e, m
  printf "  QEMU TCG (oracle line, no log)   %6.2f s wall\n", tq
  printf "  QEMU TCG (oracle line, logging)  %6.2f s wall\n", tl
  printf "  cpu440 / QEMU                    %6.2fx\n", tc / tq
}'
