#!/bin/sh
# validate_sigpipe.sh SIM CASES: `sim validate A B | head -c 10` - the
# reader gone after A's output, B's comparison (over 4 kB, flushed in the
# middle of the case) met SIGPIPE, which killed sim with B's scratch
# directory left in TMPDIR. Now: exit 141, nothing left.
sim=$1 cases=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/t"
( TMPDIR=$tmp/t "$sim" validate relfile scaledpv --cases "$cases" 2>"$tmp/err"
  echo $? > "$tmp/rc" ) | head -c 10 > /dev/null
rc=$(cat "$tmp/rc")
if [ "$rc" != 141 ]; then echo "exit code $rc, expected 141"; cat "$tmp/err"; exit 1; fi
if [ -n "$(ls "$tmp/t")" ]; then echo "left behind:"; ls -lR "$tmp/t"; exit 1; fi
exit 0
