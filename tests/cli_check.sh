#!/bin/sh
# cli_check.sh RC EXPECT SIM ARGS... : runs SIM ARGS, checks the exit code is
# RC and that stdout equals $SIM_GOLDEN/EXPECT, or, when EXPECT starts with
# "~", that stdout+stderr match the extended regex after it. "-" checks only
# the exit code. Paths in ARGS starting with @ are relative to tests/data.
rc_want=$1; expect=$2; sim=$3; shift 3
for a in "$@"; do
  case $a in
    @*) set -- "$@" "$SIM_TEST_DATA/${a#@}" ;;
    *) set -- "$@" "$a" ;;
  esac
  shift
done
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$sim" "$@" >"$out" 2>"$err"
rc=$?
if [ "$rc" != "$rc_want" ]; then
  echo "exit code $rc, expected $rc_want: sim $*"; cat "$err"; exit 1
fi
case $expect in
  -) ;;
  ~*)
    if ! cat "$out" "$err" | grep -Eq -- "${expect#\~}"; then
      echo "output does not match /${expect#\~}/:"; cat "$out" "$err"; exit 1
    fi ;;
  *)
    if ! diff -u "$SIM_GOLDEN/$expect" "$out"; then
      echo "stdout differs from tests/golden/$expect"; exit 1
    fi ;;
esac
exit 0
