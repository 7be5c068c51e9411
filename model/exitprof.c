/* exitprof: exit profiles (exitprof.h) - built from a cpu440 trace, written
 * and read as text, and the ones built into sim. */
#include "exitprof.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "insn440.h"
#include "trace.h"

/* ---- building ---- */

typedef struct pair {
    uint32_t type;
    uint32_t v;
    uint32_t pr; /* the exit was in problem state */
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

static int cmp_count_desc(const void *a, const void *b)
{
    const xp_value *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v; /* a stable order */
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Counts of the (type, value) pairs into table[t * cap + k], the `cap`
 * most frequent values of each type kept; nv[t] gets how many. */
static sim_err tally(pair *ps, size_t n, int cap, int *nv, xp_value *table)
{
    qsort(ps, n, sizeof *ps, cmp_pair);
    xp_value *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return sim_fail(SIM_ERR_NOMEM, "profile: out of memory");
    size_t i = 0;
    while (i < n) {
        uint32_t t = ps[i].type;
        size_t k = 0;
        while (i < n && ps[i].type == t) {
            size_t j = i;
            while (j < n && ps[j].type == t && ps[j].v == ps[i].v)
                j++;
            uint64_t pr = 0;
            for (size_t q = i; q < j; q++)
                pr += ps[q].pr;
            tmp[k++] = (xp_value){ps[i].v, j - i, pr};
            i = j;
        }
        qsort(tmp, k, sizeof *tmp, cmp_count_desc);
        if (k > (size_t)cap)
            k = (size_t)cap;
        nv[t] = (int)k;
        memcpy(table + (size_t)t * (size_t)cap, tmp, k * sizeof *tmp);
    }
    free(tmp);
    return SIM_OK;
}

/* Whether an exit of type t carries an instruction word the model prices
 * (the emulation path) and whether it carries an address of a miss or
 * fault (the soft TLB). */
static bool has_word(exit_type t)
{
    return exit_is_emul(t) || t == EXIT_EMULINST || t == EXIT_DCR;
}
static bool has_page(exit_type t)
{
    switch (t) {
    case EXIT_ITLBVIRT:
    case EXIT_ITLBREAL:
    case EXIT_DTLBVIRT:
    case EXIT_DTLBREAL:
    case EXIT_ISI:
    case EXIT_DSI:
    case EXIT_MMIO: return true;
    default: return false;
    }
}

static sim_err grow(void **a, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return SIM_OK;
    size_t nc = *cap ? *cap * 2 : 4096;
    void *b = realloc(*a, nc * size);
    if (!b)
        return sim_fail(SIM_ERR_NOMEM, "profile: out of memory");
    *a = b;
    *cap = nc;
    return SIM_OK;
}

/* ---- the guest's refill handlers ---- */

/* Exits KVM/440 delivers to the guest: its own handler runs and ends in
 * an rfi the host emulates. */
static bool delivered(exit_type t)
{
    switch (t) {
    case EXIT_ITLBREAL:
    case EXIT_DTLBREAL:
    case EXIT_ISI:
    case EXIT_DSI:
    case EXIT_SYSCALL:
    case EXIT_USR_PR_INST:
    case EXIT_FP_UNAVAIL: return true;
    default: return false;
    }
}

/* The misses whose handler sequences a profile keeps: the guest's TLB
 * refill (head_44x.S's InstructionTLBError / DataTLBError). */
static bool refill_miss(exit_type t)
{
    return t == EXIT_ITLBREAL || t == EXIT_DTLBREAL;
}

/* One finished handler, as it is collected. */
typedef struct hseq {
    uint32_t miss;
    xp_seq s;
} hseq;

static int cmp_hseq(const void *a, const void *b)
{
    const hseq *x = a, *y = b;
    if (x->miss != y->miss)
        return x->miss < y->miss ? -1 : 1;
    if (x->s.len != y->s.len)
        return x->s.len < y->s.len ? -1 : 1;
    int c = memcmp(x->s.type, y->s.type, (size_t)x->s.len);
    if (c)
        return c;
    return memcmp(x->s.word, y->s.word, (size_t)x->s.len * sizeof x->s.word[0]);
}

static int cmp_seq_desc(const void *a, const void *b)
{
    const xp_seq *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    if (x->len != y->len) /* a stable order */
        return x->len < y->len ? -1 : 1;
    int c = memcmp(x->type, y->type, (size_t)x->len);
    return c ? c : memcmp(x->word, y->word, (size_t)x->len * sizeof x->word[0]);
}

/* The distinct sequences of each miss type, counted; the XP_MAX_SEQ most
 * frequent of each kept in p. */
static sim_err tally_seq(exitprof *p, hseq *hs, size_t n)
{
    qsort(hs, n, sizeof *hs, cmp_hseq);
    xp_seq *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return sim_fail(SIM_ERR_NOMEM, "profile: out of memory");
    size_t i = 0;
    while (i < n) {
        uint32_t m = hs[i].miss;
        size_t k = 0;
        while (i < n && hs[i].miss == m) {
            size_t j = i;
            while (j < n && hs[j].miss == m && !cmp_hseq(&hs[j], &hs[i]))
                j++;
            tmp[k] = hs[i].s;
            tmp[k++].count = j - i;
            i = j;
        }
        qsort(tmp, k, sizeof *tmp, cmp_seq_desc);
        if (k > XP_MAX_SEQ)
            k = XP_MAX_SEQ;
        p->nseq[m] = (int)k;
        memcpy(p->seq[m], tmp, k * sizeof *tmp);
    }
    free(tmp);
    return SIM_OK;
}

/* The state of one exitprof_build pass. */
typedef struct build_ctx {
    exitprof *p;
    const char *path;
    pair *words, *pages;
    uint32_t *runs;
    size_t nw, cw, np, cp, nr, cr;
    /* the refill handler being followed: its miss (-1: none) and its
     * emulated exits so far */
    hseq *hs, cur;
    size_t nh, ch;
    int open;
} build_ctx;

static sim_err build_header(void *ctx, const trace_header *h)
{
    build_ctx *c = ctx;
    memcpy(c->p->workload, h->workload, sizeof c->p->workload - 1);
    if (h->source != TSRC_CPU440 || strncmp(h->cost_label, "flat", 4) != 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: a profile is made from a plain `sim record` "
                        "trace (cpu440, flat costs: one guest tick per "
                        "guest instruction); this one is from %s with "
                        "costs '%s'",
                        c->path,
                        trace_source_name(h->source)
                            ? trace_source_name(h->source)
                            : "an unknown source",
                        h->cost_label);
    return SIM_OK;
}

/* A delivered refill miss opens a handler; its emulated exits (not DCR)
 * join it up to its rfi, which keeps it. */
static sim_err build_handler(build_ctx *c, const trace_rec *r, exit_type t)
{
    if (delivered(t)) {
        /* a handler still open left its leaf path: not kept */
        c->open = refill_miss(t) ? (int)t : -1;
        if (c->open >= 0)
            c->cur = (hseq){.miss = (uint32_t)t};
        return SIM_OK;
    }
    if (c->open < 0 || t == EXIT_DCR || !has_word(t) || !r->inst)
        return SIM_OK;
    xp_seq *q = &c->cur.s;
    if (q->len == XP_SEQ_LEN) {
        c->open = -1; /* longer than a refill: not kept */
        return SIM_OK;
    }
    q->type[q->len] = (uint8_t)t;
    q->word[q->len++] = r->inst;
    if (insn440_decode(r->inst) != INSN_RFI)
        return SIM_OK;
    sim_err e = grow((void **)&c->hs, &c->ch, c->nh, sizeof *c->hs);
    if (e == SIM_OK)
        c->hs[c->nh++] = c->cur;
    c->open = -1;
    return e;
}

static sim_err build_chunk(void *ctx, const trace_rec *recs, size_t n)
{
    build_ctx *c = ctx;
    exitprof *p = c->p;
    sim_err e = SIM_OK;
    for (size_t i = 0; i < n && e == SIM_OK; i++) {
        const trace_rec *r = &recs[i];
        if (r->kind == TREC_GTLB_WRITE) {
            if (p->ngtlb < XP_MAX_GTLB)
                p->gtlb[p->ngtlb++] =
                    (xp_gtlb){r->type, r->irq, r->pc, r->inst, r->addr};
            continue;
        }
        if (r->kind != TREC_EXIT)
            continue;
        exit_type t = (exit_type)r->type;
        p->exits++;
        p->count[t]++;
        p->pr[t] += (r->flags & TRF_GUEST_PR) != 0;
        if ((e = build_handler(c, r, t)))
            break;
        if (has_word(t) && r->inst) {
            if ((e = grow((void **)&c->words, &c->cw, c->nw, sizeof *c->words)))
                break;
            c->words[c->nw++] = (pair){t, r->inst, 0};
        }
        uint32_t a = r->addr;
        if ((t == EXIT_ITLBVIRT || t == EXIT_ITLBREAL || t == EXIT_ISI) && !a)
            a = r->pc;
        if (has_page(t)) {
            if ((e = grow((void **)&c->pages, &c->cp, c->np, sizeof *c->pages)))
                break;
            c->pages[c->np++] =
                (pair){t, a & ~0xfffu, (r->flags & TRF_GUEST_PR) != 0};
        }
        if ((e = grow((void **)&c->runs, &c->cr, c->nr, sizeof *c->runs)))
            break;
        c->runs[c->nr++] = r->guest;
    }
    return e;
}

sim_err exitprof_build(exitprof *p, const char *path, const char *name,
                       const char *source, const char *assumes)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->source, sizeof p->source, "%s", source ? source : "");
    snprintf(p->assumes, sizeof p->assumes, "%s", assumes ? assumes : "");
    build_ctx c = {.p = p, .path = path, .open = -1};
    const trace_pass pass = {.ctx = &c, .header = build_header,
                             .chunk = build_chunk};
    uint64_t nrec;
    sim_err e = trace_pass_file(path, &pass, &nrec);
    if (e == SIM_OK && p->exits == 0)
        e = sim_fail(SIM_ERR_FORMAT, "%s: the trace has no exits", path);
    if (e == SIM_OK)
        e = tally(c.words, c.nw, XP_MAX_WORDS, p->nword, &p->word[0][0]);
    if (e == SIM_OK)
        e = tally(c.pages, c.np, XP_MAX_PAGES, p->npage, &p->page[0][0]);
    if (e == SIM_OK)
        e = tally_seq(p, c.hs, c.nh);
    if (e == SIM_OK) {
        /* the last exit's run is never finished: left out */
        size_t nr = c.nr > 1 ? c.nr - 1 : c.nr;
        qsort(c.runs, nr, sizeof *c.runs, cmp_u32);
        for (int q = 0; q < XP_RUNQ; q++)
            p->runq[q] = c.runs[(size_t)((double)(nr - 1) * q / (XP_RUNQ - 1))];
    }
    free(c.words);
    free(c.pages);
    free(c.runs);
    free(c.hs);
    return e;
}

/* ---- the wall-time rates ---- */

sim_err exitprof_slope(const double *x, const double *y, int n,
                       double *slope, double *se)
{
    *slope = *se = 0;
    bool differ = false;
    for (int i = 1; i < n; i++)
        differ |= x[i] != x[0];
    if (n < 2 || !differ)
        return sim_fail(SIM_ERR_FORMAT, "profile: the wall-time fit needs "
                        "recordings of different durations");
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11,
                   &sumsq);
    *slope = c1;
    *se = sqrt(cov11); /* from the scatter about the line */
    return SIM_OK;
}

/* The guest's decrementer tick: its handler acknowledges it with an mtspr
 * to TSR (SPR 336: Linux's timer_interrupt, workloads/guest's tick), an
 * emulated instruction under KVM/440. */
static bool is_tick_ack(const trace_rec *r)
{
    return has_word((exit_type)r->type) &&
           insn440_decode_op(r->inst) == INSN_OP_MTSPR &&
           insn440_spr(r->inst) == 336;
}

/* The state of one wall_scan pass. */
typedef struct wall_ctx {
    const char *path, *workload;
    xp_wallrun *w;
    uint64_t *count;
    uint64_t first, end, tb_hz;
} wall_ctx;

static sim_err wall_header(void *ctx, const trace_header *h)
{
    wall_ctx *c = ctx;
    c->tb_hz = h->tb_hz;
    if (h->source != TSRC_CPU440 ||
        strncmp(h->cost_label, "cycle model", 11) != 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: the wall-time rates are measured on `sim record "
                        "--model` traces (cpu440, cycle model: the guest's "
                        "timer runs on the modelled time); this one has "
                        "costs '%s'",
                        c->path, h->cost_label);
    if (c->workload[0] && strcmp(h->workload, c->workload) != 0)
        return sim_fail(SIM_ERR_FORMAT, "%s: a recording of '%s', not of "
                        "the profile's workload '%s'",
                        c->path, h->workload, c->workload);
    return SIM_OK;
}

static sim_err wall_chunk(void *ctx, const trace_rec *recs, size_t n)
{
    wall_ctx *c = ctx;
    for (size_t i = 0; i < n; i++) {
        const trace_rec *r = &recs[i];
        if (r->kind != TREC_EXIT)
            continue;
        if (!c->w->exits)
            c->first = r->tb;
        c->w->exits++;
        c->count[r->type]++;
        c->w->ticks += is_tick_ack(r);
        c->end = r->tb + r->handler + r->guest;
    }
    return SIM_OK;
}

/* One wall recording: its duration, ticks and per-type exit counts. */
static sim_err wall_scan(const char *path, const char *workload,
                         xp_wallrun *w, uint64_t count[EXIT__COUNT])
{
    memset(w, 0, sizeof *w);
    memset(count, 0, EXIT__COUNT * sizeof count[0]);
    wall_ctx c = {.path = path, .workload = workload, .w = w, .count = count};
    const trace_pass pass = {.ctx = &c, .header = wall_header,
                             .chunk = wall_chunk};
    uint64_t nrec;
    sim_err e = trace_pass_file(path, &pass, &nrec);
    if (e == SIM_OK && (!w->exits || c.end <= c.first))
        e = sim_fail(SIM_ERR_FORMAT, "%s: the trace has no exits", path);
    if (e == SIM_OK)
        w->seconds = (double)(c.end - c.first) / (double)c.tb_hz;
    return e;
}

sim_err exitprof_wall(exitprof *p, const char *const *traces, int n)
{
    if (n < 3 || n > XP_MAX_WALL)
        return sim_fail(SIM_ERR_USAGE, "profile: the wall-time fit takes 3 "
                        "to %d recordings, got %d", XP_MAX_WALL, n);
    static uint64_t count[XP_MAX_WALL][EXIT__COUNT];
    double x[XP_MAX_WALL], y[XP_MAX_WALL];
    xp_wallrun runs[XP_MAX_WALL];
    for (int k = 0; k < n; k++) {
        sim_err e = wall_scan(traces[k], p->workload, &runs[k], count[k]);
        if (e != SIM_OK)
            return e; /* p as it was */
        x[k] = runs[k].seconds;
    }
    /* recordings stopped at one --exits N all hold N exits whatever their
     * duration: their counts cannot follow the run's length */
    bool same = true;
    for (int k = 1; k < n; k++)
        same = same && runs[k].exits == runs[0].exits;
    if (same)
        return sim_fail(SIM_ERR_USAGE, "profile: the %d wall-time "
                        "recordings all hold %llu exits: runs cut at one "
                        "--exits N cannot show how counts follow the run's "
                        "length (record each to its end)",
                        n, (unsigned long long)runs[0].exits);
    double rate[EXIT__COUNT];
    /* a slope counts when it is above zero at the 95% level (two-sided t
     * with n - 2 degrees of freedom): a count that moves by a few exits
     * from run to run is noise, not a rate */
    double tcrit = gsl_cdf_tdist_Qinv(0.025, (double)(n - 2));
    for (int t = 0; t < EXIT__COUNT; t++) {
        rate[t] = 0;
        if (exit_flags((exit_type)t) & EXF_TIMED)
            continue; /* the host's clock drives them: whatif's own rule */
        for (int k = 0; k < n; k++)
            y[k] = (double)count[k][t];
        double s, se;
        sim_err e = exitprof_slope(x, y, n, &s, &se);
        if (e != SIM_OK)
            return e;
        rate[t] = s > 0 && s >= tcrit * se ? s : 0;
    }
    p->nwall = n;
    memcpy(p->wallrun, runs, (size_t)n * sizeof runs[0]);
    memcpy(p->wall, rate, sizeof rate);
    p->wall_hz = (double)runs[0].ticks / runs[0].seconds;
    return SIM_OK;
}

/* ---- text ---- */

void exitprof_write(FILE *f, const exitprof *p)
{
    fprintf(f, "# sim440 exit profile v2 (docs/calibration.md); made by "
               "tools/make-profile.sh, not by hand\n");
    fprintf(f, "name %s\n", p->name);
    fprintf(f, "source %s\n", p->source);
    fprintf(f, "assumes %s\n", p->assumes);
    fprintf(f, "exits %llu\n", (unsigned long long)p->exits);
    fprintf(f, "# type NAME exits in-problem-state\n");
    for (int t = 0; t < EXIT__COUNT; t++)
        if (p->count[t])
            fprintf(f, "type %s %llu %llu\n", exit_name((exit_type)t),
                    (unsigned long long)p->count[t],
                    (unsigned long long)p->pr[t]);
    fprintf(f, "# word TYPE instruction-word exits (the most frequent %d)\n",
            XP_MAX_WORDS);
    for (int t = 0; t < EXIT__COUNT; t++)
        for (int k = 0; k < p->nword[t]; k++)
            fprintf(f, "word %s 0x%08x %llu\n", exit_name((exit_type)t),
                    p->word[t][k].v, (unsigned long long)p->word[t][k].count);
    fprintf(f, "# page TYPE page exits in-problem-state (the most frequent "
               "%d)\n",
            XP_MAX_PAGES);
    for (int t = 0; t < EXIT__COUNT; t++)
        for (int k = 0; k < p->npage[t]; k++)
            fprintf(f, "page %s 0x%08x %llu %llu\n", exit_name((exit_type)t),
                    p->page[t][k].v, (unsigned long long)p->page[t][k].count,
                    (unsigned long long)p->page[t][k].pr);
    fprintf(f, "# gtlb index tid word0 word1 word2 (guest tlbwe, in order)\n");
    for (int i = 0; i < p->ngtlb; i++)
        fprintf(f, "gtlb %u %u 0x%08x 0x%08x 0x%08x\n", p->gtlb[i].index,
                p->gtlb[i].tid, p->gtlb[i].w0, p->gtlb[i].w1, p->gtlb[i].w2);
    fprintf(f, "# runq: guest instructions after an entry at quantiles 0, "
               "0.01, ..., 1\nrunq");
    for (int q = 0; q < XP_RUNQ; q++)
        fprintf(f, " %.0f", p->runq[q]);
    fputc('\n', f);
    bool any = false;
    for (int t = 0; t < EXIT__COUNT; t++)
        any |= p->nseq[t] > 0;
    if (any)
        fprintf(f, "# seq MISS misses TYPE:word ...: the guest's refill "
                   "handler, its emulated exits from the delivered miss to "
                   "its rfi (the most frequent %d)\n",
                XP_MAX_SEQ);
    for (int t = 0; t < EXIT__COUNT; t++)
        for (int k = 0; k < p->nseq[t]; k++) {
            const xp_seq *q = &p->seq[t][k];
            fprintf(f, "seq %s %llu", exit_name((exit_type)t),
                    (unsigned long long)q->count);
            for (int i = 0; i < q->len; i++)
                fprintf(f, " %s:0x%08x", exit_name((exit_type)q->type[i]),
                        q->word[i]);
            fputc('\n', f);
        }
    if (!p->nwall)
        return;
    fprintf(f, "# wall: the guest's wall-time-driven exits, from %d `sim "
               "record --model` runs at several exit costs, host noise off\n"
               "# wallrun seconds guest-ticks exits (each run)\n",
            p->nwall);
    for (int k = 0; k < p->nwall; k++)
        fprintf(f, "wallrun %.6f %llu %llu\n", p->wallrun[k].seconds,
                (unsigned long long)p->wallrun[k].ticks,
                (unsigned long long)p->wallrun[k].exits);
    fprintf(f, "# wallhz guest ticks per second (the first run)\n"
               "wallhz %.3f\n"
               "# wall TYPE exits per second of wall time (the slope of the "
               "count on the duration; types whose slope is not above 0 at "
               "95%% are left out: 0)\n",
            p->wall_hz);
    for (int t = 0; t < EXIT__COUNT; t++)
        if (p->wall[t] > 0)
            fprintf(f, "wall %s %.3f\n", exit_name((exit_type)t), p->wall[t]);
}

static sim_err bad(const char *name, unsigned line, const char *what)
{
    return sim_fail(SIM_ERR_FORMAT, "%s:%u: %s", name, line, what);
}

/* The exit type named by the word at *s (advanced past it). */
static int type_word(const char **s)
{
    while (**s == ' ')
        (*s)++;
    const char *b = *s;
    while (**s && **s != ' ')
        (*s)++;
    return exit_from_namen(b, (unsigned)(*s - b));
}

sim_err exitprof_parse(exitprof *p, const char *text, size_t len,
                       const char *name)
{
    memset(p, 0, sizeof *p);
    char line[4096];
    size_t pos = 0;
    unsigned ln = 0;
    bool have_name = false, have_runq = false, have_wallhz = false;
    /* a second wall line of one type (or wallhz) replaced the first */
    bool have_wall[EXIT__COUNT] = {false};
    unsigned seq_line[EXIT__COUNT] = {0}; /* each miss type's last seq line */
    while (pos < len) {
        size_t e = pos;
        while (e < len && text[e] != '\n')
            e++;
        ln++;
        size_t n = e - pos;
        if (n >= sizeof line)
            return bad(name, ln, "line longer than 4095 characters");
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos = e + 1;
        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        if (!n || line[0] == '#')
            continue;
        char *sp = strchr(line, ' ');
        const char *rest = sp ? sp + 1 : "";
        if (sp)
            *sp = '\0';
        const char *kw = line;
        if (!strcmp(kw, "name")) {
            if (!*rest || strlen(rest) >= sizeof p->name)
                return bad(name, ln, "name: expected a name of 1-31 "
                                     "characters");
            snprintf(p->name, sizeof p->name, "%s", rest);
            have_name = true;
        } else if (!strcmp(kw, "source")) {
            snprintf(p->source, sizeof p->source, "%s", rest);
        } else if (!strcmp(kw, "assumes")) {
            snprintf(p->assumes, sizeof p->assumes, "%s", rest);
        } else if (!strcmp(kw, "exits")) {
            char *end;
            p->exits = strtoull(rest, &end, 10);
            if (end == rest || *end)
                return bad(name, ln, "exits: expected a count");
        } else if (!strcmp(kw, "type") || !strcmp(kw, "word") ||
                   !strcmp(kw, "page")) {
            const char *s = rest;
            int t = type_word(&s);
            if (t < 0 || t == EXIT_TIMEINGUEST)
                return bad(name, ln, "expected an exit type name (as in "
                                     "the kernel's tables)");
            unsigned long long a, b, c = 0;
            char tail;
            int want = kw[0] == 'p' ? 3 : 2;
            if (sscanf(s, " %lli %llu %llu %c", &a, &b, &c, &tail) != want ||
                a > 0xffffffffULL)
                return bad(name, ln, kw[0] == 'p'
                                         ? "expected TYPE, a page, its exits "
                                           "and those in problem state"
                                         : "expected TYPE and two numbers");
            if (kw[0] == 't') {
                if (b > a)
                    return bad(name, ln, "type: more exits in problem "
                                         "state than exits");
                p->count[t] = a;
                p->pr[t] = b;
            } else if (kw[0] == 'w') {
                if (p->nword[t] == XP_MAX_WORDS)
                    return bad(name, ln, "too many words for one type");
                p->word[t][p->nword[t]++] = (xp_value){(uint32_t)a, b, 0};
            } else {
                if (p->npage[t] == XP_MAX_PAGES)
                    return bad(name, ln, "too many pages for one type");
                if (c > b)
                    return bad(name, ln, "page: more exits in problem state "
                                         "than exits");
                p->page[t][p->npage[t]++] = (xp_value){(uint32_t)a, b, c};
            }
        } else if (!strcmp(kw, "gtlb")) {
            unsigned idx, tid;
            unsigned long long w0, w1, w2;
            char tail;
            if (sscanf(rest, "%u %u %lli %lli %lli %c", &idx, &tid, &w0, &w1,
                       &w2, &tail) != 5 ||
                idx > 63 || tid > 255 || w0 > 0xffffffffULL ||
                w1 > 0xffffffffULL || w2 > 0xffffffffULL)
                return bad(name, ln, "gtlb: expected index (0-63), tid "
                                     "(0-255) and three 32-bit words");
            if (p->ngtlb == XP_MAX_GTLB)
                return bad(name, ln, "too many gtlb lines");
            p->gtlb[p->ngtlb++] = (xp_gtlb){(uint8_t)idx, (uint8_t)tid,
                                            (uint32_t)w0, (uint32_t)w1,
                                            (uint32_t)w2};
        } else if (!strcmp(kw, "seq")) {
            const char *s = rest;
            int m = type_word(&s);
            if (m < 0 || !refill_miss((exit_type)m))
                return bad(name, ln, "seq: expected ITLBREAL or DTLBREAL");
            if (p->nseq[m] == XP_MAX_SEQ)
                return bad(name, ln, "too many seq lines for one miss type");
            xp_seq *q = &p->seq[m][p->nseq[m]];
            memset(q, 0, sizeof *q);
            char *end;
            while (*s == ' ')
                s++;
            errno = 0;
            q->count = strtoull(s, &end, 10);
            if (end == s || *s == '-' || *s == '+' || (*end && *end != ' ') ||
                q->count == 0 || errno == ERANGE)
                return bad(name, ln, "seq: expected a miss type, its misses "
                                     "(> 0, 64 bits) and TYPE:word pairs");
            s = end;
            bool rfi = false;
            for (;;) {
                /* pairs apart by one space or more, spaces after the last */
                while (*s == ' ')
                    s++;
                if (!*s)
                    break;
                const char *c = strchr(s, ':');
                const char *sp2 = strchr(s, ' ');
                if (!c || (sp2 && sp2 < c))
                    return bad(name, ln, "seq: expected TYPE:word");
                int t = exit_from_namen(s, (unsigned)(c - s));
                if (t < 0 || !(t == EXIT_EMULINST || exit_is_emul((exit_type)t)))
                    return bad(name, ln, "seq: expected an emulated exit "
                                         "type (EMULINST, EMUL_*) before ':'");
                unsigned long long w = strtoull(c + 1, &end, 16);
                if (strncmp(c + 1, "0x", 2) || end == c + 3 ||
                    (*end && *end != ' ') || w > 0xffffffffULL)
                    return bad(name, ln, "seq: expected a 32-bit word "
                                         "(0x...) after ':'");
                if (rfi || q->len == XP_SEQ_LEN)
                    return bad(name, ln, "seq: the handler goes on after its "
                                         "rfi, or holds more than 32 exits");
                q->type[q->len] = (uint8_t)t;
                q->word[q->len++] = (uint32_t)w;
                rfi = insn440_decode((uint32_t)w) == INSN_RFI;
                s = end;
            }
            if (!rfi)
                return bad(name, ln, "seq: the handler must end in its rfi");
            p->nseq[m]++;
            seq_line[m] = ln;
        } else if (!strcmp(kw, "runq")) {
            const char *s = rest;
            for (int q = 0; q < XP_RUNQ; q++) {
                char *end;
                double v = strtod(s, &end);
                if (end == s || !(v >= 0) || (q && v < p->runq[q - 1]))
                    return bad(name, ln, "runq: expected 101 rising "
                                         "non-negative numbers");
                p->runq[q] = v;
                s = end;
            }
            while (*s == ' ')
                s++;
            if (*s)
                return bad(name, ln, "runq: more than 101 numbers");
            have_runq = true;
        } else if (!strcmp(kw, "wallrun")) {
            double sec;
            unsigned long long ticks, ex;
            char tail;
            /* (%llu reads "-1" as 2^64 - 1, %lf reads hex: decimal only;
             * the seconds may have an exponent, the counts no sign) */
            const char *counts = rest + strspn(rest, " ");
            counts += strcspn(counts, " ");
            if (strpbrk(rest, "xX") || strpbrk(counts, "-+") ||
                sscanf(rest, "%lf %llu %llu %c", &sec, &ticks, &ex,
                       &tail) != 3 ||
                !(sec > 0 && sec < 1e9))
                return bad(name, ln, "wallrun: expected seconds (> 0), guest "
                                     "ticks and exits");
            if (p->nwall == XP_MAX_WALL)
                return bad(name, ln, "too many wallrun lines");
            p->wallrun[p->nwall++] = (xp_wallrun){sec, ticks, ex};
        } else if (!strcmp(kw, "wallhz")) {
            char *end;
            double v = strtod(rest, &end);
            if (end == rest || *end || strpbrk(rest, "xX") ||
                !(v >= 0 && v < 1e9))
                return bad(name, ln, "wallhz: expected ticks per second "
                                     "(>= 0)");
            if (have_wallhz)
                return bad(name, ln, "a second wallhz line");
            have_wallhz = true;
            p->wall_hz = v;
        } else if (!strcmp(kw, "wall")) {
            const char *s = rest;
            int t = type_word(&s);
            if (t < 0 || t == EXIT_TIMEINGUEST ||
                (exit_flags((exit_type)t) & EXF_TIMED))
                return bad(name, ln, "wall: expected an exit type name that "
                                     "the host's clock does not drive (not "
                                     "DEC, EXTINT, SIGNAL)");
            char *end;
            double v = strtod(s, &end);
            while (*end == ' ')
                end++;
            if (end == s || *end || strpbrk(s, "xX") || !(v >= 0 && v < 1e9))
                return bad(name, ln, "wall: expected TYPE and exits per "
                                     "second (>= 0)");
            if (have_wall[t])
                return bad(name, ln, "a second wall line of this type");
            have_wall[t] = true;
            p->wall[t] = v;
        } else {
            return bad(name, ln, "unknown keyword (name, source, assumes, "
                                 "exits, type, word, page, gtlb, seq, "
                                 "runq, wallrun, wallhz, wall)");
        }
    }
    if (!have_name || !have_runq)
        return sim_fail(SIM_ERR_FORMAT, "%s: not an exit profile (needs a "
                        "name and a runq line)", name);
    for (int m = 0; m < EXIT__COUNT; m++) {
        uint64_t sum = 0;
        bool over = false; /* past 2^64: more than any type line */
        for (int k = 0; k < p->nseq[m]; k++) {
            over |= sum > UINT64_MAX - p->seq[m][k].count;
            sum += p->seq[m][k].count;
        }
        if (over || sum > p->count[m])
            return sim_fail(SIM_ERR_FORMAT, "%s:%u: the seq lines of %s hold "
                            "%s%llu misses, its type line %llu",
                            name, seq_line[m], exit_name((exit_type)m),
                            over ? "more than " : "",
                            (unsigned long long)(over ? UINT64_MAX : sum),
                            (unsigned long long)p->count[m]);
    }
    return SIM_OK;
}

/* ---- the built-in profiles (generated from workloads/profiles/) ---- */

typedef struct builtin {
    const char *name;
    const char *text;
    size_t len;
} builtin;
extern const builtin exitprof_builtins_[];
extern const int exitprof_nbuiltins_;

int exitprof_builtin_count(void)
{
    return exitprof_nbuiltins_;
}
const char *exitprof_builtin_name(int i)
{
    return exitprof_builtins_[i].name;
}
const char *exitprof_default_name(void)
{
    return "boot";
}

const char *exitprof_of_trace(unsigned source, const char *workload)
{
    const char *name = NULL;
    if (source == TSRC_SYNTH && !strncmp(workload, "like:", 5))
        name = workload + 5;
    else if (source == TSRC_CPU440)
        name = workload;
    for (int i = 0; name && i < exitprof_nbuiltins_; i++)
        if (!strcmp(exitprof_builtins_[i].name, name))
            return exitprof_builtins_[i].name;
    return NULL;
}

sim_err exitprof_load(exitprof *p, const char *what)
{
    for (int i = 0; i < exitprof_nbuiltins_; i++)
        if (!strcmp(exitprof_builtins_[i].name, what))
            return exitprof_parse(p, exitprof_builtins_[i].text,
                                  exitprof_builtins_[i].len, what);
    FILE *f = fopen(what, "rb");
    if (!f) {
        char names[256] = "";
        size_t o = 0;
        for (int i = 0; i < exitprof_nbuiltins_ && o < sizeof names; i++)
            o += (size_t)snprintf(names + o, sizeof names - o, "%s%s",
                                  i ? ", " : "", exitprof_builtins_[i].name);
        return sim_fail(SIM_ERR_IO, "--mix %s: neither a built-in profile "
                        "(%s; --mix list) nor a readable file", what, names);
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 > cap) {
            cap = cap ? cap * 2 : 131072;
            if (cap > (64u << 20)) {
                free(buf);
                fclose(f);
                return sim_fail(SIM_ERR_FORMAT, "%s: larger than 64 MB: "
                                "not an exit profile", what);
            }
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return sim_fail(SIM_ERR_NOMEM, "%s: out of memory", what);
            }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    bool err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return sim_fail(SIM_ERR_IO, "%s: read error", what);
    }
    sim_err e = exitprof_parse(p, buf ? buf : "", n, what);
    free(buf);
    return e;
}
