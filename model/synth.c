/* synth: a seeded generator of exit traces (GSL mt19937 + discrete/lognormal
 * draws). Each duration is drawn as the *true* time whose whole-usec
 * truncation (the 2.6.29 kernel's accounting) reproduces the profile: a
 * shifted lognormal y >= min with the row's mean and stddev, capped at max,
 * plus a uniform fraction of a usec (E[floor(y + U)] = y). */
#include "synth.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "cost.h"
#include "exitprof.h"
#include "insn440.h"
#include "params.h"
#include "sim_config.h"
#include "trace.h"

extern const char synth_default_profile_name[];
extern const char synth_default_profile[];
extern const size_t synth_default_profile_len;

sim_err synth_profile_from_table(synth_profile *p, const table *t,
                                 const char *name)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    double total = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const table_row *r = &t->rows[i];
        if (!r->present || r->count == 0)
            continue;
        if (!(r->min >= 0) || !(r->max >= r->min) || !(r->avg >= r->min) ||
            !(r->avg <= r->max) || !(r->stddev >= 0) || !isfinite(r->max))
            return sim_fail(SIM_ERR_RANGE,
                            "profile %s: row %s: needs 0 <= min <= avg <= max "
                            "and stddev >= 0 (min %g avg %g max %g stddev %g)",
                            name, exit_name((exit_type)i), r->min, r->avg,
                            r->max, r->stddev);
        p->dist[i] = (synth_dist){r->min, r->avg, r->stddev, r->max};
        if (i != EXIT_TIMEINGUEST) {
            p->weight[i] = (double)r->count;
            total += (double)r->count;
        }
    }
    if (!t->rows[EXIT_TIMEINGUEST].present)
        return sim_fail(SIM_ERR_FORMAT,
                        "profile %s: no TIMEINGUEST row (guest time between "
                        "exits is needed)", name);
    if (total <= 0)
        return sim_fail(SIM_ERR_FORMAT, "profile %s: no exit rows", name);
    return SIM_OK;
}

sim_err synth_profile_default(synth_profile *p)
{
    table t;
    sim_err e = table_parse(&t, synth_default_profile,
                            synth_default_profile_len, TFMT_KVM,
                            synth_default_profile_name);
    if (e != SIM_OK)
        return e;
    return synth_profile_from_table(p, &t, synth_default_profile_name);
}

/* Lognormal parameters for a variable with mean m > 0 and stddev s. */
typedef struct ln_par {
    double shift, mu, sigma, cap; /* cap: max - shift */
    bool constant;
} ln_par;

static ln_par ln_fit(const synth_dist *d)
{
    ln_par l = {.shift = d->min, .cap = d->max - d->min};
    double m = d->avg - d->min;
    if (m <= 1e-9 || d->sd <= 1e-9) {
        l.constant = true;
        l.mu = m > 0 ? m : 0;
        return l;
    }
    double s2 = log1p((d->sd * d->sd) / (m * m));
    l.sigma = sqrt(s2);
    l.mu = log(m) - s2 / 2;
    return l;
}

/* One true duration in usec (see the file comment). */
static double draw_usec(gsl_rng *r, const ln_par *l)
{
    double y = l->mu;
    if (!l->constant) {
        y = gsl_ran_lognormal(r, l->mu, l->sigma);
        if (y > l->cap)
            y = l->cap;
    }
    return l->shift + y + gsl_rng_uniform(r);
}

/* A plausible instruction word for an emulation subtype, so traces carry
 * the detail the kernel classified by (rD/rS = r3). 0 = not an
 * instruction exit or not known. */
static uint32_t emul_inst(exit_type t)
{
    switch (t) {
    case EXIT_EMUL_WAIT: return 0x7c600124;   /* mtmsr r3 (MSR[WE]) */
    case EXIT_EMUL_WRTEE: return 0x7c008146;  /* wrteei 1 */
    case EXIT_EMUL_MTSPR: return 0x7c7043a6;  /* mtspr SPRG0,r3 */
    case EXIT_EMUL_MFSPR: return 0x7c7042a6;  /* mfspr r3,SPRG0 */
    case EXIT_EMUL_MTMSR: return 0x7c600124;  /* mtmsr r3 */
    case EXIT_EMUL_MFMSR: return 0x7c6000a6;  /* mfmsr r3 */
    case EXIT_EMUL_TLBSX: return 0x7c603f24;  /* tlbsx r3,0,r7 */
    case EXIT_EMUL_TLBWE: return 0x7c6007a4;  /* tlbwe r3,r0,0 */
    case EXIT_EMUL_RFI: return 0x4c000064;    /* rfi */
    case EXIT_DCR: return 0x7c603286;         /* mfdcr r3,0xc0 (UIC0_SR) */
    default: return 0;
    }
}

/* The header of a synthetic trace: workload = prefix + profile name. */
static trace_header synth_header(const synth_opts *o, uint64_t tb_hz,
                                 const char *prefix, const char *name,
                                 const char *cost_label)
{
    trace_header h;
    memset(&h, 0, sizeof h);
    h.source = TSRC_SYNTH;
    h.tb_hz = tb_hz;
    h.core_hz = o->core_hz ? o->core_hz : tb_hz;
    snprintf(h.workload, sizeof h.workload, "%s%.*s", prefix,
             (int)(sizeof h.workload - 1 - strlen(prefix)), name);
    snprintf(h.tool_version, sizeof h.tool_version, "sim440 %s", SIM_VERSION);
    snprintf(h.cost_label, sizeof h.cost_label, "%s", cost_label);
    return h;
}

static uint32_t to_ticks(double usec, uint64_t tb_per_usec)
{
    double t = floor(usec * (double)tb_per_usec);
    if (t > 4294967295.0)
        t = 4294967295.0;
    return (uint32_t)t;
}

sim_err synth_write(const char *path, const synth_profile *p,
                    const synth_opts *o)
{
    if (o->exits == 0)
        return sim_fail(SIM_ERR_RANGE, "synth: --exits must be at least 1");
    uint64_t tb_hz = o->tb_hz ? o->tb_hz : 667000000u;
    uint64_t tbpu = tb_hz / 1000000u;
    if (tbpu == 0)
        return sim_fail(SIM_ERR_RANGE, "synth: timebase %llu Hz is below 1 MHz",
                        (unsigned long long)tb_hz);

    int types[EXIT__COUNT];
    double w[EXIT__COUNT];
    size_t nt = 0;
    ln_par par[EXIT__COUNT];
    for (int i = 0; i < EXIT__COUNT; i++) {
        par[i] = ln_fit(&p->dist[i]);
        if (p->weight[i] > 0) {
            types[nt] = i;
            w[nt++] = p->weight[i];
        }
    }
    if (nt == 0)
        return sim_fail(SIM_ERR_RANGE, "synth: profile %s has no exit types",
                        p->name);

    trace_header h = synth_header(o, tb_hz, "synth:", p->name,
                                  "synth (drawn from profile)");

    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_ran_discrete_t *mix = gsl_ran_discrete_preproc(nt, w);
    if (!rng || !mix) {
        gsl_rng_free(rng);
        gsl_ran_discrete_free(mix);
        return sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
    }
    gsl_rng_set(rng, (unsigned long)o->seed);

    trace_writer *w_;
    sim_err e = trace_writer_open(&w_, path, &h);
    if (e != SIM_OK)
        goto out;
    uint64_t tb = 1000000u * tbpu; /* start 1 s into the run */
    for (uint64_t i = 0; i < o->exits; i++) {
        exit_type t = (exit_type)types[gsl_ran_discrete(rng, mix)];
        trace_rec r = {.kind = TREC_EXIT, .type = (uint8_t)t};
        int irq = exit_default_irq(t);
        r.irq = (uint8_t)(irq < 0 ? 0 : irq);
        r.flags = TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN;
        if (t == EXIT_USR_PR_INST || t == EXIT_ITLBREAL || t == EXIT_SYSCALL)
            r.flags |= TRF_GUEST_PR;
        if (exit_flags(t) & EXF_HEAVY)
            r.flags |= TRF_USERSPACE;
        /* a guest kernel text address, word aligned */
        r.pc = 0xc0000000u + ((uint32_t)gsl_rng_uniform_int(rng, 1u << 20) << 2);
        r.inst = emul_inst(t);
        if (irq == BOOKE_IRQ_DTLB_MISS || irq == BOOKE_IRQ_DATA_STORAGE)
            r.addr = 0xc0000000u +
                     ((uint32_t)gsl_rng_uniform_int(rng, 1u << 24) << 2);
        else if (irq == BOOKE_IRQ_ITLB_MISS || irq == BOOKE_IRQ_INST_STORAGE)
            r.addr = r.pc;
        r.tb = tb;
        r.handler = to_ticks(draw_usec(rng, &par[t]), tbpu);
        r.guest = to_ticks(draw_usec(rng, &par[EXIT_TIMEINGUEST]), tbpu);
        tb += (uint64_t)r.handler + r.guest;
        e = trace_writer_put(w_, &r);
        if (e != SIM_OK) {
            trace_writer_abort(w_);
            goto out;
        }
        if (o->progress && (i & 0xfffff) == 0)
            o->progress(o->progress_ctx, i, o->exits);
    }
    e = trace_writer_close(w_);
out:
    gsl_ran_discrete_free(mix);
    gsl_rng_free(rng);
    return e;
}

/* ---- synth --like ---- */

/* One emulated-exit choice of a folded EMULINST row. */
typedef struct like_word {
    exit_type type;
    uint32_t word;
} like_word;

static bool side_i(exit_type t)
{
    return t == EXIT_ITLBVIRT || t == EXIT_ITLBREAL || t == EXIT_ISI;
}

/* The type whose pages an exit of type t draws from: its own, else one of
 * the same side (instruction / data) the profile has. */
static int page_source(const exitprof *p, exit_type t)
{
    if (p->npage[t])
        return t;
    static const exit_type ipool[] = {EXIT_ITLBVIRT, EXIT_ITLBREAL, EXIT_ISI};
    static const exit_type dpool[] = {EXIT_DTLBVIRT, EXIT_DTLBREAL, EXIT_DSI,
                                      EXIT_MMIO};
    const exit_type *pool = side_i(t) ? ipool : dpool;
    size_t n = side_i(t) ? 3 : 4;
    for (size_t i = 0; i < n; i++)
        if (p->npage[pool[i]])
            return pool[i];
    return -1;
}

/* How the profile's guest runs are written (like_run_shape): a run v of
 * the profile becomes scale x mid x (v / mid)^power, mid being the
 * profile's mean run: scale stretches every run alike, power below 1
 * narrows their spread about mid, above 1 widens it; 1 and 1 are the
 * profile's runs. */
typedef struct like_runs {
    double scale, power, mid;
} like_runs;

/* The profile's run at quantile u in [0, 1) (its quantiles linearly
 * interpolated). */
static double run_quantile(const exitprof *p, double u)
{
    u *= XP_RUNQ - 1;
    unsigned i = (unsigned)u;
    double f = u - i;
    return p->runq[i] + f * (p->runq[i + 1] - p->runq[i]);
}

/* A run v of the profile as x writes it, in whole instructions. */
static double run_as(double v, const like_runs *x)
{
    if (x->power != 1 && v > 0)
        v = x->mid * pow(v / x->mid, x->power);
    v *= x->scale;
    return v > 4294967295.0 ? 4294967295.0 : floor(v + 0.5);
}

/* Guest instructions after an entry: a uniform quantile of the profile's
 * runs, as x writes them. */
static uint32_t draw_run(gsl_rng *r, const exitprof *p, const like_runs *x)
{
    return (uint32_t)run_as(run_quantile(p, gsl_rng_uniform(r)), x);
}

static bool table_has_emul(const table *t)
{
    for (int i = 0; i < EXIT__COUNT; i++)
        if (exit_is_emul((exit_type)i) && t->rows[i].present &&
            t->rows[i].count)
            return true;
    return false;
}

/* The state of one synth --like run. */
typedef struct like_ctx {
    const exitprof *p;
    const synth_opts *o;
    synth_like_report *rep;
    bool fold;
    uint64_t tbpu, tb, written, progress_total;
    int next_gtlb;
    gsl_rng *rng;
    trace_writer *w;
    bool rows_3x; /* the table's SPR rows are 3.0+'s */
    /* per table row: the words its exits draw from, each with the type
     * the record gets (a folded EMULINST row: every emulated word of the
     * profile, each keeping cpu440's subtype); per type: its pages */
    like_word *pool[EXIT__COUNT];
    size_t npool[EXIT__COUNT];
    gsl_ran_discrete_t *pooled[EXIT__COUNT], *pages[EXIT__COUNT];
    /* the refill handlers: per delivered miss type, a draw over its
     * sequences and, last, "none" (hpick NULL: no handlers); per miss and
     * table row, the handler's exits of that row per miss (hmean); the rows
     * they take from (hbudget); the share of misses given a handler (hq) */
    gsl_ran_discrete_t *hpick[EXIT__COUNT];
    double hmean[EXIT__COUNT][EXIT__COUNT];
    bool hbudget[EXIT__COUNT];
    double hq;
    /* per type and word: the profile's exits of that word the kept handler
     * sequences hold (taken out of the words drawn outside a handler) */
    double hword[EXIT__COUNT][XP_MAX_WORDS];
    /* rows whose words mix idle waits with other emulations: the waits'
     * words (plong; pooled then holds the others), the waits' share of
     * the row's words, the waits still to write */
    gsl_ran_discrete_t *plong[EXIT__COUNT];
    double long_frac[EXIT__COUNT];
    uint64_t nlong[EXIT__COUNT];
    /* how the profile's runs are written (like_run_shape) */
    like_runs runs;
} like_ctx;

/* An idle wait: its time is the guest's idle to its next tick (the cycle
 * model's wait stage), not an emulation handler's. */
static bool like_long(exit_type t)
{
    return t == EXIT_EMUL_WAIT;
}

/* The table row of a profile exit of type t (cpu440's rows, 2.6.29-2.6.37)
 * with word w: a folded table's EMULINST for every emulation; in a 3.0+
 * table an mfspr or mtspr in EMULINST (SRR0/1, SPRG0-3 ...) has its
 * subtype row; else t. */
static int like_row(const like_ctx *c, exit_type t, uint32_t w)
{
    bool emul = t == EXIT_EMULINST || exit_is_emul(t);
    if (c->fold && emul)
        return EXIT_EMULINST;
    return (int)(c->rows_3x ? classify_row_3x(t, w) : t);
}

/* The handlers' share of each row. A table with misses but fewer
 * emulations than their handlers would take gives each miss a handler
 * with probability hq < 1, so that no row runs short. */
static void like_handlers_prepare(like_ctx *c, const table *hw,
                                  const uint64_t *left)
{
    const exitprof *p = c->p;
    double need[EXIT__COUNT] = {0};
    c->hq = 1;
    for (int m = 0; m < EXIT__COUNT; m++) {
        if (!p->nseq[m] || !p->count[m])
            continue;
        for (int k = 0; k < p->nseq[m]; k++) {
            const xp_seq *s = &p->seq[m][k];
            for (int i = 0; i < s->len; i++) {
                int r = like_row(c, (exit_type)s->type[i], s->word[i]);
                c->hmean[m][r] += (double)s->count / (double)p->count[m];
                for (int j = 0; j < p->nword[s->type[i]]; j++)
                    if (p->word[s->type[i]][j].v == s->word[i])
                        c->hword[s->type[i]][j] += (double)s->count;
            }
        }
        for (int r = 0; r < EXIT__COUNT; r++) {
            need[r] += (double)left[m] * c->hmean[m][r];
            if (c->hmean[m][r] > 0 && hw->rows[r].present && left[r])
                c->hbudget[r] = true;
        }
    }
    c->rep->handler_limit = -1;
    for (int r = 0; r < EXIT__COUNT; r++)
        if (c->hbudget[r] && need[r] > (double)left[r] &&
            (double)left[r] / need[r] < c->hq) {
            c->hq = (double)left[r] / need[r];
            c->rep->handler_limit = r;
            c->rep->hneed = need[r];
            c->rep->hneed_have = (double)left[r];
        }
    c->rep->handler_share = c->hq;
}

/* Whether the rows a handler takes from still hold all its exits: a
 * handler is written whole (less the exits of rows the table lacks) or
 * not at all, never cut where a row ran out. */
static bool handler_fits(const like_ctx *c, const xp_seq *s,
                         const uint64_t *left)
{
    uint64_t take[EXIT__COUNT] = {0};
    for (int i = 0; i < s->len; i++) {
        int r = like_row(c, (exit_type)s->type[i], s->word[i]);
        if (c->hbudget[r] && ++take[r] > left[r])
            return false;
    }
    return true;
}

/* The discrete draws of a run: words outside handlers (the profile's
 * counts less the kept handlers'), pages, handler sequences. */
static sim_err like_tables(like_ctx *c)
{
    const exitprof *p = c->p;
    double w[XP_MAX_PAGES + 1];
    /* each row's words: the profile's counts less the kept handlers' */
    double *pw[EXIT__COUNT] = {0};
    sim_err e = SIM_OK;
    for (int t = 0; t < EXIT__COUNT && e == SIM_OK; t++)
        for (int k = 0; k < p->nword[t]; k++) {
            int r = like_row(c, (exit_type)t, p->word[t][k].v);
            size_t n = c->npool[r];
            like_word *nl = realloc(c->pool[r], (n + 1) * sizeof *nl);
            double *nw = realloc(pw[r], (n + 1) * sizeof *nw);
            if (nl)
                c->pool[r] = nl;
            if (nw)
                pw[r] = nw;
            if (!nl || !nw) {
                e = sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
                break;
            }
            bool keep = c->fold && r == EXIT_EMULINST;
            nl[n] = (like_word){keep ? (exit_type)t : (exit_type)r,
                                p->word[t][k].v};
            nw[n] = fmax(0, (double)p->word[t][k].count - c->hword[t][k]);
            c->npool[r]++;
        }
    for (int r = 0; r < EXIT__COUNT && e == SIM_OK; r++) {
        double ws = 0;
        for (size_t i = 0; i < c->npool[r]; i++)
            ws += pw[r][i];
        if (ws == 0 && c->npool[r]) {
            /* every word of the row is a handler's, yet the row has exits
             * the handlers do not take: they draw from all its words (not
             * written without one) */
            size_t i = 0;
            for (int t = 0; t < EXIT__COUNT; t++)
                for (int k = 0; k < p->nword[t]; k++)
                    if (like_row(c, (exit_type)t, p->word[t][k].v) == r) {
                        pw[r][i] = (double)p->word[t][k].count;
                        ws += pw[r][i++];
                    }
        }
        /* a row mixing idle waits with other emulations: two draws, the
         * waits' number being set apart (synth_like_write) */
        double wl = 0;
        for (size_t i = 0; i < c->npool[r]; i++)
            if (like_long(c->pool[r][i].type))
                wl += pw[r][i];
        if (wl > 0 && wl < ws) {
            c->long_frac[r] = wl / ws;
            double *lw = malloc(c->npool[r] * sizeof *lw);
            if (!lw) {
                e = sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
                break;
            }
            for (size_t i = 0; i < c->npool[r]; i++) {
                bool lg = like_long(c->pool[r][i].type);
                lw[i] = lg ? pw[r][i] : 0;
                if (lg)
                    pw[r][i] = 0;
            }
            c->plong[r] = gsl_ran_discrete_preproc(c->npool[r], lw);
            free(lw);
            if (!c->plong[r]) {
                e = sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
                break;
            }
        }
        if (ws > 0 && !(c->pooled[r] = gsl_ran_discrete_preproc(c->npool[r],
                                                                 pw[r])))
            e = sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
    }
    for (int r = 0; r < EXIT__COUNT; r++)
        free(pw[r]);
    if (e != SIM_OK)
        return e;
    for (int t = 0; t < EXIT__COUNT; t++) {
        if (p->npage[t]) {
            for (int k = 0; k < p->npage[t]; k++)
                w[k] = (double)p->page[t][k].count;
            if (!(c->pages[t] =
                      gsl_ran_discrete_preproc((size_t)p->npage[t], w)))
                return sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
        }
        if (p->nseq[t] && p->count[t] && c->hq > 0) {
            uint64_t kept = 0;
            for (int k = 0; k < p->nseq[t]; k++) {
                w[k] = (double)p->seq[t][k].count;
                kept += p->seq[t][k].count;
            }
            w[p->nseq[t]] = (double)(p->count[t] - kept); /* none */
            if (!(c->hpick[t] =
                      gsl_ran_discrete_preproc((size_t)p->nseq[t] + 1, w)))
                return sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
        }
    }
    return SIM_OK;
}

static void like_free(like_ctx *c)
{
    for (int t = 0; t < EXIT__COUNT; t++) {
        gsl_ran_discrete_free(c->pooled[t]);
        gsl_ran_discrete_free(c->pages[t]);
        gsl_ran_discrete_free(c->hpick[t]);
        gsl_ran_discrete_free(c->plong[t]);
        free(c->pool[t]);
    }
    gsl_rng_free(c->rng);
}

/* Writes one exit of table row `row`, type t, instruction word `word`,
 * dressed in the profile's details (and the guest TLB write a tlbwe
 * makes). */
static sim_err like_emit(like_ctx *c, int row, exit_type t, uint32_t word)
{
    const exitprof *p = c->p;
    gsl_rng *rng = c->rng;
    c->rep->count[row]++;
    trace_rec r = {.kind = TREC_EXIT, .type = (uint8_t)t};
    int irq = exit_default_irq(t);
    r.irq = (uint8_t)(irq < 0 ? 0 : irq);
    r.flags = TRF_GUEST_INSNS;
    if (exit_flags(t) & EXF_HEAVY)
        r.flags |= TRF_USERSPACE;
    r.inst = word;
    r.pc = 0xc0000000u + ((uint32_t)gsl_rng_uniform_int(rng, 1u << 20) << 2);
    int ps = page_source(p, t);
    if (ps >= 0 && (side_i(t) || irq == BOOKE_IRQ_DTLB_MISS ||
                    irq == BOOKE_IRQ_DATA_STORAGE || t == EXIT_MMIO)) {
        /* page and mode together: the share of this page's exits that
         * were in problem state (a user-mode miss on a kernel page cannot
         * happen, and is not drawn) */
        const xp_value *pg = &p->page[ps][gsl_ran_discrete(rng, c->pages[ps])];
        if (gsl_rng_uniform(rng) * (double)pg->count < (double)pg->pr)
            r.flags |= TRF_GUEST_PR;
        uint32_t a = pg->v | ((uint32_t)gsl_rng_uniform_int(rng, 1024) << 2);
        if (side_i(t))
            r.pc = r.addr = a;
        else
            r.addr = a;
    } else if (p->count[t] &&
               gsl_rng_uniform(rng) * (double)p->count[t] < (double)p->pr[t]) {
        r.flags |= TRF_GUEST_PR;
    }
    r.guest = draw_run(rng, p, &c->runs);
    r.tb = c->tb;
    c->tb += c->tbpu; /* (no ticks: a nominal microsecond apart) */
    sim_err e = trace_writer_put(c->w, &r);
    /* the guest entry a tlbwe wrote, in the profile's order */
    if (e == SIM_OK && p->ngtlb && word && insn440_decode(word) == INSN_TLBWE) {
        const xp_gtlb *g = &p->gtlb[c->next_gtlb];
        c->next_gtlb = (c->next_gtlb + 1) % p->ngtlb;
        trace_rec gr = {.kind = TREC_GTLB_WRITE, .type = g->index,
                        .irq = g->tid, .pc = g->w0, .inst = g->w1,
                        .addr = g->w2, .tb = r.tb};
        e = trace_writer_put(c->w, &gr);
        c->rep->gtlb_writes++;
    }
    if (c->o->progress && (c->written & 0xfffff) == 0)
        c->o->progress(c->o->progress_ctx, c->written, c->progress_total);
    c->written++;
    return e;
}

/* The most idle waits table row r (n of its exits in the trace) can
 * hold, in the trace's exits: INFINITY when the row's spread is unknown
 * or no tick rate is given. A wait lasts from the guest's idle to its next
 * tick, T = 1 / guest_hz later. Where in the period a guest idles the
 * table does not say; in a synthesised trace the idle falls anywhere in
 * it, so the model's waits average T/2. The row's N exits hold no more
 * waits than its time above its minimum, N (avg - min), leaves room for at
 * T/2 - min each, nor than its squared deviations, N stddev^2, leave room
 * for at (T/2 - avg)^2 each: the least any waits averaging T/2 add (all
 * of that one length; a spread adds more, so a guest whose waits are of
 * a narrow phase is not cut). The other exits' share of both is >= 0.
 * Nor more than one a tick period of the table's traced duration (when
 * it has one). */
static double like_waits_bound(const table_row *r, uint64_t n,
                               double guest_hz, double traced)
{
    if (!(guest_hz > 0) || !r->present || r->count == 0 ||
        !isfinite(r->stddev) || !isfinite(r->avg) || !isfinite(r->min))
        return INFINITY;
    double T = 1e6 / guest_hz, N = (double)r->count, a = r->avg;
    double bound = INFINITY, dev = (T / 2 - a) * (T / 2 - a);
    if (dev > 1e-9)
        bound = N * r->stddev * r->stddev / dev;
    if (T / 2 > r->min)
        bound = fmin(bound, N * (a - r->min) / (T / 2 - r->min));
    /* and a wait ends at a tick: one a period of the table's duration at
     * most (an idle-heavy guest's waits come back to back, each nearly a
     * period long, not half of one) */
    if (isfinite(traced) && traced > 0)
        bound = fmin(bound, traced / T);
    return bound * (double)n / N;
}

/* The fewest idle waits table row r (n of its exits in the trace) needs:
 * its other emulations cost on average no more than the table's costliest
 * shadow-mapping path (the ITLBVIRT and DTLBVIRT rows' avg: a miss maps a
 * page, more work than one emulated instruction; in every table we have
 * the emulation row's avg is about half of theirs), so the row's time
 * above that cost, N (avg - a), is waits' of T/2 - a each. 0 when the
 * row's avg is below a, the table has neither VIRT row, or no tick rate;
 * *other gets a (NAN without it). A guest that idles more than the
 * profile's (an idle-heavy board) gets at least the waits its table's
 * time demands instead of the profile's share. */
static double like_waits_floor(const table *hw, int r, uint64_t n,
                               double guest_hz, double *other)
{
    const table_row *w = &hw->rows[r];
    double a = NAN;
    for (int v = 0; v < 2; v++) {
        const table_row *t = &hw->rows[v ? EXIT_DTLBVIRT : EXIT_ITLBVIRT];
        if (t->present && t->count > 0 && isfinite(t->avg))
            a = isfinite(a) ? fmax(a, t->avg) : t->avg;
    }
    *other = a;
    if (!(guest_hz > 0) || !isfinite(a) || !w->present || w->count == 0 ||
        !isfinite(w->avg) || w->avg <= a)
        return 0;
    double T = 1e6 / guest_hz;
    if (T / 2 <= a)
        return 0;
    return (double)n * (w->avg - a) / (T / 2 - a);
}

/* ---- guest run lengths (docs/calibration.md, "Guest run lengths") ---- */

/* the table's TIMEINGUEST stddev is met when the booked one is this close
 * (relative) */
#define LIKE_SD_TOL 0.02
/* the profile's runs are integrated at this many points (like_booked) */
#define LIKE_RUN_POINTS ((XP_RUNQ - 1) * 16)

/* the entry's cost is tabled for runs up to this many instructions (its
 * refills stop growing long before, at the model's caps) */
#define LIKE_ENTRY_RUNS 4096

/* What the table books of the guest intervals, as the model times them
 * (cost_guest_entry + guest_cpi x run) and the table's kernel accounts
 * them: after each group of exit types of one guest entry cost, in the
 * group's share of the table's exits; the profile's runs at evenly spaced
 * quantiles. */
typedef struct like_gt {
    const cost_model *m;
    int ngroup;
    exit_type type[EXIT__COUNT];
    double w[EXIT__COUNT];
    /* per group: the entry's cycles for runs 0 .. LIKE_ENTRY_RUNS, and
     * for longer ones when it no longer grows there (sat; else NAN) */
    double *entry, sat[EXIT__COUNT];
    double run[LIKE_RUN_POINTS], lrun[LIKE_RUN_POINTS]; /* and ln(run/mid) */
    double tick_per_cycle, tbpu;
    bool ticks_summed; /* 3.1+: ticks summed; 2.6.29: whole usec each */
} like_gt;

/* Whether the model prices the guest entry after exits of types a and b
 * alike, for every run: the same cost for each run up to LIKE_ENTRY_RUNS
 * and for the longest. */
static bool like_same_entry(const cost_model *m, exit_type a, exit_type b)
{
    for (uint64_t n = 0; n <= LIKE_ENTRY_RUNS; n++)
        if (cost_guest_entry(m, a, n) != cost_guest_entry(m, b, n))
            return false;
    return cost_guest_entry(m, a, UINT32_MAX) ==
           cost_guest_entry(m, b, UINT32_MAX);
}

static sim_err like_gt_init(like_gt *g, const table *hw, const exitprof *p,
                            double mid)
{
    for (int k = 0; k < LIKE_RUN_POINTS; k++) {
        g->run[k] = run_quantile(p, (k + 0.5) / LIKE_RUN_POINTS);
        g->lrun[k] = g->run[k] > 0 ? log(g->run[k] / mid) : 0;
    }
    double total = (double)table_exits(hw);
    for (int t = 0; t < EXIT__COUNT; t++) {
        if (t == EXIT_TIMEINGUEST || !hw->rows[t].present ||
            !hw->rows[t].count)
            continue;
        double w = (double)hw->rows[t].count / total;
        int k = 0;
        while (k < g->ngroup && !like_same_entry(g->m, g->type[k],
                                                 (exit_type)t))
            k++;
        if (k == g->ngroup) {
            g->type[g->ngroup] = (exit_type)t;
            g->w[g->ngroup++] = 0;
        }
        g->w[k] += w;
    }
    g->entry = malloc((size_t)g->ngroup * (LIKE_ENTRY_RUNS + 1) *
                      sizeof *g->entry);
    if (!g->entry)
        return sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
    for (int j = 0; j < g->ngroup; j++) {
        double *e = g->entry + (size_t)j * (LIKE_ENTRY_RUNS + 1);
        for (uint64_t n = 0; n <= LIKE_ENTRY_RUNS; n++)
            e[n] = (double)cost_guest_entry(g->m, g->type[j], n);
        double top = (double)cost_guest_entry(g->m, g->type[j], UINT32_MAX);
        g->sat[j] = top == e[LIKE_ENTRY_RUNS] ? top : NAN;
    }
    return SIM_OK;
}

/* The entry's cycles after a run of n instructions, group j. */
static double like_entry(const like_gt *g, int j, double n)
{
    if (n <= LIKE_ENTRY_RUNS)
        return g->entry[(size_t)j * (LIKE_ENTRY_RUNS + 1) + (size_t)n];
    if (!isnan(g->sat[j]))
        return g->sat[j];
    return (double)cost_guest_entry(g->m, g->type[j], (uint64_t)n);
}

/* The mean and the standard deviation of one guest interval's booked
 * time, in usec: the profile's runs as x writes them (as draw_run draws
 * them), at guest_cpi cpi and the rest of the model's parameters. */
static void like_booked(const like_gt *g, const like_runs *x, double cpi,
                        double *mean, double *sd)
{
    double s1 = 0, s2 = 0;
    for (int k = 0; k < LIKE_RUN_POINTS; k++) {
        /* run_as, with the logarithm taken once */
        double n = g->run[k];
        if (x->power != 1 && n > 0)
            n = x->mid * exp(x->power * g->lrun[k]);
        n = fmin(floor(n * x->scale + 0.5), 4294967295.0);
        double run = floor(n * cpi + 0.5);
        for (int j = 0; j < g->ngroup; j++) {
            double ticks = floor((like_entry(g, j, n) + run) *
                                 g->tick_per_cycle);
            double us = g->ticks_summed ? ticks / g->tbpu
                                        : floor(ticks / g->tbpu);
            s1 += g->w[j] * us;
            s2 += g->w[j] * us * us;
        }
    }
    *mean = s1 / LIKE_RUN_POINTS;
    double v = s2 / LIKE_RUN_POINTS - *mean * *mean;
    if (sd)
        *sd = v > 0 ? sqrt(v) : 0;
}

static double like_mean(const like_gt *g, const like_runs *x, double cpi)
{
    double m;
    like_booked(g, x, cpi, &m, NULL);
    return m;
}

/* The scale at which runs of x's power book `want` an interval at guest
 * CPI cpi (x->scale): the booked time grows with the scale, found by
 * bisection in its logarithm from 2^-20 to 2^32. false when even the
 * shortest books more. */
static bool like_fit_scale(const like_gt *g, like_runs *x, double cpi,
                           double want)
{
    double lo = -20, hi = 32;
    x->scale = exp2(lo);
    if (like_mean(g, x, cpi) > want)
        return false;
    for (int i = 0; i < 26; i++) {
        x->scale = exp2((lo + hi) / 2);
        if (like_mean(g, x, cpi) < want)
            lo = (lo + hi) / 2;
        else
            hi = (lo + hi) / 2;
    }
    x->scale = exp2(hi);
    return true;
}

/* How the profile's guest runs are written for table hw (*x, and the
 * numbers it comes from in rep->runs*). The model times a guest interval
 * as the entry's stub, tail and refills plus guest_cpi x the run's
 * instructions; the table's TIMEINGUEST row is what those intervals
 * booked. When some guest_cpi in [SYNTH_CPI_LO, SYNTH_CPI_HI] makes the
 * profile's runs book the table's avg (the model's other parameters at
 * their defaults), they are kept: the fit finds that CPI. Else the guest
 * runs longer (or shorter) between exits than the profile's: the runs
 * are scaled to book the table's avg at the default guest_cpi, and their
 * spread set to book its stddev (power, 1/64 to 4: the profile keeps the
 * order of its runs, its shape where the stddev agrees). */
static sim_err like_run_shape(const table *hw, const exitprof *p,
                              uint64_t tb_hz, uint64_t core_hz,
                              bool ticks_summed, like_runs *x,
                              synth_like_report *rep)
{
    double mid = 0;
    for (int q = 0; q + 1 < XP_RUNQ; q++)
        mid += (p->runq[q] + p->runq[q + 1]) / 2 / (XP_RUNQ - 1);
    *x = (like_runs){.scale = 1, .power = 1, .mid = mid};
    rep->run_scale = rep->run_power = 1;
    rep->runs = SYNTH_RUNS_NO_ROW;
    const table_row *tg = &hw->rows[EXIT_TIMEINGUEST];
    if (!tg->present || tg->count == 0 || !isfinite(tg->avg) || tg->avg < 0)
        return SIM_OK;
    params par;
    params_init(&par);
    cost_model *m;
    sim_err e = cost_new_units(&m, &par);
    if (e != SIM_OK)
        return e;
    like_gt g = {.m = m, .ticks_summed = ticks_summed,
                 .tick_per_cycle = (double)tb_hz / (double)core_hz,
                 .tbpu = (double)(tb_hz / 1000000u)};
    if ((e = like_gt_init(&g, hw, p, mid > 0 ? mid : 1)) != SIM_OK) {
        free(g.entry);
        cost_free(m);
        return e;
    }
    double cpi = P(&par, guest_cpi), want = tg->avg;
    rep->runs_table = want;
    rep->runs_table_sd = tg->stddev;
    rep->runs_cpi = cpi;
    rep->runs_cpi_lo = SYNTH_CPI_LO;
    rep->runs_cpi_hi = SYNTH_CPI_HI;
    like_booked(&g, x, cpi, &rep->runs_profile, &rep->runs_profile_sd);
    rep->runs_lo = like_mean(&g, x, SYNTH_CPI_LO);
    rep->runs_hi = like_mean(&g, x, SYNTH_CPI_HI);
    rep->runs_booked = rep->runs_profile;
    rep->runs_booked_sd = rep->runs_profile_sd;
    rep->runs = SYNTH_RUNS_KEPT;
    if (!(want >= rep->runs_lo && want <= rep->runs_hi) && mid > 0) {
        if (!like_fit_scale(&g, x, cpi, want)) {
            rep->runs = SYNTH_RUNS_ENTRY;
            like_booked(&g, x, cpi, &rep->runs_booked, &rep->runs_booked_sd);
            *x = (like_runs){.scale = 1, .power = 1, .mid = mid};
        } else {
            rep->runs = SYNTH_RUNS_SCALED;
            like_runs scaled = *x;
            double want_sd = tg->stddev, sd = NAN, mean;
            if (isfinite(want_sd) && want_sd >= 0 && tg->count > 1) {
                /* the spread grows with the power at the table's mean:
                 * bisection in its logarithm */
                double lo = -6, hi = 2;
                for (int i = 0; i < 20; i++) {
                    x->power = exp2((lo + hi) / 2);
                    (void)like_fit_scale(&g, x, cpi, want);
                    like_booked(&g, x, cpi, &mean, &sd);
                    if (sd < want_sd)
                        lo = (lo + hi) / 2;
                    else
                        hi = (lo + hi) / 2;
                }
                x->power = exp2((lo + hi) / 2);
                (void)like_fit_scale(&g, x, cpi, want);
                like_booked(&g, x, cpi, &mean, &sd);
            }
            /* a spread no power of the profile's runs books (an end of
             * the range): the profile's shape, scaled */
            if (!(fabs(sd - want_sd) <= LIKE_SD_TOL * want_sd))
                *x = scaled;
            like_booked(&g, x, cpi, &rep->runs_booked, &rep->runs_booked_sd);
        }
    }
    rep->run_scale = x->scale;
    rep->run_power = x->power;
    free(g.entry);
    cost_free(m);
    return SIM_OK;
}

sim_err synth_like_write(const char *path, const table *hw, const exitprof *p,
                         const synth_opts *o, synth_like_report *rep)
{
    memset(rep, 0, sizeof *rep);
    uint64_t tb_hz = o->tb_hz ? o->tb_hz : 667000000u;
    uint64_t tbpu = tb_hz / 1000000u;
    if (tbpu == 0)
        return sim_fail(SIM_ERR_RANGE, "synth: timebase %llu Hz is below 1 MHz",
                        (unsigned long long)tb_hz);
    /* the rows' counts, scaled to the exits asked for (largest remainders) */
    uint64_t total = table_exits(hw);
    if (total == 0)
        return sim_fail(SIM_ERR_FORMAT, "synth --like: the table has no exit "
                        "row with a count");
    uint64_t n = o->exits ? o->exits : total;
    uint64_t left[EXIT__COUNT] = {0}, sum = 0;
    double frac[EXIT__COUNT] = {0};
    for (int i = 0; i < EXIT__COUNT; i++) {
        if (i == EXIT_TIMEINGUEST || !hw->rows[i].present)
            continue;
        double x = (double)hw->rows[i].count * (double)n / (double)total;
        left[i] = (uint64_t)x;
        frac[i] = x - (double)left[i];
        sum += left[i];
    }
    while (sum < n) { /* the largest remainder first, ties by type */
        int best = -1;
        for (int i = 0; i < EXIT__COUNT; i++)
            if (hw->rows[i].present && i != EXIT_TIMEINGUEST &&
                hw->rows[i].count && (best < 0 || frac[i] > frac[best]))
                best = i;
        left[best]++;
        frac[best] = -1;
        sum++;
    }
    bool fold = hw->rows[EXIT_EMULINST].present && !table_has_emul(hw);
    rep->folded = fold;

    like_ctx c = {.p = p, .fold = fold, .tbpu = tbpu, .rep = rep,
                  .progress_total = n, .o = o, .rows_3x = o->spr_rows_3x};
    like_handlers_prepare(&c, hw, left);
    sim_err e = SIM_OK;
    c.rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!c.rng) {
        e = sim_fail(SIM_ERR_NOMEM, "synth: out of memory");
        goto out;
    }
    gsl_rng_set(c.rng, (unsigned long)o->seed);
    e = like_tables(&c);
    if (e == SIM_OK)
        e = like_run_shape(hw, p, tb_hz, o->core_hz ? o->core_hz : tb_hz,
                           o->ticks_summed, &c.runs, rep);
    if (e != SIM_OK)
        goto out;
    /* the idle waits of a row with other emulations: the profile's share
     * of the row's exits outside the refill handlers, at most what the
     * row's spread can hold, as a count (one wait is worth hundreds of
     * other emulations: drawn one by one, their number varied by its
     * square root, a tenth of the row's time on a small guest's table) */
    for (int r = 0; r < EXIT__COUNT; r++) {
        if (!c.plong[r])
            continue;
        double outside = (double)left[r];
        for (int m = 0; m < EXIT__COUNT; m++)
            outside -= c.hq * (double)left[m] * c.hmean[m][r];
        double share = fmax(0, outside) * c.long_frac[r];
        double bound = like_waits_bound(&hw->rows[r], left[r], o->guest_hz,
                                        hw->traced_usec);
        double floor_ = like_waits_floor(hw, r, left[r], o->guest_hz,
                                         &rep->waits_other[r]);
        rep->waits_share[r] = share;
        rep->waits_bound[r] = bound;
        rep->waits_floor[r] = floor_;
        c.nlong[r] = (uint64_t)llround(fmin(fmax(share, floor_), bound));
    }
    for (int t = 0; t < EXIT__COUNT; t++) {
        bool detail = left[t] == 0 || p->count[t] > 0 ||
                      c.pooled[t];
        if (!detail)
            rep->bare[rep->nbare++] = (exit_type)t;
        else if (left[t] && !c.pooled[t] &&
                 (t == EXIT_EMULINST || exit_is_emul((exit_type)t)))
            rep->wordless[rep->nwordless++] = (exit_type)t;
    }

    /* a folded table's trace says so (synth_like_folded): its EMULINST
     * is the table's EMULINST with its EMUL_* rows */
    trace_header h = synth_header(o, tb_hz, "like:", p->name,
                                  fold ? SYNTH_LIKE_FOLDED_LABEL
                                       : "none (synth --like)");
    e = trace_writer_open(&c.w, path, &h);
    if (e != SIM_OK)
        goto out;
    c.tb = 1000000u * tbpu;
    uint64_t remaining = n;
    while (remaining && e == SIM_OK) {
        /* the next row, in proportion to what is left of each; an
         * emulation row less what the refill handlers of the misses still
         * to come will take of it */
        double wsum = 0, wt[EXIT__COUNT];
        for (int t = 0; t < EXIT__COUNT; t++) {
            double x = (double)left[t];
            if (c.hbudget[t]) {
                for (int m = 0; m < EXIT__COUNT; m++)
                    if (c.hmean[m][t] > 0)
                        x -= c.hq * (double)left[m] * c.hmean[m][t];
                if (x < 0)
                    x = 0;
            }
            wt[t] = x;
            wsum += x;
        }
        double x = gsl_rng_uniform(c.rng) * wsum;
        int row = -1;
        for (int t = 0; t < EXIT__COUNT; t++) {
            if (!(wt[t] > 0))
                continue;
            row = t;
            if (x < wt[t])
                break;
            x -= wt[t];
        }
        left[row]--;
        remaining--;
        exit_type t = (exit_type)row;
        uint32_t word = 0;
        /* a wait with probability (waits left) / (the row's exits left
         * outside handlers, wt): the count set above, at random places */
        bool wait = c.plong[row] && c.nlong[row] &&
                    (wt[row] <= (double)c.nlong[row] ||
                     gsl_rng_uniform(c.rng) * wt[row] < (double)c.nlong[row]);
        if (wait) {
            const like_word *lw =
                &c.pool[row][gsl_ran_discrete(c.rng, c.plong[row])];
            c.nlong[row]--;
            rep->waits[row]++;
            t = lw->type;
            word = lw->word;
        } else if (c.pooled[row]) {
            const like_word *lw =
                &c.pool[row][gsl_ran_discrete(c.rng, c.pooled[row])];
            t = lw->type;
            word = lw->word;
        }
        e = like_emit(&c, row, t, word);
        /* a delivered guest TLB miss: its refill handler's emulations */
        if (e == SIM_OK && c.hpick[row] &&
            gsl_rng_uniform(c.rng) < c.hq) {
            size_t k = gsl_ran_discrete(c.rng, c.hpick[row]);
            if ((int)k < p->nseq[row] &&
                handler_fits(&c, &p->seq[row][k], left)) {
                const xp_seq *s = &p->seq[row][k];
                uint64_t before = rep->handler_exits;
                for (int i = 0; i < s->len && e == SIM_OK; i++) {
                    exit_type st = (exit_type)s->type[i];
                    int r = like_row(&c, st, s->word[i]);
                    if (!left[r])
                        continue; /* the row is used up: not written */
                    left[r]--;
                    remaining--;
                    rep->handler_exits++;
                    e = like_emit(&c, r, fold ? st : (exit_type)r,
                                  s->word[i]);
                }
                rep->handlers += rep->handler_exits > before;
            }
        }
    }
    if (e == SIM_OK)
        e = trace_writer_close(c.w);
    else
        trace_writer_abort(c.w);
    rep->exits = n;
out:
    like_free(&c);
    return e;
}

bool synth_like_folded(const trace_header *h)
{
    return h->source == TSRC_SYNTH &&
           !strcmp(h->cost_label, SYNTH_LIKE_FOLDED_LABEL);
}
