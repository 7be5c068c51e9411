#!/bin/sh
# Builds sim440 (release) and runs the main job on the bundled defaults:
#  1. a synthetic 1M-exit trace drawn from the seed's no-PV profile, replayed
#     through the exit-timing accounting and compared with that table;
#  2. the default guest (boot, log in, ls, halt) recorded on the cpu440 core,
#     without and with the paravirtual magic page, each replayed, and their
#     exit mix set beside the seed's hardware tables;
#  3. a prediction before building: sim whatif pv on the recorded boot;
#  4. sim validate: calibrate on the no-PV hardware table, predict the PV
#     table, compare (and the other cases), pictures in build/validation;
#  5. with SIM_LINUX=1, the unmodified Linux 6.1 guest, plain and PV.
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
echo
echo "== 3. predict before building: what the PV magic page would do to the recorded"
echo "   boot (sim whatif, the cycle model's default parameters), beside the delta"
$sim whatif "$out/boot.bin" --transform pv --fold-emul -o "$out/boot-whatif-pv.txt"
cat "$out/boot-whatif-pv.txt"
echo
echo "== 4. validate predictions against measurements (sim validate, docs/validation.md):"
echo "   ppc440-pv calibrates on the no-PV hardware table (a 10M-exit trace made"
echo "   like it), predicts the PV table and only then reads the measured one;"
echo "   cpu440-pv predicts the recorded PV boot from the plain one, cpu440-tlbslots"
echo "   the boot recorded with a 96-entry UTLB, cpu440-inkernel-mmio and"
echo "   cpu440-noiccci the boot recorded under those kernel policies; the two"
echo "   cpu440-synth-pv cases run ppc440-pv's pipeline with cpu440 as the board"
echo "   (its recorded no-PV table in, its recorded PV run the truth); arm64-mair"
echo "   asks whether a trap-count change is measurable; linux-pv needs SIM_LINUX=1."
echo "   (a few minutes: most of it is the calibration)"
if [ "${SIM_LINUX:-0}" = 1 ]; then
  # the linux-pv case boots the image: build it first (once; docs/linux-guest.md)
  sh workloads/linux/install-deps.sh
  cmake --build build --target linux-image
fi
vrc=0
$sim validate --plot build/validation || vrc=$?
echo
echo "   pictures: build/validation/CASE.png and .svg (time share predicted vs"
echo "   measured, per-row error); numbers and assumptions: validation/README.md"
case $vrc in
  0) echo "   every case is within its budget" ;;
  1) echo "   sim validate exit 1: a case is outside its budget (its verdict line" \
          "says by how much; validation/README.md discusses why)" ;;
  *) echo "   sim validate failed (exit $vrc)"; exit "$vrc" ;;
esac
echo
if [ "${SIM_LINUX:-0}" != 1 ]; then
  echo "== 5. (skipped) the unmodified Linux 6.1 guest: run with SIM_LINUX=1"
  echo "   (installs the kernel source and cross tools, builds the kernel once:"
  echo "    about 4 CPU-minutes and 1.5 GB under build/linux)"
  exit 0
fi
echo "== 5. the unmodified Linux 6.1 44x guest (workloads/linux, docs/linux-guest.md)"
for pv in "" --pv; do
  n=linux-boot${pv:+-pv}
  echo
  echo "== 5${pv:+b}. sim record linux-boot $pv"
  if [ -n "$pv" ]; then
    # its console is ~1,250 "KVM: No more space" lines (validation/README.md)
    echo "   (console off: $out/$n-console.txt)"
    $sim record linux-boot $pv -o "$out/$n.bin" 2>"$out/$n-console.txt"
  else
    $sim record linux-boot -o "$out/$n.bin"
  fi
  $sim replay "$out/$n.bin" --fold-emul -o "$out/$n-table.txt" >/dev/null
done
echo
echo "== 5c. the Linux boot's exit mix beside the seed's no-PV hardware table"
echo "   (proportions: a 6.1 kernel booting to a one-program init, ~55x fewer"
echo "    exits than the seed's Ubuntu boot, on flat default ticks; its ISI"
echo "    storm is KVM/440's shadow rule meeting the guest's KUEP)"
$sim table diff "$hw/ppc440-ubuntu-boot-nopv.txt" "$out/linux-boot-table.txt" --proportions --fold-emul
echo
echo "== 5d. what PV saves: emulated instructions (EMULINST, all EMUL_* folded)"
echo "   (KVM/440's shadow rule gives this KUEP guest an ISI storm, whose handler"
echo "    PV also patches; --shadow-perms union is the what-if without it:"
echo "    validation/README.md)"
for pv in "" --pv; do
  n=linux-boot${pv:+-pv}-union
  $sim record linux-boot $pv --shadow-perms union --no-console -o "$out/$n.bin" >/dev/null
  $sim replay "$out/$n.bin" --fold-emul -o "$out/$n-table.txt" >/dev/null
done
emul() { awk '$1 == "EMULINST" { gsub(",", "", $2); print $2; exit }' "$1"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", 100 * (b - a) / a }'; }
line() { # label plain-table pv-table
  a=$(emul "$2"); b=$(emul "$3")
  printf "   %-34s %9d -> %9d (%s)\n" "$1" "$a" "$b" "$(pct "$a" "$b")"
}
line "linux-boot, KVM/440's shadow rule" "$out/linux-boot-table.txt" "$out/linux-boot-pv-table.txt"
line "linux-boot, --shadow-perms union" "$out/linux-boot-union-table.txt" "$out/linux-boot-pv-union-table.txt"
line "seed, PPC440 hardware (Ubuntu)" "$hw/ppc440-ubuntu-boot-nopv.txt" "$hw/ppc440-ubuntu-boot-pv.txt"
