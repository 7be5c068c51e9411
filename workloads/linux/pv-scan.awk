# pv-scan.awk: the guest instructions of kvm_use_magic_page()'s loop
# (arch/powerpc/kernel/kvm.c: kvm_check_ins on every word of the text),
# counted by running the compiled loop itself on the kernel's own words.
#
#   awk -f pv-scan.awk FUNC.dis TEXT.dis
#
# FUNC.dis: `objdump -d` of the function the loop is compiled into
# (kvm_use_magic_page, or kvm_guest_init it is inlined into); TEXT.dis:
# `objdump -d -z` of the text it scans (_stext .. _etext; a word the
# listing lacks, between sections, reads as 0). Prints, for each text page
# the loop reads, "0xPAGE scaninsns N": the instructions the loop runs for
# that page's words (docs/whatif.md "pv", "The scan itself").
#
# The loop is the code between the function's `wrteei 0` and `wrteei 1`
# (local_irq_disable/enable around the scan). This interprets it from the
# instruction after `wrteei 0` - the set-up of the bounds, then the loop,
# word by word - until it reaches `wrteei 1`: every instruction a word's
# path runs is counted, the compare chain the compiler made of
# kvm_check_ins's switches included. A path that calls a function (a
# patch: kvm_patch_ins_*, kvm_alloc) or branches on a value the listing
# cannot give (the features word on the stack) leaves the compare chain
# there: it is counted up to that instruction, then resumes at the loop's
# step (`addi rP,rP,4; b HEAD`); what the call runs is not counted. The
# paths of one word value are the same wherever the word lies, so a path
# is kept by its word and replayed (only when it read nothing but the word,
# registers it set itself and registers the loop never writes; never when
# a compare looked at the pointer).
#
# Fails (a message, exit 2) on anything outside the instructions it knows,
# or a loop not shaped so: no `wrteei 0` ... `wrteei 1`, not exactly one
# backward `b` closing it, no `addi rP,rP,4` before that `b`, a path that
# does not come back to the loop's head; or most words' paths leaving at
# a call (kvm_check_ins not inlined: its work would go uncounted).
function fail(msg) {
    printf "pv-scan.awk: %s: %s\n", fname_fn, msg > "/dev/stderr"
    failed = 1
    exit 2
}
function u32(x) {
    x = x % 4294967296
    if (x < 0) x += 4294967296
    return x
}
function s32(x) { return x >= 2147483648 ? x - 4294967296 : x }
function hexn(s,    i, n) {
    n = 0
    for (i = 1; i <= length(s); i++) n = n * 16 + HX[substr(s, i, 1)]
    return n
}
function H8(x) { return sprintf("%08x", x) }
# bitwise and (1), or (2), xor (3) of 32-bit values, a byte at a time
# (POSIX awk has none)
function bitop(t, a, b,    r, k, m) {
    r = 0; m = 1; t *= 65536
    for (k = 0; k < 4; k++) {
        r += BT[t + (a % 256) * 256 + b % 256] * m
        a = int(a / 256); b = int(b / 256); m *= 256
    }
    return r
}
function mask(mb, me) {
    if (mb <= me) return 2 ^ (32 - mb) - 2 ^ (31 - me)
    return 4294967295 - mask(me + 1, mb - 1)
}
function rot(x, n) {
    n = n % 32
    if (n == 0) return x
    return (x * 2 ^ n) % 4294967296 + int(x / 2 ^ (32 - n))
}
# decoding: a bad operand is an error only if the path runs it
function reg(x, v) {
    if (v !~ /^r([0-9]|[12][0-9]|3[01])$/) { BAD[x] = "operand '" v "': not a register"; return 0 }
    return substr(v, 2) + 0
}
function imm(x, v) {
    if (v !~ /^-?[0-9]+$/) { BAD[x] = "operand '" v "': not a number"; return 0 }
    return v + 0
}
function memop(x, v,    d, b) {
    d = v; sub(/\(.*/, "", d); b = v; sub(/.*\(/, "", b); sub(/\)$/, "", b)
    IM[x] = imm(x, d); A[x] = reg(x, b)
}
function target(x,    t) {
    t = hexn(ARGS[x]) - fb
    if (t < 0 || t % 4 || t / 4 >= nins) { BAD[x] = "a branch out of the function"; return 0 }
    return t / 4
}
function decode(x,    op, n, s, t, sh, mb, me) {
    op = OP[x]; n = split(ARGS[x], s, ",")
    K[x] = 0
    if (op == "li") { K[x] = 1; D[x] = reg(x, s[1]); IM[x] = imm(x, s[2]) }
    else if (op == "lis") { K[x] = 1; D[x] = reg(x, s[1]); IM[x] = u32(imm(x, s[2]) * 65536) }
    else if (op == "addi" || op == "addis") {
        K[x] = 2; D[x] = reg(x, s[1]); A[x] = reg(x, s[2])
        IM[x] = imm(x, s[3]) * (op == "addis" ? 65536 : 1)
    }
    else if (op ~ /^(ori|oris|xori|xoris|andi\.|andis\.)$/) {
        K[x] = 3; D[x] = reg(x, s[1]); A[x] = reg(x, s[2])
        IM[x] = imm(x, s[3]) * (op ~ /s\.?$/ ? 65536 : 1)
        T[x] = op ~ /^x/ ? 3 : op ~ /^o/ ? 2 : 1; RC[x] = op ~ /\.$/
    }
    else if (op == "mr" || op == "mr.") { K[x] = 4; D[x] = reg(x, s[1]); A[x] = reg(x, s[2]); RC[x] = op == "mr." }
    else if (op ~ /^(or|and|xor|add|subf)$/) {
        K[x] = 5; D[x] = reg(x, s[1]); A[x] = reg(x, s[2]); B[x] = reg(x, s[3])
        T[x] = op == "and" ? 1 : op == "or" ? 2 : op == "xor" ? 3 : op == "add" ? 4 : 5
    }
    else if (op ~ /^(rlwinm|slwi|srwi|clrlwi|clrrwi|rotlwi)\.?$/) {
        K[x] = 6; D[x] = reg(x, s[1]); A[x] = reg(x, s[2]); t = op; sub(/\.$/, "", t); RC[x] = op ~ /\.$/
        if (t == "rlwinm") { sh = imm(x, s[3]); mb = imm(x, s[4]); me = imm(x, s[5]) }
        else if (t == "slwi") { sh = imm(x, s[3]); mb = 0; me = 31 - sh }
        else if (t == "srwi") { sh = (32 - imm(x, s[3])) % 32; mb = imm(x, s[3]); me = 31 }
        else if (t == "clrlwi") { sh = 0; mb = imm(x, s[3]); me = 31 }
        else if (t == "clrrwi") { sh = 0; mb = 0; me = 31 - imm(x, s[3]) }
        else { sh = imm(x, s[3]); mb = 0; me = 31 }
        if (mb < 0 || mb > 31 || me < 0 || me > 31) BAD[x] = "mask out of range"
        SH[x] = sh; IM[x] = mask(mb, me)
    }
    else if (op ~ /^cmpl?wi?$/) {
        K[x] = 7; T[x] = op ~ /^cmplw/ ? 2 : 1
        A[x] = reg(x, s[1])
        if (op ~ /i$/) { B[x] = -1; IM[x] = imm(x, s[2]) } else B[x] = reg(x, s[2])
        if (n != 2) BAD[x] = "only cr0 compares are understood"
    }
    else if (op == "lwz") { K[x] = 8; D[x] = reg(x, s[1]); memop(x, s[2]) }
    else if (op ~ /^(lwzx|lbz|lhz|lha|lbzx|lhzx)$/) { K[x] = 9; D[x] = reg(x, s[1]) }
    else if (op ~ /^(stw|stb|sth|stwx|stbx|sthx)$/) K[x] = 10
    else if (op == "b") {
        K[x] = 11; TG[x] = target(x)
        if (ARGS[x] !~ /^[0-9a-f]+$/) BAD[x] = "not a branch to an address"
    }
    else if (op ~ /^b(eq|ne|lt|gt|le|ge)$/) {
        K[x] = 12; TG[x] = target(x); t = substr(op, 2)
        if (n != 1) BAD[x] = "only cr0 branches are understood"
        else if (ARGS[x] !~ /^[0-9a-f]+$/) BAD[x] = "not a branch to an address"
        # taken for the cr0 value 1 (lt), 2 (gt), 3 (eq)
        TK[x * 4 + 1] = t == "lt" || t == "le" || t == "ne"
        TK[x * 4 + 2] = t == "gt" || t == "ge" || t == "ne"
        TK[x * 4 + 3] = t == "eq" || t == "le" || t == "ge"
    }
    else if (op == "bl") K[x] = 13
    if (!K[x]) BAD[x] = "an instruction the scan's interpreter does not know"
    if (x in BAD) K[x] = -1
}
BEGIN {
    CONVFMT = "%.0f" # addresses above 2^31 as exact keys (mawk: %.6g)
    split("0 1 2 3 4 5 6 7 8 9 a b c d e f", hd, " ")
    for (i = 1; i <= 16; i++) HX[hd[i]] = i - 1
    for (a = 0; a < 256; a++)
        for (b = 0; b < 256; b++) {
            ra = 0; ro = 0; rx = 0; x = a; y = b; m = 1
            for (k = 0; k < 8; k++) {
                p = x % 2; q = y % 2
                ra += (p && q) * m; ro += (p || q) * m; rx += (p != q) * m
                x = int(x / 2); y = int(y / 2); m *= 2
            }
            BT[65536 + a * 256 + b] = ra; BT[131072 + a * 256 + b] = ro
            BT[196608 + a * 256 + b] = rx
        }
}
# objdump lines: "addr:\tb1 b2 b3 b4 \tmnemonic  operands <symbol+offset>"
FNR == NR {
    if (fname_fn == "") fname_fn = FILENAME
    if ($0 !~ /^ *[0-9a-f]+:\t/) next
    split($0, f, "\t")
    a = f[1]; sub(/^ */, "", a); sub(/:$/, "", a)
    op = f[3]; sub(/ .*/, "", op); sub(/[+-]$/, "", op)
    opd = f[3]; sub(/^[^ ]+ */, "", opd); sub(/ .*/, "", opd)
    # instructions by their index from the first (small keys: mawk turns
    # a large number into a key through sprintf)
    x = hexn(a)
    if (!nins) fb = x
    x = (x - fb) / 4
    if (x != nins) { fname_fn = FILENAME; fail("the listing skips from " H8(fb + 4 * nins - 4) " to " H8(fb + 4 * x) " (objdump -z)") }
    OP[x] = op; ARGS[x] = opd
    nins++
    if (op == "wrteei" && opd == "0" && w0 == "") w0 = x
    if (op == "wrteei" && opd == "1" && w0 != "" && w1 == "") w1 = x
    next
}
# the text, one word per line, kept by its index from the first word
/^ *[0-9a-f]+:\t/ {
    if (NF < 5) next
    a = $1; sub(/:$/, "", a); x = hexn(a)
    if (!have_text) { base = x; text_lo = x; text_hi = x; have_text = 1 }
    MEM[(x - base) / 4] = ((HB[$2] * 256 + HB[$3]) * 256 + HB[$4]) * 256 + HB[$5]
    if (x < text_lo) text_lo = x
    if (x > text_hi) text_hi = x
}
BEGIN { for (i = 0; i < 256; i++) HB[sprintf("%02x", i)] = i }
END {
    if (failed) exit 2
    if (!nins) { fname_fn = ARGV[1]; fail("no instructions") }
    if (!have_text) fail("no text words in " ARGV[2])
    # the text the loop reads: _stext .. _etext when given (a word the
    # listing lacks reads as 0), else the listing's
    lo = lo != "" ? hexn(lo) : text_lo
    hi = hi != "" ? hexn(hi) : text_hi + 4
    pb = int(lo / 4096) * 4096
    if (w0 == "" || w1 == "") fail("no 'wrteei 0' ... 'wrteei 1' around the scan")
    for (x = 0; x < nins; x++) decode(x)
    # the loop: one backward b inside, after `addi rP,rP,4`
    head = 0
    for (x = w0 + 1; x < w1; x++) {
        if (K[x] != 11 || TG[x] >= x || (x in BAD)) continue
        if (head) fail("more than one backward 'b' in the scan")
        head = TG[x]; back = x; step = x - 1
    }
    if (!head || head <= w0) fail("no backward 'b' closing the scan's loop")
    if (K[step] != 2 || D[step] != A[step] || IM[step] != 4 || (step in BAD))
        fail("no 'addi rP,rP,4' before the loop's 'b' at " H8(fb + 4 * back))
    rp = D[step]
    # the registers the loop writes (others keep their value in it)
    for (x = head; x <= back; x++)
        if (K[x] && (K[x] <= 6 || K[x] == 8 || K[x] == 9)) DIRTY[D[x]] = 1
    for (k = 0; k < 32; k++) KN[k] = 0
    pc = w0 + 1; cr = 0; cur = -1; cnt = 0; seg = 0
    words = 0; left = 0; total = 0; rec = 0
    while (pc != w1) {
        if (pc >= nins) fail("the path runs out of the function")
        if (++seg > 100000) fail("no way back to the loop's head from " H8(fb + 4 * segpc))
        if (pc == head) {
            if (rec) end_record()
            if (cur >= 0 && KN[rp]) { flush(); cur = R[rp] }
        }
        keyload = 0
        # a word read from the text: its path is replayed when known
        if (K[pc] == 8 && !rec && KN[A[pc]]) {
            ea = u32(R[A[pc]] + IM[pc])
            if (ea >= lo && ea < hi && ea % 4 == 0) {
                w = MEM[(ea - base) / 4] + 0
                if (cur != ea) { flush(); cur = ea }
                words++
                key = pc "," w
                if (!nomemo && (key in MN)) { replay(key); continue }
                start_record(key)
                keyload = 1
            }
        }
        cnt++
        exec(pc)
    }
    if (rec) fail("the scan ends inside a word's path")
    flush()
    # a match (a patch) is rare: mfmsr, mtspr ... are well under 1% of a
    # kernel's words. A call on most words' paths is a loop that calls
    # kvm_check_ins instead of inlining it, whose work this would miss.
    if (!words) fail("the loop read no word of the text")
    if (left > 0.05 * words)
        fail(left " of " words " words' paths left the loop at a call or an unknown branch: kvm_check_ins not inlined? (its instructions would not be counted)")
    for (i = 1; i <= npages; i++)
        printf "0x%08x scaninsns %d\n", pb + 4096 * PAGE[i], PN[PAGE[i]]
    printf "# scan: %d words, %d instructions, %d paths left the compare chain (a call, or a branch on the features word)\n", words, total, left
}
# the instructions run since the last flush go to the page of the word
# being scanned (those before the first word to the first word's; the
# last test of the pointer, at the end, to the last word's)
function flush(    p) {
    if (cur < 0) return
    p = int(((cur < hi ? cur : hi - 4) - pb) / 4096)
    if (!(p in PN)) { PAGE[++npages] = p; PN[p] = 0 }
    PN[p] += cnt; total += cnt; cnt = 0
}
function start_record(k) {
    rec = 1; rkey = k; rn = cnt; rok = 1; rstop = 0; rp0 = R[rp]
    split("", WR); split("", TN)
    seg = 0; segpc = pc
}
function end_record(    k, list) {
    rec = 0; seg = 0; rn = cnt - rn
    if (!rok || ((rp in WR) && !KN[rp])) return
    list = ""
    for (k in WR) if (k != rp) list = list " " k
    MN[rkey] = rn; MS[rkey] = rstop; MW[rkey] = list
    MD[rkey] = (rp in WR) ? R[rp] - rp0 : 0
}
function replay(k,    i, n, l) {
    cnt += MN[k]; left += MS[k]
    n = split(MW[k], l, " ")
    for (i = 1; i <= n; i++) KN[l[i]] = 0
    R[rp] = u32(R[rp] + MD[k]); cr = 0
    pc = head
}
# a source register read on a recorded path: from the word (its own
# writes), the pointer (tainted: a compare of it bars the replay), or a
# register the loop never writes; anything else bars the replay
function src(r) {
    if (!rec) return
    if (r in WR) { if (TN[r]) tnt = 1; return }
    if (r == rp) { tnt = 1; return }
    if (r in DIRTY) rok = 0
}
function dst(x, v, known,    r) {
    r = D[x]; R[r] = u32(v); KN[r] = known
    if (rec) {
        WR[r] = 1; TN[r] = tnt
        if (r == rp && !(K[x] == 2 && A[x] == rp)) rok = 0
    }
}
function setcr(a, b, known) {
    if (!known) { cr = 0; return }
    cr = a < b ? 1 : a > b ? 2 : 3
    if (rec && tnt) rok = 0
}
# leave the compare chain: resume at the loop's step
function leave(why,    k) {
    if (!rec) fail(OP[pc] " " ARGS[pc] " at " H8(fb + 4 * pc) " outside a word's path (" why ")")
    left++; rstop = 1
    for (k = 0; k <= 12; k++) if (k != 1 && k != 2) { KN[k] = 0; WR[k] = 1; TN[k] = 0 }
    cr = 0; pc = step
}
function exec(x,    k, a, b, v, kn) {
    tnt = 0; k = K[x]
    if (k < 0) fail("'" OP[x] " " ARGS[x] "' at " H8(fb + 4 * x) ": " BAD[x])
    if (k == 1) dst(x, IM[x], 1)
    else if (k == 2) {
        a = A[x]; src(a)
        if (a == 0) dst(x, IM[x], 1); else dst(x, R[a] + IM[x], KN[a])
    }
    else if (k == 3) {
        a = A[x]; src(a)
        dst(x, KN[a] ? bitop(T[x], R[a], IM[x]) : 0, KN[a])
        if (RC[x]) setcr(s32(R[D[x]]), 0, KN[a])
    }
    else if (k == 4) {
        a = A[x]; src(a); dst(x, R[a], KN[a])
        if (RC[x]) setcr(s32(R[a]), 0, KN[a])
    }
    else if (k == 5) {
        a = A[x]; b = B[x]; src(a); src(b); kn = KN[a] && KN[b]; k = T[x]
        if (!kn) v = 0
        else if (k == 4) v = R[a] + R[b]
        else if (k == 5) v = R[b] - R[a]
        else v = bitop(k, R[a], R[b])
        dst(x, v, kn)
    }
    else if (k == 6) {
        a = A[x]; src(a)
        v = KN[a] ? bitop(1, rot(R[a], SH[x]), IM[x]) : 0
        dst(x, v, KN[a])
        if (RC[x]) setcr(s32(v), 0, KN[a])
    }
    else if (k == 7) {
        a = A[x]; b = B[x]; src(a)
        if (b < 0) { v = IM[x]; kn = KN[a] } else { src(b); v = R[b]; kn = KN[a] && KN[b] }
        if (T[x] == 2) setcr(R[a], u32(v), kn)
        else setcr(s32(R[a]), b < 0 ? v : s32(v), kn)
    }
    else if (k == 8) {
        b = A[x]; src(b)
        if (keyload) tnt = 0 # the word itself: the key of its path
        v = u32(R[b] + IM[x])
        kn = KN[b] && v >= lo && v < hi && v % 4 == 0
        dst(x, kn ? MEM[(v - base) / 4] + 0 : 0, kn)
    }
    else if (k == 9) dst(x, 0, 0)
    else if (k == 11) { pc = TG[x]; return }
    else if (k == 12) {
        if (!cr) { leave("a branch on a value the listing does not give"); return }
        pc = TK[x * 4 + cr] ? TG[x] : x + 1
        return
    }
    else if (k == 13) { leave("a call"); return }
    pc = x + 1
}
