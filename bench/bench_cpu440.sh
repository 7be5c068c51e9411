#!/bin/sh
# cpu440 speed, in one run on this machine:
#  - the default scenario (`sim record boot`): exits/s and guest MIPS;
#  - the same guest user code (the background job's work, user.c compute())
#    inside cpu440 (`sim record compute`: MMU, hooks, timers, few exits)
#    and on plain Unicorn with no hooks (bench/cpu440_plain.c);
#  - one shadow-TLB miss done by cpu440's stub against map+unmap of a region.
# Targets (issue 3): >= 200 k exits/s on the default scenario, >= 25% of the
# hook-free instruction rate.
set -eu
cd "$(dirname "$0")/.."
REPS=${REPS:-5}
# the build directory (another one than build/ lets benchmarks run beside
# someone else's build)
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
cc -O2 -I cpu440 -I model -I tests -o "$BUILD"/cpu440_plain bench/cpu440_plain.c \
   "$BUILD"/libsimcpu440.a "$BUILD"/libsimmodel.a $(pkg-config --libs unicorn) -lm
dir="$BUILD"/bench
mkdir -p "$dir"

# best of REPS "# host:" lines of `sim record W`: exits/s and MIPS
best() {
  be=0; bm=0; i=0
  while [ $i -lt "$REPS" ]; do
    line=$("$BUILD"/sim record "$1" -o "$dir/$1.bin" | grep '^# host:')
    r=$(echo "$line" | awk '{print $6}')
    m=$(echo "$line" | awk '{print $8}')
    if [ "$(awk "BEGIN{print ($m > $bm)}")" = 1 ]; then be=$r; bm=$m; fi
    i=$((i + 1))
  done
  echo "$be $bm"
}
boot=$(best boot)
comp=$(best compute)
exits=$("$BUILD"/sim trace info "$dir/boot.bin" | awk '/^exits/ {print $2; exit}' | tr -d ,)
"$BUILD"/cpu440_plain "$BUILD"/workloads/user.bin >"$dir/plain.txt"
echo "$boot" "$comp" | cat - "$dir/plain.txt" | awk -v n="$exits" '
  NR == 1 { e = $1; m = $2; cm = $4 }
  /^plain/ { pi = $2; pt = $3 }
  /^stub_us/ { su = $2 }
  /^remap_us/ { ru = $2 }
  END {
    pm = pi / pt / 1e6
    printf "default scenario (boot, %d exits), best of '"$REPS"':\n", n
    printf "  exits/s              %10.0f   (target >= 200000) %s\n", e, (e >= 200000 ? "ok" : "BELOW")
    printf "  guest MIPS           %10.1f   (%.1f%% of the hook-free rate below)\n", m, 100 * m / pm
    printf "the job'"'"'s user code (%d instructions):\n", pi
    printf "  plain Unicorn, no hooks     %6.1f MIPS\n", pm
    printf "  inside cpu440 (compute)     %6.1f MIPS = %.1f%% (target >= 25%%) %s\n", cm, 100 * cm / pm, (cm / pm >= 0.25 ? "ok" : "BELOW")
    printf "one shadow-TLB miss (fill + retry), every access a miss:\n"
    printf "  cpu440 stub          %8.2f us\n", su
    printf "  map+unmap region     %8.2f us   (%.0fx the stub)\n", ru, ru / su
  }'
