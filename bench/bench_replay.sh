#!/bin/sh
# Replay speed: `sim replay` on a 10M-exit synthetic trace against a plain
# sequential read of the same file (cat, and bench/rawread.c) in the same
# run, warm page cache. Prints exits/s, the ratio to the raw read and the
# peak RSS. Targets (issue 2): >= 100 M exits/s, within 2x of the raw read,
# peak RSS < 64 MiB whatever the trace size.
set -eu
cd "$(dirname "$0")/.."
EXITS=${EXITS:-10M}
REPS=${REPS:-5}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 >/dev/null
cc -O2 -o build/rawread bench/rawread.c
dir=build/bench
mkdir -p "$dir"
trace=$dir/replay-$EXITS.bin
[ -f "$trace" ] || build/sim trace synth --exits "$EXITS" --seed 1 -o "$trace" 2>/dev/null
n=$(build/sim trace info "$trace" | awk '/^exits/ {print $2; exit}' | tr -d ,)
bytes=$(stat -c %s "$trace")

. bench/lib.sh
cat "$trace" >/dev/null # warm the page cache
t_cat=$(best cat "$trace")
t_raw=$(best build/rawread "$trace")
t_rep=$(best build/sim replay "$trace" --accounting 3.1)
rss=$(/usr/bin/time -f %M build/sim replay "$trace" 2>&1 >/dev/null | tail -1)

awk -v n="$n" -v b="$bytes" -v c="$t_cat" -v r="$t_raw" -v p="$t_rep" 'BEGIN {
  printf "trace: %d exits, %d bytes (best of '"$REPS"' runs each, warm cache)\n", n, b
  printf "cat >/dev/null   %8.3f s  %8.1f M exits/s\n", c, n / c / 1e6
  printf "rawread          %8.3f s  %8.1f M exits/s\n", r, n / r / 1e6
  printf "sim replay       %8.3f s  %8.1f M exits/s (target >= 100)\n", p, n / p / 1e6
  printf "ratio replay/rawread %.2f (target <= 2), replay/cat %.2f\n", p / r, p / c
}'
echo "peak RSS of sim replay: $((rss / 1024)) MiB (target < 64 MiB)"
