/* tracetext: trace.bin records as text lines and back (sim trace dump/pack);
 * the grammar is in docs/trace-format.md, "Text form". */
#include "tracetext.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sim_config.h"
#include "tlb440.h"

typedef unsigned long long ull;

static const char *const kind_names[TREC__MAX + 1] = {
    [TREC_EXIT] = "exit",       [TREC_GTLB_WRITE] = "gtlb",
    [TREC_STLB_WRITE] = "stlb", [TREC_STLB_INVAL] = "stlb_inval",
    [TREC_MARKER] = "marker",
};

const char *tracetext_kind_name(unsigned kind)
{
    return kind >= 1 && kind <= TREC__MAX ? kind_names[kind] : NULL;
}

/* Exit flags in bit order; `flags=-` when none is set. */
static const struct {
    unsigned bit;
    const char *name;
} flag_names[] = {
    {TRF_HANDLER_KNOWN, "H"},
    {TRF_GUEST_KNOWN, "G"},
    {TRF_GUEST_PR, "PR"},
    {TRF_USERSPACE, "U"},
    {TRF_GUEST_INSNS, "I"},
    {TRF_IDLE, "W"},
};
#define N_FLAGS (sizeof flag_names / sizeof flag_names[0])

/* ======================= dump ======================= */

static void write_str(FILE *f, const char *s, size_t size)
{
    size_t n = strnlen(s, size);
    putc('"', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\')
            putc('\\', f);
        putc(s[i], f);
    }
    putc('"', f);
}

void tracetext_write_header(FILE *f, const trace_header *h)
{
    const char *src = trace_source_name(h->source);
    fprintf(f, "%s\nheader version=%u source=%s tb_hz=%llu core_hz=%llu",
            TRACETEXT_FIRST_LINE, TRACE_VERSION, src ? src : "unknown",
            (ull)h->tb_hz, (ull)h->core_hz);
    fputs(" workload=", f);
    write_str(f, h->workload, sizeof h->workload);
    fputs(" tool_version=", f);
    write_str(f, h->tool_version, sizeof h->tool_version);
    fputs(" cost_label=", f);
    write_str(f, h->cost_label, sizeof h->cost_label);
    putc('\n', f);
}

void tracetext_write_rec(FILE *f, const trace_rec *r)
{
    switch (r->kind) {
    case TREC_EXIT: {
        char fl[16] = "-";
        size_t n = 0;
        for (size_t i = 0; i < N_FLAGS; i++)
            if (r->flags & flag_names[i].bit)
                n += (size_t)snprintf(fl + n, sizeof fl - n, "%s%s",
                                      n ? "," : "", flag_names[i].name);
        const char *tn = exit_name((exit_type)r->type);
        fprintf(f,
                "exit %s irq=%u pc=0x%08x inst=0x%08x addr=0x%08x tb=%llu "
                "handler=%u guest=%u flags=%s\n",
                tn ? tn : "?", r->irq, r->pc, r->inst, r->addr, (ull)r->tb,
                r->handler, r->guest, fl);
        break;
    }
    case TREC_GTLB_WRITE:
    case TREC_STLB_WRITE:
        fprintf(f,
                "%s index=%u tid=%u w0=0x%08x w1=0x%08x w2=0x%08x "
                "tb=%llu\n",
                kind_names[r->kind], r->type, r->irq, r->pc, r->inst, r->addr,
                (ull)r->tb);
        break;
    case TREC_STLB_INVAL:
        fprintf(f, "stlb_inval slot=%u tb=%llu\n", r->type, (ull)r->tb);
        break;
    case TREC_MARKER:
        fprintf(f, "marker id=%u value=%u tb=%llu\n", r->type, r->handler,
                (ull)r->tb);
        break;
    default:
        /* not reachable for checked records; a comment keeps pack happy */
        fprintf(f, "# invalid record of kind %u\n", r->kind);
        break;
    }
}

static sim_err dump_header(void *out, const trace_header *h)
{
    tracetext_write_header(out, h);
    return SIM_OK;
}

static sim_err dump_chunk(void *out, const trace_rec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tracetext_write_rec(out, &recs[i]);
    return SIM_OK;
}

sim_err tracetext_dump(const char *path, FILE *out,
                       trace_progress_fn progress, void *ctx)
{
    trace_pass p = {.ctx = out,
                    .header = dump_header,
                    .chunk = dump_chunk,
                    .progress = progress,
                    .progress_ctx = ctx};
    return trace_pass_file(path, &p, NULL);
}

/* ======================= pack ======================= */

typedef struct parser {
    const char *name;
    FILE *f; /* or the buffer below */
    const char *buf;
    size_t len, pos;
    unsigned line; /* number of the line in text, 1-based */
    char text[TRACETEXT_LINE_MAX + 1];
    const char *out_path;
    trace_writer *w; /* opened by the header line */
    unsigned header_line;
    trace_progress_fn progress;
    void *progress_ctx;
} parser;

/* "name:line:col: message" */
__attribute__((format(printf, 4, 5))) static sim_err
perr(const parser *p, sim_err e, unsigned col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (col)
        return sim_fail(e, "%s:%u:%u: %s", p->name, p->line, col, msg);
    return sim_fail(e, "%s:%u: %s", p->name, p->line, msg);
}

static int getch(parser *p)
{
    if (p->f)
        return getc_unlocked(p->f);
    return p->pos < p->len ? (unsigned char)p->buf[p->pos++] : EOF;
}

/* Reads the next line into p->text (without "\n" or "\r\n"); *eof at the
 * end of the input. A NUL byte or an over-long line is an error: the input
 * is not a text trace, and memory stays bounded. */
static sim_err read_line(parser *p, bool *eof)
{
    size_t n = 0;
    int c;
    *eof = false;
    p->line++;
    while ((c = getch(p)) != '\n') {
        if (c == EOF) {
            if (p->f && ferror(p->f))
                return perr(p, SIM_ERR_IO, 0, "read error");
            if (n == 0) {
                *eof = true;
                return SIM_OK;
            }
            break;
        }
        if (c == '\0')
            return perr(p, SIM_ERR_FORMAT, (unsigned)n + 1,
                        "NUL byte: this is not a text trace (a binary trace "
                        "is read by `sim trace dump`)");
        if (n == TRACETEXT_LINE_MAX)
            return perr(p, SIM_ERR_FORMAT, 0, "line longer than %u characters",
                        TRACETEXT_LINE_MAX);
        p->text[n++] = (char)c;
    }
    if (n && p->text[n - 1] == '\r')
        n--;
    p->text[n] = '\0';
    return SIM_OK;
}

typedef struct tok {
    const char *s;
    size_t n;
    unsigned col; /* 1-based */
} tok;

/* Next whitespace-separated token; a double-quoted part may hold blanks. */
static bool next_tok(const char *line, size_t *pos, tok *t)
{
    size_t i = *pos;
    while (line[i] == ' ' || line[i] == '\t')
        i++;
    if (!line[i])
        return false;
    size_t start = i;
    bool quoted = false;
    while (line[i] && (quoted || (line[i] != ' ' && line[i] != '\t'))) {
        if (quoted && line[i] == '\\' && line[i + 1]) {
            i += 2;
            continue;
        }
        if (line[i] == '"')
            quoted = !quoted;
        i++;
    }
    t->s = line + start;
    t->n = i - start;
    t->col = (unsigned)start + 1;
    *pos = i;
    return true;
}

static bool tok_is(const tok *t, const char *s)
{
    return strlen(s) == t->n && memcmp(t->s, s, t->n) == 0;
}

/* Splits key=value; false if there is no '='. */
static bool split_kv(const tok *t, tok *k, tok *v)
{
    const char *eq = memchr(t->s, '=', t->n);
    if (!eq)
        return false;
    *k = (tok){t->s, (size_t)(eq - t->s), t->col};
    *v = (tok){eq + 1, t->n - k->n - 1, t->col + (unsigned)k->n + 1};
    return true;
}

/* The next key=value token of the line at *pos into k and v: true; false
 * at the line's end (*e SIM_OK) or, with *e the error naming its column,
 * at a token without '='. */
static bool next_kv(const parser *p, size_t *pos, tok *k, tok *v, sim_err *e)
{
    tok t;
    *e = SIM_OK;
    if (!next_tok(p->text, pos, &t))
        return false;
    if (split_kv(&t, k, v))
        return true;
    *e = perr(p, SIM_ERR_FORMAT, t.col, "expected key=value, found '%.*s'",
              (int)(t.n > 40 ? 40 : t.n), t.s);
    return false;
}

/* Decimal or 0x hex, no sign, no suffix, <= max. */
static bool parse_num(const tok *t, uint64_t max, uint64_t *v)
{
    const char *s = t->s;
    size_t n = t->n, i = 0;
    uint64_t x = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (i = 2; i < n; i++) {
            unsigned d;
            if (s[i] >= '0' && s[i] <= '9')
                d = (unsigned)(s[i] - '0');
            else if (s[i] >= 'a' && s[i] <= 'f')
                d = (unsigned)(s[i] - 'a' + 10);
            else if (s[i] >= 'A' && s[i] <= 'F')
                d = (unsigned)(s[i] - 'A' + 10);
            else
                return false;
            if (x > UINT64_MAX >> 4)
                return false;
            x = x << 4 | d;
        }
    } else {
        if (n == 0)
            return false;
        for (i = 0; i < n; i++) {
            if (s[i] < '0' || s[i] > '9')
                return false;
            unsigned d = (unsigned)(s[i] - '0');
            if (x > (UINT64_MAX - d) / 10)
                return false;
            x = x * 10 + d;
        }
    }
    if (x > max)
        return false;
    *v = x;
    return true;
}

static sim_err num_error(const parser *p, const tok *k, const tok *v,
                         uint64_t max)
{
    return perr(p, SIM_ERR_RANGE, v->col,
                "%.*s: expected a number 0..%llu "
                "(decimal or 0x hex), found '%.*s'",
                (int)k->n, k->s, (ull)max, (int)(v->n > 40 ? 40 : v->n), v->s);
}

/* A quoted string with \" and \\ escapes, printable ASCII, < size chars. */
static sim_err parse_str(const parser *p, const tok *k, const tok *v, char *dst,
                         size_t size)
{
    const char *s = v->s;
    size_t n = v->n, o = 0, i = 1;
    if (n == 0 || s[0] != '"')
        return perr(p, SIM_ERR_FORMAT, v->col,
                    "%.*s: expected a string in "
                    "double quotes",
                    (int)k->n, k->s);
    memset(dst, 0, size);
    for (;; i++) {
        if (i >= n)
            return perr(p, SIM_ERR_FORMAT, v->col,
                        "%.*s: unterminated "
                        "string: expected a closing \"",
                        (int)k->n, k->s);
        char c = s[i];
        if (c == '"')
            break;
        if (c == '\\') {
            if (i + 1 >= n)
                continue; /* reported as unterminated */
            c = s[++i];
            if (c != '"' && c != '\\')
                return perr(p, SIM_ERR_FORMAT, v->col + (unsigned)i,
                            "%.*s: only \\\" and \\\\ are escapes", (int)k->n,
                            k->s);
        }
        if (c < 0x20 || c > 0x7e)
            return perr(p, SIM_ERR_FORMAT, v->col + (unsigned)i,
                        "%.*s: only printable ASCII is allowed", (int)k->n,
                        k->s);
        if (o + 1 >= size)
            return perr(p, SIM_ERR_RANGE, v->col,
                        "%.*s: longer than %zu "
                        "characters",
                        (int)k->n, k->s, size - 1);
        dst[o++] = c;
    }
    if (i != n - 1)
        return perr(p, SIM_ERR_FORMAT, v->col + (unsigned)i + 1,
                    "%.*s: text "
                    "after the closing quote",
                    (int)k->n, k->s);
    return SIM_OK;
}

/* ---- the header line ---- */
enum {
    H_VERSION,
    H_SOURCE,
    H_TBHZ,
    H_COREHZ,
    H_WORKLOAD,
    H_TOOLVER,
    H_COST,
    H__N
};
static const char *const header_keys[H__N] = {
    "version",  "source",       "tb_hz",     "core_hz",
    "workload", "tool_version", "cost_label"};
#define HEADER_KEYS_TEXT                                                       \
    "version, source, tb_hz, core_hz, workload, tool_version, cost_label"

static sim_err parse_header(parser *p, size_t pos)
{
    if (p->w)
        return perr(p, SIM_ERR_FORMAT, 1,
                    "a second header line (the first "
                    "is line %u)",
                    p->header_line);
    trace_header h;
    memset(&h, 0, sizeof h);
    h.source = TSRC_TEXT;
    snprintf(h.tool_version, sizeof h.tool_version, "%s", SIM_VERSION);
    unsigned seen = 0;
    tok k, v;
    sim_err e;
    while (next_kv(p, &pos, &k, &v, &e)) {
        int key = -1;
        for (int i = 0; i < H__N; i++)
            if (tok_is(&k, header_keys[i]))
                key = i;
        if (key < 0)
            return perr(p, SIM_ERR_FORMAT, k.col,
                        "unknown header key '%.*s': "
                        "expected one of " HEADER_KEYS_TEXT,
                        (int)(k.n > 40 ? 40 : k.n), k.s);
        if (seen & 1u << key)
            return perr(p, SIM_ERR_FORMAT, k.col, "%s= given twice",
                        header_keys[key]);
        seen |= 1u << key;
        uint64_t x;
        switch (key) {
        case H_VERSION:
            if (!parse_num(&v, UINT16_MAX, &x))
                return num_error(p, &k, &v, UINT16_MAX);
            if (x != TRACE_VERSION)
                return perr(
                    p, SIM_ERR_VERSION, v.col,
                    "trace version %llu is "
                    "%s this sim440 (reads version %u)%s",
                    (ull)x, x > TRACE_VERSION ? "newer than" : "too old for",
                    TRACE_VERSION, x > TRACE_VERSION ? ": upgrade sim440" : "");
            break;
        case H_SOURCE: {
            char name[16];
            int src = -1;
            if (v.n < sizeof name) {
                memcpy(name, v.s, v.n);
                name[v.n] = '\0';
                src = trace_source_from_name(name);
            }
            if (src < 0)
                return perr(p, SIM_ERR_FORMAT, v.col,
                            "unknown source '%.*s': "
                            "expected unknown, synth, cpu440, ftrace or text",
                            (int)(v.n > 40 ? 40 : v.n), v.s);
            h.source = (uint32_t)src;
            break;
        }
        case H_TBHZ:
        case H_COREHZ:
            if (!parse_num(&v, UINT64_MAX, &x) || x == 0)
                return perr(p, SIM_ERR_RANGE, v.col,
                            "%s: expected a "
                            "frequency in Hz > 0, found '%.*s'",
                            header_keys[key], (int)(v.n > 40 ? 40 : v.n), v.s);
            *(key == H_TBHZ ? &h.tb_hz : &h.core_hz) = x;
            break;
        case H_WORKLOAD:
            e = parse_str(p, &k, &v, h.workload, sizeof h.workload);
            if (e)
                return e;
            break;
        case H_TOOLVER:
            e = parse_str(p, &k, &v, h.tool_version, sizeof h.tool_version);
            if (e)
                return e;
            break;
        case H_COST:
            e = parse_str(p, &k, &v, h.cost_label, sizeof h.cost_label);
            if (e)
                return e;
            break;
        }
    }
    if (e)
        return e;
    if (!(seen & 1u << H_TBHZ))
        return perr(p, SIM_ERR_FORMAT, 1,
                    "header: missing tb_hz= (the "
                    "timebase frequency in Hz, e.g. tb_hz=667000000)");
    if (!(seen & 1u << H_COREHZ))
        return perr(p, SIM_ERR_FORMAT, 1,
                    "header: missing core_hz= (the core "
                    "clock in Hz, e.g. core_hz=667000000)");
    p->header_line = p->line;
    return trace_writer_open(&p->w, p->out_path, &h);
}

/* ---- record lines ---- */
enum slot {
    S_TYPE,
    S_IRQ,
    S_FLAGS,
    S_PC,
    S_INST,
    S_ADDR,
    S_TB,
    S_HANDLER,
    S_GUEST
};
typedef struct key {
    const char *name;
    enum slot slot;
    uint64_t max;
} key;
#define U8      UINT8_MAX
#define U32     UINT32_MAX
#define U64     UINT64_MAX
#define TLB_MAX 63 /* the guest TLB's 64 entries */
#define SLOT_MAX (TLB440_MAX - 1) /* a shadow's UTLB slot (trace.c) */
static const key exit_keys[] = {
    {"irq", S_IRQ, U8},      {"pc", S_PC, U32},     {"inst", S_INST, U32},
    {"addr", S_ADDR, U32},   {"tb", S_TB, U64},     {"handler", S_HANDLER, U32},
    {"guest", S_GUEST, U32}, {"flags", S_FLAGS, 0}, {NULL, 0, 0}};
static const key tlbw_keys[] = {{"index", S_TYPE, TLB_MAX},
                                {"tid", S_IRQ, U8},
                                {"w0", S_PC, U32},
                                {"w1", S_INST, U32},
                                {"w2", S_ADDR, U32},
                                {"tb", S_TB, U64},
                                {NULL, 0, 0}};
static const key stlbw_keys[] = {{"index", S_TYPE, SLOT_MAX},
                                 {"tid", S_IRQ, U8},
                                 {"w0", S_PC, U32},
                                 {"w1", S_INST, U32},
                                 {"w2", S_ADDR, U32},
                                 {"tb", S_TB, U64},
                                 {NULL, 0, 0}};
static const key inval_keys[] = {
    {"slot", S_TYPE, SLOT_MAX}, {"tb", S_TB, U64}, {NULL, 0, 0}};
static const key marker_keys[] = {{"id", S_TYPE, U8},
                                  {"value", S_HANDLER, U32},
                                  {"tb", S_TB, U64},
                                  {NULL, 0, 0}};
static const key *const kind_keys[TREC__MAX + 1] = {
    [TREC_EXIT] = exit_keys,       [TREC_GTLB_WRITE] = tlbw_keys,
    [TREC_STLB_WRITE] = stlbw_keys, [TREC_STLB_INVAL] = inval_keys,
    [TREC_MARKER] = marker_keys,
};

static void set_slot(trace_rec *r, enum slot s, uint64_t x)
{
    switch (s) {
    case S_TYPE: r->type = (uint8_t)x; break;
    case S_IRQ: r->irq = (uint8_t)x; break;
    case S_FLAGS: r->flags = (uint8_t)x; break;
    case S_PC: r->pc = (uint32_t)x; break;
    case S_INST: r->inst = (uint32_t)x; break;
    case S_ADDR: r->addr = (uint32_t)x; break;
    case S_TB: r->tb = x; break;
    case S_HANDLER: r->handler = (uint32_t)x; break;
    case S_GUEST: r->guest = (uint32_t)x; break;
    }
}

static void keys_text(const key *keys, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (const key *k = keys; k->name && o < n; k++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "", k->name);
}

static sim_err parse_flags(const parser *p, const tok *v, uint64_t *out)
{
    *out = 0;
    if (v->n == 1 && v->s[0] == '-')
        return SIM_OK;
    size_t i = 0;
    while (i <= v->n) {
        size_t j = i;
        while (j < v->n && v->s[j] != ',')
            j++;
        tok f = {v->s + i, j - i, v->col + (unsigned)i};
        size_t k;
        for (k = 0; k < N_FLAGS; k++)
            if (tok_is(&f, flag_names[k].name))
                break;
        if (k == N_FLAGS)
            return perr(p, SIM_ERR_FORMAT, f.col,
                        "flags: unknown flag '%.*s': "
                        "expected H, G, PR, U separated by commas, or -",
                        (int)(f.n > 40 ? 40 : f.n), f.s);
        *out |= flag_names[k].bit;
        i = j + 1;
    }
    return SIM_OK;
}

static sim_err parse_record(parser *p, unsigned kind, size_t pos)
{
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.kind = (uint8_t)kind;
    tok t = {.col = (unsigned)pos + 1}, k, v;
    if (kind == TREC_EXIT) {
        if (!next_tok(p->text, &pos, &t) || memchr(t.s, '=', t.n))
            return perr(p, SIM_ERR_FORMAT, t.col,
                        "expected an exit type "
                        "name after 'exit' (e.g. exit EMULINST ...)");
        int type = exit_from_namen(t.s, (unsigned)t.n);
        if (type < 0) {
            char name[48];
            snprintf(name, sizeof name, "%.*s", (int)(t.n > 40 ? 40 : t.n),
                     t.s);
            return perr(p, SIM_ERR_FORMAT, t.col,
                        "unknown exit type '%s' "
                        "(did you mean %s?)",
                        name, exit_nearest_name(name));
        }
        r.type = (uint8_t)type;
    }
    const key *keys = kind_keys[kind];
    unsigned seen = 0;
    sim_err e;
    while (next_kv(p, &pos, &k, &v, &e)) {
        int i = 0;
        while (keys[i].name && !tok_is(&k, keys[i].name))
            i++;
        if (!keys[i].name) {
            char list[128];
            keys_text(keys, list, sizeof list);
            return perr(p, SIM_ERR_FORMAT, k.col,
                        "unknown key '%.*s' for %s: "
                        "expected %s",
                        (int)(k.n > 40 ? 40 : k.n), k.s, kind_names[kind],
                        list);
        }
        if (seen & 1u << i)
            return perr(p, SIM_ERR_FORMAT, k.col, "%s= given twice",
                        keys[i].name);
        seen |= 1u << i;
        uint64_t x;
        if (keys[i].slot == S_FLAGS) {
            if ((e = parse_flags(p, &v, &x)))
                return e;
        } else if (!parse_num(&v, keys[i].max, &x)) {
            return num_error(p, &k, &v, keys[i].max);
        }
        set_slot(&r, keys[i].slot, x);
    }
    if (e)
        return e;
    bool have_tb = false, have_irq = false;
    for (int i = 0; keys[i].name; i++) {
        if (keys[i].slot == S_TB)
            have_tb = seen & 1u << i;
        if (keys[i].slot == S_IRQ)
            have_irq = seen & 1u << i;
    }
    if (!have_tb)
        return perr(p, SIM_ERR_FORMAT, 1,
                    "%s: missing tb= (every record "
                    "needs its timebase)",
                    kind_names[kind]);
    /* A hand-written exit may leave out irq: the interrupt that normally
     * causes its type. */
    if (kind == TREC_EXIT && !have_irq) {
        int irq = exit_default_irq((exit_type)r.type);
        r.irq = (uint8_t)(irq >= 0 ? irq : 0);
    }
    if ((e = trace_writer_put(p->w, &r))) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", sim_errmsg());
        return perr(p, e, 0, "%s", msg);
    }
    return SIM_OK;
}

static sim_err parse_line(parser *p)
{
    size_t pos = 0;
    tok t;
    if (!next_tok(p->text, &pos, &t) || t.s[0] == '#')
        return SIM_OK; /* blank or comment */
    if (tok_is(&t, "header"))
        return parse_header(p, pos);
    unsigned kind = 0;
    for (unsigned i = 1; i <= TREC__MAX; i++)
        if (tok_is(&t, kind_names[i]))
            kind = i;
    if (!kind)
        return perr(p, SIM_ERR_FORMAT, t.col,
                    "unknown line '%.*s': expected "
                    "header, exit, gtlb, stlb, stlb_inval or marker",
                    (int)(t.n > 40 ? 40 : t.n), t.s);
    if (!p->w)
        return perr(p, SIM_ERR_FORMAT, t.col,
                    "a record before the header "
                    "line: expected 'header tb_hz=... core_hz=...' first");
    return parse_record(p, kind, pos);
}

static sim_err pack_run(parser *p)
{
    for (;;) {
        bool eof;
        sim_err e = read_line(p, &eof);
        if (e)
            return e;
        if (eof)
            break;
        if ((e = parse_line(p)))
            return e;
        if (p->progress && p->line % TRACE_PROGRESS_LINES == 0)
            p->progress(p->progress_ctx, p->line, 0);
    }
    if (!p->w)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: no header line: expected 'header "
                        "tb_hz=... core_hz=...' before the records",
                        p->name);
    trace_writer *w = p->w;
    p->w = NULL;
    return trace_writer_close(w);
}

static sim_err pack(parser *p)
{
    sim_err e = pack_run(p);
    if (e && p->w) {
        trace_writer_abort(p->w);
        p->w = NULL;
    }
    return e;
}

sim_err tracetext_pack(const char *name, FILE *in, const char *out_path,
                       trace_progress_fn progress, void *ctx)
{
    parser p = {.name = name, .f = in, .out_path = out_path,
                .progress = progress, .progress_ctx = ctx};
    return pack(&p);
}

sim_err tracetext_pack_buf(const char *name, const char *buf, size_t len,
                           const char *out_path)
{
    parser p = {.name = name, .buf = buf, .len = len, .out_path = out_path};
    return pack(&p);
}
