#!/bin/sh
# pv-sites.sh VMLINUX: what Linux's kvm_use_magic_page()
# (arch/powerpc/kernel/kvm.c) scans and patches in the kernel's text, one
# line each, in address order: "0xSTART stext" and "0xEND etext" (the
# text it reads word by word), "0xADDRESS KIND" for each template site
# (KIND mtmsr, wrtee, wrteei1 or wrteei0), and "0xADDRESS insn 0xWORD" for
# each mfmsr, mfspr/mtspr (SPRG, SRR0/1 ...) and tlbsync (`sim whatif`
# decides which of them kvm_check_ins patches in place), "0xADDRESS
# kvm_tmp" (the area the templates are copied to and run in) and
# "0xPAGE scancode" (each page of the scan's functions: kvm_use_magic_page,
# or kvm_guest_init it is inlined into, and kvm_alloc), "0xADDRESS conlock
# 0xSIZE" (down_trylock and up, the console semaphore), "0xADDRESS
# guestinit 0xSIZE" (kvm_guest_init: the patching happens when it runs),
# "0xPAGE scaninsns N" (the guest instructions the scan's loop runs for
# that text page's words: pv-scan.awk runs the compiled loop on them);
# the template
# code itself (kvm_template_start .. kvm_template_end) skipped, as the
# kernel scans it. For `sim whatif --transform pv:sites=FILE`
# (docs/whatif.md): the template area is allocated in this order, so
# sites the traced run never executed still take their space, and the
# scan's own exits follow from the text. Needs binutils-powerpc-linux-gnu.
set -eu
vml=$1
here=$(dirname "$0")
nm=powerpc-linux-gnu-nm objdump=powerpc-linux-gnu-objdump
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pv-sites.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sym() { "$nm" "$vml" | awk -v s="$1" '$3 == s { print $1; exit }'; }
start=$(sym _stext) end=$(sym _etext)
ts=$(sym kvm_template_start) te=$(sym kvm_template_end) ktmp=$(sym kvm_tmp)
[ -n "$start" ] && [ -n "$end" ] || { echo "pv-sites.sh: $vml: no _stext/_etext" >&2; exit 2; }
echo "0x$start stext"
[ -z "$ktmp" ] || echo "0x$ktmp kvm_tmp"
for f in kvm_guest_init kvm_use_magic_page kvm_alloc; do
  # one line per page the function covers
  "$nm" -S "$vml" | awk -v s="$f" '$4 == s { print $1, $2; exit }' |
    while read -r a n; do
      p=$(( 0x$a & ~0xfff ))
      while [ "$p" -lt $(( 0x$a + 0x$n )) ]; do
        printf '0x%08x scancode\n' "$p"; p=$(( p + 4096 ))
      done
    done
done
# the console semaphore's down_trylock and up (console_trylock and
# console_unlock take and release it once for each printk): their emulated
# exits come with every "No more space" line
# kvm_guest_init, the postcore initcall that patches: nothing before it is
# patched
"$nm" -S "$vml" | awk '$4 == "kvm_guest_init" { print "0x" $1, "guestinit", "0x" $2; exit }'
for f in down_trylock up; do
  "$nm" -S "$vml" | awk -v s="$f" '$4 == s { print "0x" $1, "conlock", "0x" $2; exit }'
done
# the text, every word (-z: zeros too, the scan reads them)
"$objdump" -d -z --start-address=0x"$start" --stop-address=0x"$end" "$vml" \
  > "$tmp/text"
awk -v ts="$ts" -v te="$te" '
    # addresses are 8 hex digits: as strings they compare as numbers;
    # fields: address, the word as 4 bytes (big-endian), mnemonic, operands
    /^[ ]*[0-9a-f]+:\t/ {
      a = $1; sub(":", "", a)
      if (length(a) != 8 || NF < 6) next
      if (ts != "" && a >= ts && a < te) next
      m = $6; k = ""
      if (m == "mtmsr") k = "mtmsr"
      else if (m == "wrtee") k = "wrtee"
      else if (m == "wrteei") k = ($7 == "1") ? "wrteei1" : "wrteei0"
      else if (m ~ /^(mfmsr|mfspr|mtspr|mfsprg|mtsprg|mfsrr[01]|mtsrr[01]|mfdear|mtdear|mfesr|mtesr|mfpir|tlbsync)$/)
        k = "insn 0x" $2 $3 $4 $5
      if (k != "") print "0x" a, k
    }' "$tmp/text"
# the scan's loop: kvm_use_magic_page, or kvm_guest_init it is inlined
# into, run on the text's words (pv-scan.awk; exit 2 when its compiled
# shape is not the one it understands)
for f in kvm_use_magic_page kvm_guest_init; do
  fn=$("$nm" -S "$vml" | awk -v s="$f" '$4 == s { print $1, $2; exit }')
  [ -z "$fn" ] || break
done
[ -n "$fn" ] || { echo "pv-sites.sh: $vml: no kvm_use_magic_page or kvm_guest_init" >&2; exit 2; }
set -- $fn
"$objdump" -d -z --start-address=0x"$1" \
  --stop-address=$(printf '0x%x' $(( 0x$1 + 0x$2 ))) "$vml" > "$tmp/scan"
awk -v lo="$start" -v hi="$end" -f "$here/pv-scan.awk" "$tmp/scan" "$tmp/text" ||
  { echo "pv-sites.sh: $vml: the scan's loop not counted" >&2; exit 2; }
echo "0x$end etext"
