#!/bin/sh
# The independent reference for issue 6: boots the guest image in Debian's
# qemu-system-ppc (bamboo machine, TCG), checks the console and counts the
# interrupts QEMU delivered to the guest, per kind, from its own `-d int` log.
#   qemu-oracle.sh [-b SRCDIR] OUTDIR
# OUTDIR holds the image (build-image.sh's output); with -b the image is first
# built (or brought up to date) from SRCDIR. Prints one line per interrupt
# kind: "<KIND> <total> user <n> kernel <n>" (kernel = taken at an effective
# address >= 0xC0000000), then "qemu-oracle: ok". Exits 77 (CTest's skip
# code) when QEMU or a package for the image is absent, 1 when the boot fails.
#
# Why these QEMU options:
#  -L DIR      QEMU 7.2's bamboo loader ignores -dtb: it reads "bamboo.dtb"
#              from its firmware path, so our tree goes first on that path.
#              It then patches /memory (-m), /chosen bootargs (-append) and
#              the cpu clocks (400 MHz, the same as sim440.dts).
#  -kernel     vmlinux is loaded at physical 0 and entered there with r3 = the
#              tree and one 256 MB TLB entry: the entry convention KVM guests
#              on 440 had, and the one cpu440 will use. The initramfs is built
#              into vmlinux, so no -initrd (one file for both loaders).
#  -icount shift=1,sleep=off  a virtual clock of 2 ns per instruction that
#              skips idle time: the decrementer and UART interrupt counts are
#              then the same on every run and on every machine.
#  -nic none   the machine's default NIC wants a ROM we do not need.
#  -d int, -trace serial_*/ppc_dcr_*  QEMU's own log of every interrupt it
#              delivered and of every UART register and DCR access, in -D.
set -eu
SRCDIR=""
if [ "${1:-}" = "-b" ]; then SRCDIR=$2; shift 2; fi
[ $# -eq 1 ] || { echo "usage: $0 [-b SRCDIR] OUTDIR" >&2; exit 2; }
OUT=$1
TIMEOUT=${QEMU_ORACLE_TIMEOUT:-120}

. "$(dirname "$0")/common.sh"
need_qemu qemu-oracle
build_image "$SRCDIR" "$OUT"
OUT=$(cd "$OUT" && pwd)
for f in vmlinux sim440.dtb; do
  [ -f "$OUT/$f" ] || { echo "qemu-oracle: $OUT/$f is missing: build the linux-image target" >&2; exit 1; }
done

R=$OUT/qemu
mkdir -p "$R/fw"
cp "$OUT/sim440.dtb" "$R/fw/bamboo.dtb"
rm -f "$R/console.txt" "$R/int.log"
: > "$R/console.txt"
qemu-system-ppc -M bamboo -m 128 -nographic -nic none -no-reboot -monitor none \
  -L "$R/fw" -icount shift=1,sleep=off \
  -kernel "$OUT/vmlinux" -append "console=ttyS0,115200 norandmaps" \
  -serial "file:$R/console.txt" -d int -D "$R/int.log" \
  -trace serial_read -trace serial_write -trace 'ppc_dcr_*' </dev/null >"$R/qemu.out" 2>&1 &
qpid=$!
# poweroff ends in machine_halt's "System Halted" and a spin with EE off: QEMU
# never exits by itself, so stop it once the console says so (or at TIMEOUT).
ticks=0
while ! grep -q "System Halted" "$R/console.txt" 2>/dev/null; do
  kill -0 $qpid 2>/dev/null || break
  ticks=$((ticks + 1))
  [ $ticks -le $((TIMEOUT * 5)) ] || { echo "qemu-oracle: no power-off within ${TIMEOUT}s" >&2; break; }
  sleep 0.2
done
kill $qpid 2>/dev/null || true
wait $qpid 2>/dev/null || true

# One line per kind: IVOR0-15's kinds always (0 when absent), then any other.
awk '
  BEGIN { n = split("CRITICAL MCHECK DSI ISI EXTERNAL ALIGN PROGRAM FPU SYSCALL APU DECR FIT WDT DTLB ITLB DEBUG", k, " ")
          for (i = 1; i <= n; i++) { order[i] = k[i]; seen[k[i]] = 1 } }
  /^Raise exception at / {
    kind = $6; addr = $4; sub(/^0+/, "", addr)
    if (!(kind in seen)) { order[++n] = kind; seen[kind] = 1 }
    tot[kind]++
    if (length(addr) == 8 && addr >= "c0000000") kern[kind]++; else user[kind]++
  }
  END { for (i = 1; i <= n; i++) { x = order[i]
          printf "%-9s %6d user %6d kernel %6d\n", x, tot[x], user[x], kern[x]; all += tot[x] }
        printf "%-9s %6d\n", "TOTAL", all }' "$R/int.log"
# Device accesses (QEMU trace lines "serial_read addr 0x05 ..." and
# "ppc_dcr_read DRCN[0xc6] -> ..."): the MMIO and DCR exits of a KVM guest.
awk '
  $1 == "serial_read" { ur++ } $1 == "serial_write" { uw++ }
  $1 == "ppc_dcr_read" { dr++ } $1 == "ppc_dcr_write" { dw++ }
  END { printf "UART-MMIO read %6d write %6d\n", ur, uw
        printf "DCR       read %6d write %6d\n", dr, dw }' "$R/int.log"

fail=0
check() { # check "what" PATTERN: the console must match the fixed string
  if grep -qF -- "$2" "$R/console.txt"; then :; else
    echo "qemu-oracle: console lacks $1 (\"$2\")" >&2; fail=1; fi
}
check "the init banner" "sim440 init: hello"
check "the listing of /" "sim440 init: ls / done"
check "init in the listing" "  init"
check "the power-off request" "sim440 init: power off"
check "the kernel's halt" "System Halted"
if [ $fail -ne 0 ]; then
  echo "qemu-oracle: console ($R/console.txt), last lines:" >&2
  tail -20 "$R/console.txt" >&2
  exit 1
fi
echo "qemu-oracle: ok (console $R/console.txt, interrupt log $R/int.log)"
