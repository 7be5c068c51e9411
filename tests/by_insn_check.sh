#!/bin/sh
# sim replay --by-insn adds up to the table's emulation rows: the same
# exits, and the same handler usec - exactly with the 2.6.29 accounting
# (whole usec per sample on both sides), within half a usec a row with 3.1
# (the table rounds each row's ticks, the line their sum). Two traces: one
# the cycle model prices (synthesised, no ticks) and one with measured
# ticks (recorded on cpu440).
# usage: by_insn_check.sh SIM NOPV_TABLE
sim=$1
"$sim" trace synth --like "$2" --exits 3000 --seed 4 -o byinsn.bin >/dev/null || exit 1
"$sim" record boot --exits 3000 --no-console -o byinsn-rec.bin >/dev/null || exit 1
for t in byinsn.bin byinsn-rec.bin; do
for a in 2.6.29 3.1; do
    "$sim" replay $t --by-insn --accounting $a > byinsn.txt || exit 1
    # the synthesised trace is priced by the model, the recorded one not
    if [ $t = byinsn.bin ]; then
        grep -q "ticks predicted" byinsn.txt || exit 1
    else
        ! grep -q "ticks predicted" byinsn.txt || exit 1
    fi
    awk -v acct=$a '
        /^EMUL/ { gsub(",", "", $2); gsub(",", "", $5); c += $2; s += $5; rows++ }
        /^# emulated instructions by instruction word:/ {
            line = $0; sub(/.*word: /, "", line); gsub(",", "", line)
            split(line, w, " "); lc = w[1]; ls = w[5]; found = 1 }
        END {
            if (!found || rows == 0) { print "no by-insn line or rows"; exit 1 }
            d = ls - s; if (d < 0) d = -d
            tol = acct == "3.1" ? rows / 2 + 0.5 : 0
            if (lc != c || d > tol) {
                printf "%s: table %d exits %d usec, by-insn %d exits %d usec\n", acct, c, s, lc, ls
                exit 1 }
        }' byinsn.txt || exit 1
done
done
# sim whatif --by-insn: the predicted side's lines add up to the predicted
# table's emulation rows (2.6.29: exactly)
"$sim" whatif byinsn-rec.bin --transform pv --by-insn > byinsn-wi.txt || exit 1
awk '
    /^# / { if ($0 ~ /delta against/) done = 1 }
    /^EMUL/ && !done { gsub(",", "", $2); gsub(",", "", $5); c += $2; s += $5 }
    /^# emulated instructions by instruction word, untransformed -> / {
        line = $0; sub(/.*-> pv: /, "", line); gsub(",", "", line)
        split(line, w, " "); lc = w[3]; ls = w[9]; found = 1 }
    END {
        if (!found || c == 0) { print "whatif: no by-insn line or rows"; exit 1 }
        if (lc != c || ls != s) {
            printf "whatif: table %d exits %d usec, by-insn %d exits %d usec\n", c, s, lc, ls
            exit 1 }
    }' byinsn-wi.txt || exit 1
