#!/bin/sh
# Builds sim440 (release) and runs the main job on the bundled default:
# a synthetic 1M-exit trace drawn from the seed's no-PV profile, replayed
# through the exit-timing accounting, then compared with that table.
set -eu
cd "$(dirname "$0")/.."
./tools/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"

sim=build/sim
out=build/default
mkdir -p "$out"
hw=validation/hw/ppc440-ubuntu-boot-nopv.txt

echo "== 1. synthetic trace from the seed no-PV profile (1M exits, seed 1)"
$sim trace synth --exits 1M --seed 1 -o "$out/default.bin"
$sim trace info "$out/default.bin"
echo
echo "== 2. replay through the kernel's exit-timing accounting"
$sim replay "$out/default.bin" --fold-emul --title "synthetic, seed no-PV profile" \
  | tee "$out/default-table.txt"
echo
echo "== 3. exit mix against the hardware table it was drawn from"
echo "   (a self-check of synth + replay, not a validation: the profile came"
echo "    from this very table)"
$sim table diff "$hw" "$out/default-table.txt" --proportions --fold-emul
