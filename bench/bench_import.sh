#!/bin/sh
# Import speed: `sim import ftrace` on a large ftrace text against `wc -l` of
# the same file in the same run, warm page cache. The text is the
# `sim trace dump --ftrace` export of a synthetic trace (EXITS exits; it has
# no TLB state events, so its TLB misses are counted ambiguous: that costs
# the importer nothing) or, with SOURCE=record, of a cpu440 recording of the
# boot workload (guest and shadow TLB events included). Prints lines/s, the
# ratio to wc -l and the peak RSS. Target (issue 5): >= 2 million lines/s.
set -eu
cd "$(dirname "$0")/.."
EXITS=${EXITS:-2M}
REPS=${REPS:-5}
SOURCE=${SOURCE:-synth}
B=${BUILD_DIR:-build}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$B" -j2 >/dev/null
dir=$B/bench
mkdir -p "$dir"
if [ "$SOURCE" = record ]; then
  trace=$dir/import-record.bin
  [ -f "$trace" ] || "$B/sim" record boot -o "$trace" >/dev/null 2>&1
else
  trace=$dir/import-$EXITS.bin
  [ -f "$trace" ] || "$B/sim" trace synth --exits "$EXITS" --seed 1 -o "$trace" 2>/dev/null
fi
text=$dir/import-$SOURCE-$EXITS.txt
[ -f "$text" ] || "$B/sim" trace dump --ftrace "$trace" -o "$text" 2>/dev/null
out=$dir/import-out.bin
lines=$(wc -l <"$text")
bytes=$(stat -c %s "$text")

. bench/lib.sh
cat "$text" >/dev/null # warm the page cache
t_wc=$(best wc -l "$text")
t_imp=$(best "$B/sim" import ftrace "$text" -o "$out")
rss=$(/usr/bin/time -f %M "$B/sim" import ftrace "$text" -o "$out" 2>&1 >/dev/null | tail -1)
exits=$("$B/sim" trace info "$out" | awk '/^exits:/ {print $2}')

awk -v n="$lines" -v b="$bytes" -v w="$t_wc" -v p="$t_imp" -v x="$exits" 'BEGIN {
  printf "text: %d lines, %d bytes, %d exits (source '"$SOURCE"'; best of '"$REPS"' runs, warm cache)\n", n, b, x
  printf "wc -l              %8.3f s  %8.2f M lines/s  %7.1f MB/s\n", w, n / w / 1e6, b / w / 1e6
  printf "sim import ftrace  %8.3f s  %8.2f M lines/s  %7.1f MB/s (target >= 2 M lines/s)\n", p, n / p / 1e6, b / p / 1e6
  printf "ratio import/wc -l %.1f\n", p / w
}'
echo "peak RSS of sim import ftrace: $((rss / 1024)) MiB"
