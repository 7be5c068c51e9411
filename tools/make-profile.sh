#!/bin/sh
# make-profile.sh [SIM [DIR]]: regenerates the built-in exit profiles of
# `sim trace synth --like` (DIR, default workloads/profiles) from cpu440
# recordings made by SIM (default build/sim). Each profile is what `sim trace
# profile` measures on a plain `sim record` trace; the test
# cli_profile_boot_is_committed checks that the committed file is exactly
# this script's output (docs/calibration.md).
set -eu
sim=${1:-build/sim}
dir=${2:-workloads/profiles}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$sim" record boot -o "$tmp/boot.bin" >/dev/null
"$sim" trace profile "$tmp/boot.bin" --name boot \
  --source "sim record boot: the guest kernel of workloads/guest booting on cpu440 (login as root, ls twice, a background job, halt)" \
  --assumes "the table's guest runs the emulated-instruction mix, TLB pages and run lengths of a small BookE kernel's boot (default)" \
  -o "$dir/boot.prof"
