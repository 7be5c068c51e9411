#!/bin/sh
# host_pages_same.sh SIM: `sim record` (cpu440) takes the host's own UTLB
# pages from the cycle model's parameters (common_host_pages,
# path_host_pages, qemu_host_pages, hostirq_host_pages; docs/cpu440.md): by
# default it prints the parameter table's values, and --set moves the
# recording (more host pages evict more guest shadow entries: more VIRT
# misses), with or without --model.
sim=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "$*"; exit 1; }
val() { "$sim" params show | awk -v n="$1" '$1 == n { print $2 }'; }
pages() { grep '^# host pages:' "$1"; }
virt() { awk '$1 == "ITLBVIRT" || $1 == "DTLBVIRT" { gsub(",", "", $2); n += $2 } END { print n + 0 }' "$1"; }
run() { # run NAME ARGS...
  n=$1; shift
  "$sim" record boot --exits 40000 -o "$t/$n.bin" "$@" >"$t/$n.rec" ||
    fail "record $*: failed"
}
run def
want="# host pages: $(val common_host_pages) every exit, $(val path_host_pages) more on emulation, TLB-map and MMIO paths, $(val qemu_host_pages) a round trip to QEMU, $(val hostirq_host_pages) a host interrupt"
case $(pages "$t/def.rec") in
  "$want"*) ;;
  *) fail "record's host pages are not the parameter table's: $(pages "$t/def.rec") (want $want)" ;;
esac
run more --set common_host_pages=12
pages "$t/more.rec" | grep -q '^# host pages: 12 every exit' ||
  fail "record ignored --set common_host_pages: $(pages "$t/more.rec")"
run mmore --model --set common_host_pages=12
run mdef --model
a=$(virt "$t/def.rec"); b=$(virt "$t/more.rec")
[ "$b" -gt "$a" ] || fail "VIRT misses $a -> $b with common_host_pages=12"
a=$(virt "$t/mdef.rec"); b=$(virt "$t/mmore.rec")
[ "$b" -gt "$a" ] || fail "--model: VIRT misses $a -> $b with common_host_pages=12"
echo "host pages: $(pages "$t/def.rec")"
