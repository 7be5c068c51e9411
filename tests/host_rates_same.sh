#!/bin/sh
# host_rates_same.sh SIM: `sim record` (cpu440) and `sim replay --platform
# systemc` take the host's rates from the same parameters (host_tick_hz,
# host_irq_hz, signal_hz): by default both print the parameter table's
# defaults, and a --set moves both, as their DEC exit counts show.
sim=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "$*"; exit 1; }
val() { "$sim" params show | awk -v n="$1" '$1 == n { print $2 }'; }
rates() { grep '^# host rates:' "$1"; }
dec() { awk '$1 == "DEC" { gsub(",", "", $2); print $2 } END { print 0 }' "$1" | head -n 1; }
run() { # run NAME SETS...: record, then the platform replay of its trace
  n=$1; shift
  "$sim" record boot --exits 40000 -o "$t/$n.bin" "$@" >"$t/$n.rec" ||
    fail "record $*: failed"
  "$sim" replay "$t/$n.bin" --platform systemc "$@" >"$t/$n.rep" ||
    fail "replay --platform systemc $*: failed"
  [ "$(rates "$t/$n.rec")" = "$(rates "$t/$n.rep")" ] ||
    fail "record and platform rates differ ($*): $(rates "$t/$n.rec") / $(rates "$t/$n.rep")"
}
run def
want="# host rates: $(val host_tick_hz) decrementer interrupts/s, $(val host_irq_hz) device interrupts/s, $(val signal_hz) signals/s"
case $(rates "$t/def.rec") in
  "$want"*) ;;
  *) fail "record's rates are not the parameter table's: $(rates "$t/def.rec") (want $want)" ;;
esac
run fast --set host_tick_hz=10000
rates "$t/fast.rec" | grep -q '^# host rates: 10000 decrementer' ||
  fail "record ignored --set host_tick_hz: $(rates "$t/fast.rec")"
# ten times the ticks: both make clearly more DEC exits
for s in rec rep; do
  a=$(dec "$t/def.$s"); b=$(dec "$t/fast.$s")
  [ "$b" -gt $((3 * a + 3)) ] || fail "$s: DEC $a -> $b with host_tick_hz=10000"
done
echo "same rates: $(rates "$t/def.rec")"
