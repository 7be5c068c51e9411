#!/bin/sh
# validate_interrupt.sh SIM SRCDIR: `sim validate` stopped by SIGTERM in the
# middle of a case (a batch scheduler's time limit) exits 143 and leaves no
# scratch directory behind (a 10M-exit case's is 300 MB; interrupted runs
# left them in /tmp).
sim=$1; src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/t"
TMPDIR=$tmp/t "$sim" validate slowcal --cases "$src/tests/data/cases" \
  >"$tmp/out" 2>&1 &
pid=$!
i=0
while [ $i -lt 200 ] && [ -z "$(ls "$tmp/t")" ]; do sleep 0.05; i=$((i + 1)); done
[ -n "$(ls "$tmp/t")" ] || { echo "no scratch directory appeared"; cat "$tmp/out"; exit 1; }
sleep 1
kill -TERM $pid
wait $pid
rc=$?
if [ "$rc" != 143 ]; then echo "exit code $rc, expected 143"; cat "$tmp/out"; exit 1; fi
if [ -n "$(ls "$tmp/t")" ]; then echo "left behind:"; ls -lR "$tmp/t"; exit 1; fi
grep -q "interrupted (signal 15)" "$tmp/out" || { echo "no message"; cat "$tmp/out"; exit 1; }
exit 0
