#!/bin/sh
# make-profile.sh [--linux-dir D] [--only NAME] [SIM [DIR]]: regenerates the
# built-in exit profiles of `sim trace synth --like` (DIR, default
# workloads/profiles) from cpu440 recordings made by SIM (default build/sim).
# Each profile is what `sim trace profile` measures on a plain `sim record`
# trace (flat costs, so guest ticks are guest instructions); the tests
# cli_profile_boot_is_committed and cli_profile_linux_boot_is_committed
# check that the committed files are exactly this script's output
# (docs/calibration.md).
#   boot        always: the guest kernel of workloads/guest
#   linux-boot  when the Linux 6.1 image is there (D, default the linux/
#               beside SIM, made by `cmake --build build --target
#               linux-image`, docs/linux-guest.md); otherwise skipped, said
#               on stderr
# --only NAME makes just that one (boot or linux-boot); --only linux-boot
# without the image is an error (exit 2).
# Each profile also holds the guest's wall-time-driven exits (`--wall`,
# docs/calibration.md): three `sim record --model` runs of the same
# workload with the host's noise off (host_tick_hz, host_irq_hz, signal_hz,
# stall_hz = 0: only the guest's own timing moves) at dispatch_insns = the
# default 250, 1375 and 2500 - every exit costs up to 2,250 instructions
# more, which stretches the run by up to 7% (boot) and 38% (linux-boot):
# changes of the size a transform makes, near the base, where the slope
# holds (at 10,000 linux-boot's rate is a third of it: docs/calibration.md).
set -eu
ldir=
only=
while [ $# -gt 0 ]; do
  case $1 in
    --linux-dir) [ $# -ge 2 ] || { echo "make-profile.sh: --linux-dir needs a directory" >&2; exit 2; }
                 ldir=$2; shift 2 ;;
    --only) [ $# -ge 2 ] || { echo "make-profile.sh: --only needs boot or linux-boot" >&2; exit 2; }
            only=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "make-profile.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
case $only in
  ''|boot|linux-boot) ;;
  *) echo "make-profile.sh: --only $only: not boot or linux-boot" >&2; exit 2 ;;
esac
sim=${1:-build/sim}
dir=${2:-workloads/profiles}
ldir=${ldir:-$(dirname "$sim")/linux}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
quiet="--set host_tick_hz=0 --set host_irq_hz=0 --set signal_hz=0 --set stall_hz=0"
dispatch="250 1375 2500"

# wall W ARGS...: the --model runs of sim record ARGS, as --wall options in $wall
wall() {
  w=$1
  shift
  wall=
  for d in $dispatch; do
    # shellcheck disable=SC2086
    "$sim" record "$@" --model $quiet --set dispatch_insns=$d \
      -o "$tmp/$w-$d.bin" >/dev/null
    wall="$wall --wall $tmp/$w-$d.bin"
  done
}

if [ "$only" != linux-boot ]; then
  "$sim" record boot -o "$tmp/boot.bin" >/dev/null
  wall boot boot
  # shellcheck disable=SC2086
  "$sim" trace profile "$tmp/boot.bin" --name boot $wall \
    --source "sim record boot: the guest kernel of workloads/guest booting on cpu440 (login as root, ls twice, a background job, halt)" \
    --assumes "the table's guest runs the emulated-instruction mix, TLB pages and run lengths of a small BookE kernel's boot (default)" \
    -o "$dir/boot.prof"
fi

if [ "$only" != boot ]; then
  if [ ! -f "$ldir/vmlinux" ] || [ ! -f "$ldir/sim440.dtb" ]; then
    echo "make-profile.sh: linux-boot skipped: no Linux image (vmlinux, sim440.dtb) in $ldir (cmake --build build --target linux-image, docs/linux-guest.md; or --linux-dir D)" >&2
    [ "$only" = linux-boot ] && exit 2
    exit 0
  fi
  # --shadow-perms union: 6.1 has KUEP (user pages UX but not SX), which
  # under KVM/440's shadow rule makes an ISI storm in guest user mode
  # (validation/README.md) that the no-KUEP guests of the tables' era never
  # had; its guest ISI handler would dominate the emulated-instruction mix.
  "$sim" record linux-boot --linux-dir "$ldir" --no-console \
    --shadow-perms union -o "$tmp/linux-boot.bin" >/dev/null
  wall linux-boot linux-boot --linux-dir "$ldir" --no-console --shadow-perms union
  # shellcheck disable=SC2086
  "$sim" trace profile "$tmp/linux-boot.bin" --name linux-boot $wall \
    --source "sim record linux-boot --shadow-perms union: Linux 6.1 of workloads/linux booting on cpu440 to its init; union: 6.1's KUEP makes an ISI storm under KVM/440's rule that pre-KUEP guests never took" \
    --assumes "the table's guest runs the emulated-instruction mix, TLB pages and run lengths of a Linux 6.1 boot without the KUEP storm, nearly all in kernel mode (its init only lists /)" \
    -o "$dir/linux-boot.prof"
fi
