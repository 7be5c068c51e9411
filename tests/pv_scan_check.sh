#!/bin/sh
# pv_scan_check.sh SRC: workloads/linux/pv-scan.awk (the guest instructions
# of Linux's PV text scan, docs/whatif.md "pv") on a hand-written listing
# shaped like 6.1's compiled kvm_guest_init: a two-case descending compare
# chain on the word with its RT field cleared, a patch call on a match.
# Counted by hand (head = cmplw, bge; step = addi, b):
#   0x80000000 above the first case: head 2 + lwz..bgt 8 + step 2 = 12
#   0 (a word the listing lacks) down the chain: 2 + 8 + lis, ori, cmpw,
#     beq, b 5 + 2 = 17
#   mfmsr r3 (0x7c6000a6 -> 0x7c0000a6) matches the second case: 2 + 8 +
#     4 + bl 1 + 2 = 17, leaves the chain at the call
#   0x7c3e42a6 (-> 0x7c1e42a6) matches the first: 2 + 6 + 1 + 2 = 11
# Page 0xc0000000: the set-up 3 + 12 + 1022 x 17 + 17 = 17406; page
# 0xc0001000: 11 + 12 + the last head 2 = 25. The same with every path
# interpreted (nomemo=1). Then shapes it does not understand: exit 2.
set -u
src=$1
awkf=$src/workloads/linux/pv-scan.awk
d=$src/tests/data/pvscan
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvscan.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # name expected-file actual-file
  if ! cmp -s "$2" "$3"; then
    echo "FAIL $1:"; diff "$2" "$3"; fails=$((fails + 1))
  fi
}
cat > "$tmp/want" <<'W'
0xc0000000 scaninsns 17406
0xc0001000 scaninsns 25
# scan: 1026 words, 17431 instructions, 2 paths left the compare chain (a call, or a branch on the features word)
W
awk -v lo=c0000000 -v hi=c0001008 -f "$awkf" "$d/func.dis" "$d/text.dis" > "$tmp/got" 2>&1
check "hand count" "$tmp/want" "$tmp/got"
awk -v nomemo=1 -v lo=c0000000 -v hi=c0001008 -f "$awkf" "$d/func.dis" "$d/text.dis" > "$tmp/got" 2>&1
check "every path interpreted" "$tmp/want" "$tmp/got"
# refused: exit 2 and a message naming what is not understood
refuse() { # name sed-expression expected-message
  sed "$2" "$d/func.dis" > "$tmp/bad.dis"
  awk -v lo=c0000000 -v hi=c0001008 -f "$awkf" "$tmp/bad.dis" "$d/text.dis" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ "$rc" != 2 ] || [ -s "$tmp/out" ] || ! grep -q "$3" "$tmp/err"; then
    echo "FAIL $1: rc=$rc, stdout:"; cat "$tmp/out"; echo "stderr:"; cat "$tmp/err"
    fails=$((fails + 1))
  fi
}
refuse "unknown instruction on the path" 's/ori     r8,r8,166/mulli   r8,r8,166/' \
  "'mulli r8,r8,166' at c010003c: an instruction the scan's interpreter does not know"
refuse "no wrteei 0" '/wrteei  0/d' "no 'wrteei 0' ... 'wrteei 1'"
refuse "a step of 8" 's/addi    r31,r31,4$/addi    r31,r31,8/' "no 'addi rP,rP,4'"
refuse "a cr7 compare" 's/cmpw    r9,r8/cmpw    cr7,r9,r8/' "only cr0 compares"
refuse "a second backward b" 's/b       c0100054 <kvm_guest_init+0x54>$/b       c0100018 <kvm_guest_init+0x18>/' \
  "more than one backward 'b'"
# kvm_check_ins called, not inlined: every word's path leaves at the call
refuse "a call on every word" 's/lis     r8,31774/bl      c0100100/' \
  "1026 of 1026 words' paths left the loop at a call or an unknown branch: kvm_check_ins not inlined"
[ "$fails" = 0 ] || exit 1
echo "pv-scan.awk: hand count, memo, 6 refusals: ok"
