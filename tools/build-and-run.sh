#!/bin/sh
# Builds sim440 (release) and runs the main job on the bundled defaults:
#  1. a synthetic 1M-exit trace drawn from the seed's no-PV profile, replayed
#     through the exit-timing accounting and compared with that table;
#  2. the default guest (boot, log in, ls, halt) recorded on the cpu440 core,
#     without and with the paravirtual magic page, each replayed, and their
#     exit mix set beside the seed's hardware tables.
set -eu
cd "$(dirname "$0")/.."
./tools/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"

sim=build/sim
out=build/default
mkdir -p "$out"
hw=validation/hw

echo "== 1. synthetic trace from the seed no-PV profile (1M exits, seed 1)"
$sim trace synth --exits 1M --seed 1 -o "$out/synth.bin"
$sim trace info "$out/synth.bin"
echo
echo "== 1b. replay through the kernel's exit-timing accounting"
$sim replay "$out/synth.bin" --fold-emul --title "synthetic, seed no-PV profile" \
  -o "$out/synth-table.txt"
cat "$out/synth-table.txt"
echo
echo "== 1c. exit mix against the hardware table it was drawn from"
echo "   (a self-check of synth + replay, not a validation: the profile came"
echo "    from this very table)"
$sim table diff "$hw/ppc440-ubuntu-boot-nopv.txt" "$out/synth-table.txt" --proportions --fold-emul
echo
echo "== 2. record the default guest on cpu440 (boot, log in, ls, halt), no PV"
$sim record boot -o "$out/boot.bin" --fold-emul
echo
echo "== 2b. replay the recording: the same table from the trace alone"
$sim replay "$out/boot.bin" --fold-emul -o "$out/boot-table.txt"
cat "$out/boot-table.txt"
echo
echo "== 2c. the same guest with the paravirtual magic page"
$sim record boot --pv -o "$out/boot-pv.bin" --fold-emul
$sim replay "$out/boot-pv.bin" --fold-emul -o "$out/boot-pv-table.txt" >/dev/null
echo
echo "== 2d. exit mix of the recorded boot beside the seed's no-PV hardware table"
echo "   (proportions: the guest is a small stand-in for Ubuntu, and ticks are"
echo "    the recorder's flat defaults, so only the mix is comparable)"
$sim table diff "$hw/ppc440-ubuntu-boot-nopv.txt" "$out/boot-table.txt" --proportions --fold-emul
echo
echo "== 2e. PV against no-PV on cpu440"
$sim table diff "$out/boot-table.txt" "$out/boot-pv-table.txt" --fold-emul
