#!/bin/sh
# whatif_interrupt.sh SIM SRCDIR: `sim whatif --platform systemc` stopped
# by SIGTERM once its scratch trace (the transformed stream the platform
# replays) is written, while the platform replays it, exits 143 and leaves
# nothing in $TMPDIR (a Ctrl-C then left 171 MB of a 10M-exit trace's in
# /tmp).
sim=$1; src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/t"
"$sim" trace synth --like "$src/validation/hw/ppc440-ubuntu-boot-nopv.txt" \
  --exits 1M -o "$tmp/w.bin" 2>/dev/null || { echo "synth failed"; exit 1; }
TMPDIR=$tmp/t "$sim" whatif "$tmp/w.bin" --transform pv --platform systemc \
  >"$tmp/out" 2>&1 &
pid=$!
# the written trace: a file of its own name (not a writer's .tmp.) with
# its bytes
done_trace() { find "$tmp/t" -type f -size +0 ! -name '*.tmp.*' | grep -q .; }
i=0
while [ $i -lt 2500 ] && ! done_trace && kill -0 $pid 2>/dev/null; do
  sleep 0.02; i=$((i + 1))
done
done_trace || { echo "no scratch trace appeared"; cat "$tmp/out"; exit 1; }
kill -TERM $pid
wait $pid
rc=$?
if [ "$rc" != 143 ]; then echo "exit code $rc, expected 143"; cat "$tmp/out"; exit 1; fi
if [ -n "$(ls "$tmp/t")" ]; then echo "left behind:"; ls -l "$tmp/t"; exit 1; fi
exit 0
