#!/bin/sh
# progress_tty.sh SIM SRCDIR : `sim trace dump`, `sim trace pack`, `sim import
# ftrace` and `sim sweep` draw a progress line on stderr when it is a terminal (a pty here)
# and the run takes more than a quarter of a second; none when it is not.
# `sim validate` names each step it runs (a 10M-exit case's calibration
# takes minutes: without a line it looked hung).
# SIM_PROGRESS_SECONDS=0 redraws at every update: a Release build dumps the
# 300k records in well under a quarter second.
set -u
export SIM_PROGRESS_SECONDS=0
sim=$1
src=$2
dir=progress_tty
rm -rf "$dir" && mkdir "$dir" && cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$sim" trace synth --exits 300k -o p.bin 2>/dev/null || fail "synth"
# runs SIM ARGS with stderr on a pty; prints what the terminal got
on_tty() {
  python3 - "$@" <<'PY'
import os, pty, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=s)
os.close(s)
got = b""
while True:
    try:
        d = os.read(m, 65536)
    except OSError:
        break
    if not d:
        break
    got += d
sys.stdout.write(got.decode(errors="replace"))
sys.exit(p.wait())
PY
}
out=$(on_tty "$sim" trace dump p.bin -o p.txt) || fail "dump: $out"
echo "$out" | grep -q "dump: [0-9]* records" || fail "no progress line from dump: $out"
out=$(on_tty "$sim" trace pack p.txt -o p2.bin) || fail "pack: $out"
echo "$out" | grep -q "pack: [0-9]* lines" || fail "no progress line from pack: $out"
cmp -s p.bin p2.bin || fail "pack did not give the same bytes"
"$sim" trace dump --ftrace p.bin -o p.ft 2>/dev/null || fail "dump --ftrace"
out=$(on_tty "$sim" import ftrace p.ft -o p3.bin) || fail "import: $out"
echo "$out" | grep -q "import: [0-9]* lines" || fail "no progress line from import: $out"
# a slow unit (a sweep's replays) gets its rate per second, not "0.0 M/s"
out=$(on_tty "$sim" sweep p.bin --param decode_insns=0:15:1 --method replay --threads 1 -o sw.csv) || fail "sweep: $out"
echo "$out" | grep -q "sweep: [0-9]* / 16 replays" || fail "no progress line from sweep: $out"
echo "$out" | grep -q "0\.0 M/s" && fail "sweep's progress says 0.0 M/s: $out"
echo "$out" | grep -q "replays (.*), [0-9.]*/s" || fail "sweep's progress has no rate: $out"
out=$(on_tty "$sim" validate scaled --cases "$src/tests/data/cases") || fail "validate: $out"
echo "$out" | grep -q "sim validate: scaled: sim trace synth --like \.\.\." || fail "no step line from validate: $out"
# not a terminal: no progress line
"$sim" trace dump p.bin -o p.txt 2>err.txt || fail "dump"
! grep -q "records," err.txt || fail "a progress line went to a non-terminal"
cd .. && rm -rf "$dir"
echo ok
