#!/bin/sh
# pv-sites.sh VMLINUX: the template sites Linux's kvm_use_magic_page()
# (arch/powerpc/kernel/kvm.c) finds in the kernel's text, one per line as
# "0xADDRESS KIND" (KIND mtmsr, wrtee, wrteei1 or wrteei0), in address
# order: every word from _stext to _etext, the template code itself
# (kvm_template_start .. kvm_template_end) skipped, as the kernel scans it.
# For `sim whatif --transform pv:sites=FILE` (docs/whatif.md): the template
# area is allocated in this order, so sites the traced run never executed
# still take their space. Needs binutils-powerpc-linux-gnu.
set -eu
vml=$1
nm=powerpc-linux-gnu-nm objdump=powerpc-linux-gnu-objdump
sym() { "$nm" "$vml" | awk -v s="$1" '$3 == s { print $1; exit }'; }
start=$(sym _stext) end=$(sym _etext)
ts=$(sym kvm_template_start) te=$(sym kvm_template_end)
[ -n "$start" ] && [ -n "$end" ] || { echo "pv-sites.sh: $vml: no _stext/_etext" >&2; exit 2; }
"$objdump" -d --no-show-raw-insn --start-address=0x"$start" \
  --stop-address=0x"$end" "$vml" |
  awk -v ts="$ts" -v te="$te" '
    # addresses are 8 hex digits: as strings they compare as numbers
    /^[ ]*[0-9a-f]+:\t/ {
      a = $1; sub(":", "", a)
      if (length(a) != 8) next
      if (ts != "" && a >= ts && a < te) next
      m = $2; k = ""
      if (m == "mtmsr") k = "mtmsr"
      else if (m == "wrtee") k = "wrtee"
      else if (m == "wrteei") k = ($3 == "1") ? "wrteei1" : "wrteei0"
      if (k != "") print "0x" a, k
    }'
