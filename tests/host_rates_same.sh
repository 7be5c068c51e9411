#!/bin/sh
# host_rates_same.sh SIM: `sim record` (cpu440) and `sim replay --platform
# systemc` take the host's rates from the same parameters (host_tick_hz,
# host_irq_hz, signal_hz): by default both print the parameter table's
# defaults, and a --set moves both, as their DEC exit counts show. And
# `sim record` takes the host's own UTLB pages from the cycle model's
# parameters (common_host_pages, path_host_pages, qemu_host_pages,
# hostirq_host_pages; docs/cpu440.md): it prints the table's defaults, and
# --set moves the recording (more host pages evict more guest shadow
# entries: more VIRT misses), with or without --model.
sim=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "$*"; exit 1; }
val() { "$sim" params show | awk -v n="$1" '$1 == n { print $2 }'; }
rates() { grep '^# host rates:' "$1"; }
pages() { grep '^# host pages:' "$1"; }
virt() { awk '$1 == "ITLBVIRT" || $1 == "DTLBVIRT" { gsub(",", "", $2); n += $2 } END { print n + 0 }' "$1"; }
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
starts() { # starts WHAT LINE WANT: LINE begins with WANT
  case $2 in
    "$3"*) ;;
    *) fail "record's $1 are not the parameter table's: $2 (want $3)" ;;
  esac
}
run def
starts rates "$(rates "$t/def.rec")" "# host rates: $(val host_tick_hz) decrementer interrupts/s, $(val host_irq_hz) device interrupts/s, $(val signal_hz) signals/s"
run fast --set host_tick_hz=10000
rates "$t/fast.rec" | grep -q '^# host rates: 10000 decrementer' ||
  fail "record ignored --set host_tick_hz: $(rates "$t/fast.rec")"
# ten times the ticks: both make clearly more DEC exits
for s in rec rep; do
  a=$(dec "$t/def.$s"); b=$(dec "$t/fast.$s")
  [ "$b" -gt $((3 * a + 3)) ] || fail "$s: DEC $a -> $b with host_tick_hz=10000"
done
echo "same rates: $(rates "$t/def.rec")"
starts "host pages" "$(pages "$t/def.rec")" "# host pages: $(val common_host_pages) every exit, $(val path_host_pages) more on emulation, TLB-map and MMIO paths, $(val qemu_host_pages) a round trip to QEMU, $(val hostirq_host_pages) a host interrupt"
run more --set common_host_pages=12
pages "$t/more.rec" | grep -q '^# host pages: 12 every exit' ||
  fail "record ignored --set common_host_pages: $(pages "$t/more.rec")"
a=$(virt "$t/def.rec"); b=$(virt "$t/more.rec")
[ "$b" -gt "$a" ] || fail "VIRT misses $a -> $b with common_host_pages=12"
for n in def more; do
  s=; [ $n = more ] && s="--set common_host_pages=12"
  # shellcheck disable=SC2086
  "$sim" record boot --exits 40000 --model $s -o "$t/m$n.bin" >"$t/m$n.rec" ||
    fail "record --model $s: failed"
done
a=$(virt "$t/mdef.rec"); b=$(virt "$t/mmore.rec")
[ "$b" -gt "$a" ] || fail "--model: VIRT misses $a -> $b with common_host_pages=12"
echo "same host pages: $(pages "$t/def.rec")"
