#!/bin/sh
# ftrace_roundtrip.sh SIM NAME RECORD-ARGS... : records a workload on cpu440,
# exports the trace as kvm tracepoint text (sim trace dump --ftrace), imports
# it again (sim import ftrace) and checks that every exit type has the same
# count and every record the same fields (type, irq, pc, inst, addr, tb,
# PR/U flags; TLB records field by field). EMUL_WAIT is the one row the tracepoints cannot carry (MSR[WE] is
# not traced; docs/ftrace-import.md): a wait shorter than --wait-us reads
# as EMUL_MTMSR / EMUL_RFI, so those three rows are compared as one sum.
set -u
sim=$1; name=$2; shift 2
pv=""
case " $* " in *" --pv "*) pv=--pv ;; esac
"$sim" record "$@" -o "$name.bin" >/dev/null 2>&1 || { echo "record failed"; exit 1; }
"$sim" trace dump --ftrace --ns "$name.bin" -o "$name.txt" || exit 1
"$sim" import ftrace $pv "$name.txt" -o "$name.back.bin" --report "$name.report" || exit 1
types() {
  "$sim" trace info "$1" | awk '/^exits by type/ {on = 1; next}
    on && NF >= 2 { if ($1 == "EMUL_WAIT" || $1 == "EMUL_MTMSR" || $1 == "EMUL_RFI")
                      w += $2; else print $1, $2 }
    END { print "EMUL_WAIT+MTMSR+RFI", w + 0 }'
}
types "$name.bin" >"$name.types"
types "$name.back.bin" >"$name.back.types"
if ! diff -u "$name.types" "$name.back.types"; then
  echo "per-type counts differ after the ftrace round trip"; cat "$name.report"; exit 1
fi
# record by record: every field the tracepoints carry (not the ticks, not
# markers); an exit may differ only as EMUL_WAIT read as EMUL_MTMSR/EMUL_RFI
fields() {
  "$sim" trace dump "$1" | awk '$1 == "exit" || $1 == "gtlb" || $1 == "stlb" || $1 == "stlb_inval" {
    out = $1 ($1 == "exit" ? " " $2 : "")
    for (i = 2; i <= NF; i++) {
      if ($i ~ /^(handler|guest)=/) continue
      if ($i ~ /^flags=/) { f = ""; if ($i ~ /PR/) f = f "PR"; if ($i ~ /[=,]U/) f = f "U"; out = out " f=" f; continue }
      if ($i ~ /=/) out = out " " $i
    }
    print out }'
}
fields "$name.bin" >"$name.recs"
fields "$name.back.bin" >"$name.back.recs"
bad=$(paste -d '|' "$name.recs" "$name.back.recs" | awk -F'|' '
  NF != 2 || $1 == "" || $2 == "" { n++; next }
  $1 != $2 { split($1, a, " "); split($2, b, " ")
             if (a[2] == "EMUL_WAIT" && (b[2] == "EMUL_MTMSR" || b[2] == "EMUL_RFI")) { w++; next }
             n++; if (n <= 5) print "record " NR ": " $1 " -> " $2 > "/dev/stderr" }
  END { print n + 0 }')
if [ "$(wc -l <"$name.recs")" != "$(wc -l <"$name.back.recs")" ] || [ "$bad" != 0 ]; then
  echo "records differ after the ftrace round trip ($bad)"; exit 1
fi
n=$(awk '{s += $2} END {print s}' "$name.types")
echo "round trip: $n exits, the same per-type counts and the same records"
grep -E "EMUL_WAIT|ambiguous" "$name.report"
exit 0
