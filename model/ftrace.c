/* ftrace: the line format of the kernel's trace output (kernel/trace/
 * trace_output.c: "%16s-%-5d [%03d] flags %5lu.%06lu: event: fields", tgid
 * in parentheses with the record-tgid option; trace-cmd report prints the
 * same prefix without flags unless -l) and the TP_printk formats of the kvm
 * tracepoints of the 440 (arch/powerpc/kvm/trace.h, trace_booke.h,
 * include/trace/events/kvm.h; docs/kvm440.md §6). Hand-written scanning:
 * this is the hot path of `sim import ftrace`. */
#include "ftrace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exits.h"

const char *ftrace_kind_event(ftrace_kind k)
{
    switch (k) {
    case FTL_EXIT: return "kvm_exit";
    case FTL_PPC_INSTR: return "kvm_ppc_instr";
    case FTL_GTLB_WRITE: return "kvm_gtlb_write";
    case FTL_STLB_WRITE: return "kvm_stlb_write";
    case FTL_STLB_INVAL: return "kvm_stlb_inval";
    case FTL_USER_EXIT: return "kvm_userspace_exit";
    default: return NULL;
    }
}

/* Every name kvm_exit prints (kvm_trace_symbol_exit, trace_booke.h of
 * 3.10): BOOKE_IRQ_LIST and the SPE / perfmon / doorbell / HV numbers, with
 * lengths for the parser's loop. */
#define NAME(n, v) {#n, sizeof #n - 1, v},
static const struct {
    const char *name;
    size_t len;
    unsigned irq;
} irq_names[] = {
    /* clang-format off */
    BOOKE_IRQ_LIST(NAME)
    NAME(SPE_UNAVAIL, 32) NAME(SPE_FP_DATA, 33) NAME(SPE_FP_ROUND, 34)
    NAME(PERFORMANCE_MONITOR, 35) NAME(DOORBELL, 36)
    NAME(DOORBELL_CRITICAL, 37) NAME(GUEST_DBELL, 38)
    NAME(GUEST_DBELL_CRIT, 39) NAME(HV_SYSCALL, 40) NAME(HV_PRIV, 41)
    /* clang-format on */
};
#undef NAME
#define N_IRQ_NAMES (sizeof irq_names / sizeof irq_names[0])

const char *ftrace_irq_name(unsigned irq)
{
    for (unsigned i = 0; i < N_IRQ_NAMES; i++)
        if (irq_names[i].irq == irq)
            return irq_names[i].name;
    return NULL;
}

/* ---- scanning helpers: each advances *pp only on success ---- */
static inline bool is_digit(char c)
{
    return (unsigned)(c - '0') < 10u;
}

static inline bool is_alnum(char c)
{
    char l = (char)(c | 0x20);
    return is_digit(c) || (l >= 'a' && l <= 'z') || c == '_';
}

/* 1 + the value of a hex digit by byte, 0 for anything else */
static const uint8_t hexv1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
    ['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
    ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static inline int hexval(char c)
{
    return (int)hexv1[(unsigned char)c] - 1;
}

static inline bool lit(const char **pp, const char *e, const char *s, size_t n)
{
    if ((size_t)(e - *pp) < n || memcmp(*pp, s, n) != 0)
        return false;
    *pp += n;
    return true;
}
#define LIT(pp, e, s) lit(pp, e, s, sizeof(s) - 1)

static inline bool dec32(const char **pp, const char *e, uint32_t *v)
{
    const char *p = *pp;
    uint64_t x = 0;
    unsigned n = 0;
    while (p < e && is_digit(*p) && n < 11) {
        x = x * 10u + (uint64_t)(*p - '0');
        p++, n++;
    }
    if (n == 0 || x > 0xffffffffu || (p < e && is_alnum(*p)))
        return false;
    *v = (uint32_t)x;
    *pp = p;
    return true;
}

static inline bool dec64(const char **pp, const char *e, uint64_t *v)
{
    const char *p = *pp;
    uint64_t x = 0;
    unsigned n = 0;
    while (p < e && is_digit(*p) && n < 19) {
        x = x * 10u + (uint64_t)(*p - '0');
        p++, n++;
    }
    if (n == 0 || (p < e && is_alnum(*p)))
        return false;
    *v = x;
    *pp = p;
    return true;
}

/* Hex digits (no 0x) of a value that fits 32 bits; leading zeros allowed. */
static inline bool hex32(const char **pp, const char *e, uint32_t *v)
{
    const char *p = *pp;
    uint64_t x = 0;
    unsigned n = 0;
    int d;
    while (p < e && (d = hexval(*p)) >= 0 && n < 17) {
        x = x << 4 | (unsigned)d;
        p++, n++;
    }
    if (n == 0 || n > 16 || x > 0xffffffffu || (p < e && is_alnum(*p)))
        return false;
    *v = (uint32_t)x;
    *pp = p;
    return true;
}

static inline const char *skip_blanks(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Only blanks may follow the last field. */
static inline bool at_end(const char *p, const char *e)
{
    return skip_blanks(p, e) == e;
}

static void malformed(ftrace_line *o, ftrace_kind claimed, const char *what,
                      const char *s, const char *p)
{
    o->kind = FTL_MALFORMED;
    o->claimed = claimed;
    o->expected = what;
    o->col = (unsigned)(p - s) + 1u;
}

/* ---- the events' own formats ---- */
static bool irq_from(const char **pp, const char *e, uint32_t *irq)
{
    const char *p = *pp, *w = p;
    while (w < e && *w != ' ')
        w++;
    size_t n = (size_t)(w - p);
    if (n > 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
        /* __print_symbolic prints unknown numbers in hex */
        const char *q = p + 2;
        if (!hex32(&q, w, irq) || q != w || *irq > 255u)
            return false;
        *pp = w;
        return true;
    }
    if (n == 0)
        return false;
    for (unsigned i = 0; i < N_IRQ_NAMES; i++) {
        if (irq_names[i].len == n && irq_names[i].name[0] == p[0] &&
            !memcmp(irq_names[i].name, p, n)) {
            *irq = irq_names[i].irq;
            *pp = w;
            return true;
        }
    }
    return false;
}

static void parse_exit(const char *s, const char *p, const char *e,
                       ftrace_line *o)
{
    const char *what;
    if (!LIT(&p, e, "exit=")) {
        what = "'exit='";
        goto bad;
    }
    if (!irq_from(&p, e, &o->u.exit.irq)) {
        what = "a BookE interrupt name (PROGRAM, DTLB_MISS, ...) or 0x number";
        goto bad;
    }
    if (!LIT(&p, e, " | pc=0x") || !hex32(&p, e, &o->u.exit.pc)) {
        what = "' | pc=0x' and a 32-bit hex number";
        goto bad;
    }
    if (!LIT(&p, e, " | msr=0x") || !hex32(&p, e, &o->u.exit.msr)) {
        what = "' | msr=0x' and a 32-bit hex number";
        goto bad;
    }
    if (!LIT(&p, e, " | dar=0x") || !hex32(&p, e, &o->u.exit.dar)) {
        what = "' | dar=0x' and a 32-bit hex number";
        goto bad;
    }
    if (!LIT(&p, e, " | last_inst=0x") || !hex32(&p, e, &o->u.exit.last_inst)) {
        what = "' | last_inst=0x' and a 32-bit hex number";
        goto bad;
    }
    if (!at_end(p, e)) {
        what = "the end of the line";
        goto bad;
    }
    o->kind = FTL_EXIT;
    return;
bad:
    malformed(o, FTL_EXIT, what, s, p);
}

static void parse_instr(const char *s, const char *p, const char *e,
                        ftrace_line *o)
{
    const char *what;
    if (!LIT(&p, e, "inst ") || !dec32(&p, e, &o->u.instr.inst)) {
        what = "'inst ' and a decimal instruction word";
        goto bad;
    }
    if (!LIT(&p, e, " pc 0x") || !hex32(&p, e, &o->u.instr.pc)) {
        what = "' pc 0x' and a 32-bit hex number";
        goto bad;
    }
    if (!LIT(&p, e, " emulate ") || !dec32(&p, e, &o->u.instr.emulate)) {
        what = "' emulate ' and a decimal number";
        goto bad;
    }
    if (!at_end(p, e)) {
        what = "the end of the line";
        goto bad;
    }
    o->kind = FTL_PPC_INSTR;
    return;
bad:
    malformed(o, FTL_PPC_INSTR, what, s, p);
}

/* kvm_gtlb_write / kvm_stlb_write: "<first> %u tid %u w0 %u w1 %u w2 %u" */
static void parse_tlb(const char *s, const char *p, const char *e,
                      ftrace_line *o, ftrace_kind k)
{
    const char *what;
    bool g = k == FTL_GTLB_WRITE;
    if (!(g ? LIT(&p, e, "gtlb_index ") : LIT(&p, e, "victim ")) ||
        !dec32(&p, e, &o->u.tlb.index)) {
        what = g ? "'gtlb_index ' and a decimal number"
                 : "'victim ' and a decimal number";
        goto bad;
    }
    if (!LIT(&p, e, " tid ") || !dec32(&p, e, &o->u.tlb.tid)) {
        what = "' tid ' and a decimal number";
        goto bad;
    }
    if (!LIT(&p, e, " w0 ") || !dec32(&p, e, &o->u.tlb.w0)) {
        what = "' w0 ' and a decimal word";
        goto bad;
    }
    if (!LIT(&p, e, " w1 ") || !dec32(&p, e, &o->u.tlb.w1)) {
        what = "' w1 ' and a decimal word";
        goto bad;
    }
    if (!LIT(&p, e, " w2 ") || !dec32(&p, e, &o->u.tlb.w2)) {
        what = "' w2 ' and a decimal word";
        goto bad;
    }
    if (!at_end(p, e)) {
        what = "the end of the line";
        goto bad;
    }
    o->kind = k;
    return;
bad:
    malformed(o, k, what, s, p);
}

static void parse_inval(const char *s, const char *p, const char *e,
                        ftrace_line *o)
{
    if (!LIT(&p, e, "stlb_index ") || !dec32(&p, e, &o->u.inval.index) ||
        !at_end(p, e)) {
        malformed(o, FTL_STLB_INVAL, "'stlb_index ' and a decimal number", s,
                  p);
        return;
    }
    o->kind = FTL_STLB_INVAL;
}

static void parse_user(const char *s, const char *p, const char *e,
                       ftrace_line *o)
{
    const char *what = "'reason ' and a KVM_EXIT_* name, restart or error";
    if (!LIT(&p, e, "reason "))
        goto bad;
    const char *w = p;
    while (w < e && *w != ' ')
        w++;
    size_t n = (size_t)(w - p);
    ftrace_user_reason r;
#define IS(str) (n == sizeof(str) - 1 && !memcmp(p, str, n))
    if (IS("KVM_EXIT_MMIO"))
        r = FTU_MMIO;
    else if (IS("KVM_EXIT_DCR"))
        r = FTU_DCR;
    else if (IS("KVM_EXIT_DEBUG"))
        r = FTU_DEBUG;
    else if (IS("KVM_EXIT_INTR") || IS("restart"))
        r = FTU_INTR;
    else if (IS("error"))
        r = FTU_ERROR;
    else if (n > 9 && !memcmp(p, "KVM_EXIT_", 9))
        r = FTU_OTHER;
    else if (n > 0 && is_digit(*p))
        r = FTU_OTHER; /* a reason number __print_symbolic did not know */
    else
        goto bad;
#undef IS
    p = w;
    bool neg = false;
    uint32_t code;
    if (!LIT(&p, e, " (")) {
        what = "' (' and the reason or errno number";
        goto bad;
    }
    if (p < e && *p == '-')
        neg = true, p++;
    if (!dec32(&p, e, &code) || code > 0x7fffffffu || !LIT(&p, e, ")") ||
        !at_end(p, e)) {
        what = "a number and ')' at the end";
        goto bad;
    }
    o->u.user.reason = r;
    o->u.user.code = neg ? -(int32_t)code : (int32_t)code;
    o->kind = FTL_USER_EXIT;
    return;
bad:
    malformed(o, FTL_USER_EXIT, what, s, p);
}

/* "CPU:N [LOST M EVENTS]" (trace, trace_pipe), "CPU:N [M EVENTS DROPPED]"
 * (trace-cmd); p is after "CPU:". */
static bool parse_lost(const char *p, const char *e, ftrace_line *o)
{
    if (!dec32(&p, e, &o->u.lost.cpu) || !LIT(&p, e, " ["))
        return false;
    o->u.lost.events = 0;
    if (LIT(&p, e, "LOST ")) {
        if (LIT(&p, e, "EVENTS]"))
            return at_end(p, e);
        return dec64(&p, e, &o->u.lost.events) && LIT(&p, e, " EVENTS]") &&
               at_end(p, e);
    }
    return dec64(&p, e, &o->u.lost.events) && LIT(&p, e, " EVENTS DROPPED]") &&
           at_end(p, e);
}

/* The event name between p and the ':' that ends it. */
static ftrace_kind event_kind(const char *p, size_t n)
{
    if (n < 8 || memcmp(p, "kvm_", 4) != 0)
        return FTL_OTHER;
    switch (n) {
    case 8: return !memcmp(p, "kvm_exit", 8) ? FTL_EXIT : FTL_OTHER;
    case 13: return !memcmp(p, "kvm_ppc_instr", 13) ? FTL_PPC_INSTR : FTL_OTHER;
    case 14:
        if (!memcmp(p, "kvm_gtlb_write", 14))
            return FTL_GTLB_WRITE;
        if (!memcmp(p, "kvm_stlb_write", 14))
            return FTL_STLB_WRITE;
        if (!memcmp(p, "kvm_stlb_inval", 14))
            return FTL_STLB_INVAL;
        return FTL_OTHER;
    case 18:
        return !memcmp(p, "kvm_userspace_exit", 18) ? FTL_USER_EXIT : FTL_OTHER;
    default: return FTL_OTHER;
    }
}

/* A line whose prefix does not parse: one of our events named in it makes
 * it a malformed line (reported), anything else is unrecognised text. */
static void bad_prefix(const char *s, const char *e, const char *stop,
                       const char *what, ftrace_line *o)
{
    const char *p = s;
    while ((p = memchr(p, 'k', (size_t)(e - p))) != NULL) {
        const char *q = p;
        while (q < e && *q != ':' && *q != ' ')
            q++;
        if (q < e && *q == ':') {
            ftrace_kind k = event_kind(p, (size_t)(q - p));
            if (k != FTL_OTHER && (p == s || p[-1] == ' ')) {
                malformed(o, k, what, s, stop);
                return;
            }
        }
        p++;
    }
    o->kind = FTL_COMMENT;
}

void ftrace_parse_line(const char *s, size_t len, ftrace_line *o)
{
    const char *p = s, *e = s + len;
    o->kind = FTL_COMMENT;
    p = skip_blanks(p, e);
    if (p == e) {
        o->kind = FTL_BLANK;
        return;
    }
    if (*p == '#')
        return;
    if (*p == 'C' && LIT(&p, e, "CPU:")) {
        if (parse_lost(p, e, o))
            o->kind = FTL_LOST;
        return;
    }
    /* the CPU column "[ddd]" after a blank; the task name before it may
     * itself contain blanks ("CPU 0/KVM") */
    const char *lb = p, *q;
    uint32_t cpu;
    for (;;) {
        lb = memchr(lb, '[', (size_t)(e - lb));
        if (!lb) {
            bad_prefix(s, e, e, "the '[cpu]' column of the prefix", o);
            return;
        }
        q = lb + 1;
        if (lb > p && lb[-1] == ' ' && dec32(&q, e, &cpu) && q < e && *q == ']')
            break;
        lb++;
    }
    o->cpu = cpu;
    /* task-pid, with an optional "(tgid)" after it */
    const char *te = lb;
    while (te > p && te[-1] == ' ')
        te--;
    if (te > p && te[-1] == ')') {
        const char *op = te - 1;
        while (op > p && op[-1] != '(')
            op--;
        if (op == p) {
            bad_prefix(s, e, te, "'(' before the tgid", o);
            return;
        }
        te = op - 1;
        while (te > p && te[-1] == ' ')
            te--;
    }
    const char *d = te;
    while (d > p && is_digit(d[-1]))
        d--;
    if (d == te || d == p || d[-1] != '-' || te - d > 10) {
        bad_prefix(s, e, d, "'task-pid' before the [cpu] column", o);
        return;
    }
    uint32_t pid;
    const char *dp = d;
    if (!dec32(&dp, te, &pid)) {
        bad_prefix(s, e, d, "a pid", o);
        return;
    }
    o->pid = pid;
    /* optional flags ("d..1", "....", "dNh2."), then seconds.fraction: */
    p = skip_blanks(q + 1, e);
    if (p < e && !is_digit(*p)) {
        while (p < e && *p != ' ')
            p++;
        p = skip_blanks(p, e);
    }
    uint64_t sec = 0, frac = 0;
    unsigned nsec = 0, nfrac = 0;
    while (p < e && is_digit(*p) && nsec < 11)
        sec = sec * 10u + (uint64_t)(*p++ - '0'), nsec++;
    if (nsec == 0 || nsec > 10 || p == e || *p != '.') {
        bad_prefix(s, e, p, "a timestamp 'seconds.fraction:'", o);
        return;
    }
    p++;
    while (p < e && is_digit(*p) && nfrac < 10)
        frac = frac * 10u + (uint64_t)(*p++ - '0'), nfrac++;
    if (nfrac == 0 || nfrac > 9 || p == e || *p != ':') {
        bad_prefix(s, e, p, "1 to 9 decimals and ':' after the timestamp", o);
        return;
    }
    static const uint32_t scale[10] = {
        1000000000u, 100000000u, 10000000u, 1000000u, 100000u,
        10000u,      1000u,      100u,      10u,      1u};
    o->ns = sec * 1000000000u + frac * scale[nfrac];
    p = skip_blanks(p + 1, e);
    const char *name = p;
    while (p < e && *p != ':' && *p != ' ')
        p++;
    if (p == e || *p != ':' || p == name) {
        o->kind = FTL_COMMENT;
        return;
    }
    ftrace_kind k = event_kind(name, (size_t)(p - name));
    p = skip_blanks(p + 1, e);
    switch (k) {
    case FTL_EXIT: parse_exit(s, p, e, o); break;
    case FTL_PPC_INSTR: parse_instr(s, p, e, o); break;
    case FTL_GTLB_WRITE:
    case FTL_STLB_WRITE: parse_tlb(s, p, e, o, k); break;
    case FTL_STLB_INVAL: parse_inval(s, p, e, o); break;
    case FTL_USER_EXIT: parse_user(s, p, e, o); break;
    default: o->kind = FTL_OTHER; break;
    }
}

/* ---- reader ---- */
#define READ_CHUNK (1u << 20)

struct ftrace_reader {
    int fd; /* -1 for memory */
    bool own_fd;
    const char *name;
    char *buf; /* file mode: owned; memory mode: the caller's bytes */
    size_t cap, start, end;
    bool eof_in;   /* no more bytes to read into buf */
    bool skipping; /* dropping the rest of a cut line */
};

sim_err ftrace_reader_open(ftrace_reader **r, const char *path)
{
    *r = NULL;
    bool std = !strcmp(path, "-");
    int fd = std ? 0 : open(path, O_RDONLY);
    if (fd < 0)
        return sim_fail(SIM_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
    ftrace_reader *x = calloc(1, sizeof *x);
    char *buf = malloc(READ_CHUNK + FTRACE_LINE_MAX);
    if (!x || !buf) {
        free(x);
        free(buf);
        if (!std)
            close(fd);
        return sim_fail(SIM_ERR_NOMEM, "%s: out of memory", path);
    }
    x->fd = fd;
    x->own_fd = !std;
    x->name = std ? "<stdin>" : path;
    x->buf = buf;
    x->cap = READ_CHUNK + FTRACE_LINE_MAX;
    *r = x;
    return SIM_OK;
}

sim_err ftrace_reader_open_mem(ftrace_reader **r, const char *buf, size_t len)
{
    ftrace_reader *x = calloc(1, sizeof *x);
    if (!x)
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    x->fd = -1;
    x->name = "<memory>";
    x->buf = (char *)buf; /* never written in memory mode */
    x->end = x->cap = len;
    x->eof_in = true;
    *r = x;
    return SIM_OK;
}

static SIM_MUST_CHECK sim_err fill(ftrace_reader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    while (r->end < r->cap) {
        ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return sim_fail(SIM_ERR_IO, "%s: read failed: %s", r->name,
                            strerror(errno));
        }
        if (n == 0) {
            r->eof_in = true;
            break;
        }
        r->end += (size_t)n;
        if (r->end - r->start >= READ_CHUNK / 2)
            break; /* enough for many lines: do not block on a pipe */
    }
    return SIM_OK;
}

sim_err ftrace_reader_next(ftrace_reader *r, const char **line, size_t *len,
                           bool *cut, bool *eof)
{
    *line = NULL;
    *len = 0;
    *cut = false;
    *eof = false;
    for (;;) {
        size_t avail = r->end - r->start;
        char *s = r->buf + r->start;
        char *nl = avail ? memchr(s, '\n', avail) : NULL;
        if (r->skipping) {
            if (nl) {
                r->start += (size_t)(nl - s) + 1;
                r->skipping = false;
                continue;
            }
            r->start = r->end;
            if (r->eof_in) {
                *eof = true;
                return SIM_OK;
            }
            sim_err e = fill(r);
            if (e)
                return e;
            continue;
        }
        size_t n;
        if (nl) {
            n = (size_t)(nl - s);
            r->start += n + 1;
        } else if (avail > FTRACE_LINE_MAX || (r->eof_in && avail > 0)) {
            /* the last line without a newline, or a line too long for
             * the buffer whose rest is still to come (dropped) */
            n = avail;
            r->start = r->end;
            r->skipping = !r->eof_in;
        } else if (r->eof_in) {
            *eof = true;
            return SIM_OK;
        } else {
            sim_err e = fill(r);
            if (e)
                return e;
            continue;
        }
        if (n > FTRACE_LINE_MAX) {
            n = FTRACE_LINE_MAX;
            *cut = true;
        }
        if (n && s[n - 1] == '\r')
            n--;
        *line = s;
        *len = n;
        return SIM_OK;
    }
}

void ftrace_reader_close(ftrace_reader *r)
{
    if (!r)
        return;
    if (r->fd >= 0) {
        if (r->own_fd)
            close(r->fd);
        free(r->buf);
    }
    free(r);
}
