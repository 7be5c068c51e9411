/* calib: the cycle model fitted to a hardware exit-timing table (GSL
 * gsl_multifit_nlinear, trust region; docs/calibration.md). Every
 * evaluation replays the (subsampled) trace through a fresh cost model with
 * the same seed, so the objective is a deterministic function of the
 * parameters and finite differences see common random numbers. */
#include "calib.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "replay.h"
#include "trace.h"

/* ---- defaults ---- */

bool calib_default_candidate(param_id id)
{
    if (strcmp(param_source(id), SRC_ASSUME) != 0)
        return false;
    switch (id) {
    case PARAM_seed:         /* the generator, not a cost */
    case PARAM_guest_ram_mb: /* the guest's configuration */
    case PARAM_guest_hz:     /* the guest kernel's HZ */
    case PARAM_common_host_pages: /* whole pages walked in a loop: */
    case PARAM_path_host_pages:   /* a finite difference sees a step */
    case PARAM_qemu_host_pages:
    case PARAM_hostirq_host_pages: return false;
    default: return true;
    }
}

void calib_opts_default(calib_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < PARAM__COUNT; i++) {
        o->fit[i] = calib_default_candidate((param_id)i);
        o->lo[i] = param_min((param_id)i);
        o->hi[i] = param_max((param_id)i);
    }
    o->subsample = 2000000;
    o->threads = 2;
    o->max_iter = 40;
    o->rank_tol = 1e-2;
    o->fd_step = 0.05;
    o->unit = STATS_USEC;
    o->full_check = true;
    o->refine_iter = 6;
}

/* ---- the logistic transform of a range ---- */

static double to_u(double x, double lo, double hi)
{
    double q = (x - lo) / (hi - lo);
    if (q < 1e-9)
        q = 1e-9;
    if (q > 1 - 1e-9)
        q = 1 - 1e-9;
    return log(q / (1 - q));
}
static double to_x(double u, double lo, double hi)
{
    return lo + (hi - lo) / (1 + exp(-u));
}
static double dx_du(double u, double lo, double hi)
{
    double q = 1 / (1 + exp(-u));
    return (hi - lo) * q * (1 - q);
}

/* ---- one evaluation: a replay of the records through the model ---- */

typedef struct evaluator {
    cost_model *m;
    replay_cost_model hook;
    stats s;
    uint64_t min_ticks[EXIT__COUNT]; /* charged samples, in ticks */
    uint64_t now;
    int prev;                 /* type of the previous exit, -1 */
    uint32_t prev_h, prev_g;  /* its ticks (charged at this exit) */
    uint64_t exits;
} evaluator;

static sim_err ev_begin(evaluator *ev, const params *p, const trace_header *h,
                        stats_unit unit)
{
    memset(ev, 0, sizeof *ev);
    sim_err e = cost_new(&ev->m, p);
    if (e != SIM_OK)
        return e;
    cost_replay_hook(ev->m, &ev->hook);
    e = ev->hook.begin(ev->hook.ctx, h);
    if (e != SIM_OK) {
        cost_free(ev->m);
        return e;
    }
    stats_init(&ev->s, unit, h->tb_hz);
    for (int t = 0; t < EXIT__COUNT; t++)
        ev->min_ticks[t] = UINT64_MAX;
    ev->prev = -1;
    return SIM_OK;
}

static sim_err ev_records(evaluator *ev, const trace_rec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const trace_rec *r = &recs[i];
        uint32_t h = 0, g = 0;
        sim_err e = ev->hook.cost(ev->hook.ctx, r, &h, &g);
        if (e != SIM_OK)
            return e;
        if (r->kind != TREC_EXIT)
            continue;
        if (ev->exits++ == 0)
            ev->now = r->tb;
        if (ev->prev >= 0) {
            if (ev->prev_h < ev->min_ticks[ev->prev])
                ev->min_ticks[ev->prev] = ev->prev_h;
            if (ev->prev_g < ev->min_ticks[EXIT_TIMEINGUEST])
                ev->min_ticks[EXIT_TIMEINGUEST] = ev->prev_g;
        }
        stats_exit(&ev->s, ev->now, r->type);
        ev->now += h;
        stats_enter(&ev->s, ev->now);
        ev->now += g;
        ev->prev = r->type;
        ev->prev_h = h;
        ev->prev_g = g;
    }
    return SIM_OK;
}

/* What the objective reads of one evaluation, per row of the hw table. */
typedef struct evalout {
    double avg[EXIT__COUNT], sd[EXIT__COUNT], min[EXIT__COUNT];
    uint64_t count[EXIT__COUNT];
    double guest_from_trace;
} evalout;

static void ev_end(evaluator *ev, bool fold, evalout *o)
{
    table t;
    stats_to_table(&ev->s, &t);
    uint64_t mt[EXIT__COUNT];
    memcpy(mt, ev->min_ticks, sizeof mt);
    if (fold) {
        table_fold_emul(&t, &t);
        for (int i = 0; i < EXIT__COUNT; i++)
            if (exit_is_emul((exit_type)i) && mt[i] < mt[EXIT_EMULINST])
                mt[EXIT_EMULINST] = mt[i];
    }
    double tbpu = (double)ev->s.tb_per_usec;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const table_row *r = &t.rows[i];
        o->count[i] = r->present ? r->count : 0;
        o->avg[i] = o->count[i] ? r->avg : 0;
        o->sd[i] = o->count[i] ? r->stddev : 0;
        /* the true (untruncated) minimum: continuous in the parameters */
        o->min[i] = mt[i] == UINT64_MAX ? 0 : (double)mt[i] / tbpu;
    }
    uint64_t gt, gm;
    cost_guest_counts(ev->m, &gt, &gm);
    o->guest_from_trace = gt + gm ? (double)gt / (double)(gt + gm) : 0;
    cost_free(ev->m);
    ev->m = NULL;
}

/* ---- the fit's context ---- */

typedef struct fitctx {
    const calib_opts *o;
    const table *hw;
    trace_header h;
    trace_rec *recs; /* the (subsampled) records */
    size_t nrecs;
    params base;
    int ncand, cand[PARAM__COUNT]; /* candidate ids */
    int nfree, free_[PARAM__COUNT]; /* indices into cand being fitted */
    double u_all[PARAM__COUNT];     /* transformed values of all candidates */
    bool fold;
    int nused, used[EXIT__COUNT];
    double w[EXIT__COUNT];
    /* the factors of the avg and stddev residuals' weights: how noisy
     * each is (calib_noise) */
    double g_avg[EXIT__COUNT], g_sd[EXIT__COUNT];
    double tgt_min[EXIT__COUNT]; /* hw min (usec) */
    /* per row: how far above the printed min the true one may lie: 1 usec
     * for a whole number (2.6.29 truncates every sample, 3.1+ divides the
     * ticks once when printing: do_div truncates both), 0 for a min
     * printed with its fraction (a json table of sim replay) */
    double min_width[EXIT__COUNT];
    size_t nres;
    unsigned evals;
    /* last evaluation, for the df callback (GSL calls f(x) before df(x)) */
    gsl_vector *last_x, *last_f;
    bool have_last;
    sim_err err; /* first evaluation error */
    char errmsg[512];
} fitctx;

/* Params from the candidates' transformed values u_all. */
static void params_at(const fitctx *c, const double *u_all, params *p)
{
    *p = c->base;
    for (int k = 0; k < c->ncand; k++) {
        int id = c->cand[k];
        p->v[id] = to_x(u_all[k], c->o->lo[id], c->o->hi[id]);
    }
}

static sim_err evaluate(fitctx *c, const params *p, evalout *out)
{
    evaluator ev;
    sim_err e = ev_begin(&ev, p, &c->h, c->o->unit);
    if (e != SIM_OK)
        return e;
    e = ev_records(&ev, c->recs, c->nrecs);
    ev_end(&ev, c->fold, out);
    return e;
}

double calib_extreme_share(const calib_sample *s)
{
    if (!(s->n >= 1) || !(s->sd > 0) || !isfinite(s->max) ||
        !isfinite(s->min) || !isfinite(s->avg))
        return 0;
    double d = fmax(s->max - s->avg, s->avg - s->min);
    double f = d * d / (s->n * s->sd * s->sd);
    return f < 1 ? f : 1;
}

/* The residuals' noise (docs/calibration.md, "How noisy each residual
 * is"). The avg of n exits of stddev sd is uncertain by sd / sqrt(n), in
 * the table (one run) and in the model's replay (one draw of its host
 * events) alike. A stddev's square is the sum S of the n squared
 * deviations d_j^2 over n; when its large deviations come as a Poisson
 * number of rare events (a preemption here and there), Var(S) is about
 * sum d_j^4 <= max d_j^2 x S, so the relative spread of S is at most
 * sqrt(f), f the extreme share, and that of ln(sd) half of it. The
 * residual compares ln(sd + CALIB_SD_FLOOR): its sensitivity to ln(sd)
 * is sd / (sd + floor). */
void calib_noise(const calib_sample *hw, const calib_sample *m,
                 double *sigma_avg, double *sigma_sd, double *g_avg,
                 double *g_sd)
{
    double va = 0, vs = 0;
    const calib_sample *side[2] = {hw, m};
    for (int k = 0; k < 2; k++) {
        const calib_sample *s = side[k];
        if (!(s->n >= 1) || !(s->sd > 0))
            continue;
        va += s->sd * s->sd / s->n;
        double q = s->sd / (s->sd + CALIB_SD_FLOOR);
        vs += calib_extreme_share(s) * q * q;
    }
    double a = fabs(hw->avg) > 1 ? fabs(hw->avg) : 1; /* as rel() */
    *sigma_avg = sqrt(va) / a;
    *sigma_sd = 0.5 * sqrt(vs);
    double ra = *sigma_avg / CALIB_TAU_AVG, rs = *sigma_sd / CALIB_TAU_SD;
    *g_avg = 1 / sqrt(1 + ra * ra);
    *g_sd = 1 / sqrt(1 + rs * rs);
}

static double rel(double model, double hw)
{
    return (model - hw) / (fabs(hw) > 1 ? fabs(hw) : 1);
}

static void residuals(const fitctx *c, const evalout *e, double *f)
{
    size_t k = 0;
    for (int j = 0; j < c->nused; j++) {
        int i = c->used[j];
        const table_row *r = &c->hw->rows[i];
        double w = c->w[i];
        f[k++] = w * c->g_avg[i] * rel(e->avg[i], r->avg);
        /* stddevs span orders of magnitude (rare long exits): log ratio */
        f[k++] = w * c->g_sd[i] * CALIB_W_SD *
                 log((e->sd[i] + CALIB_SD_FLOOR) / (r->stddev + CALIB_SD_FLOOR));
        /* a printed min m says the true minimum lies in [m, m + 1) usec
         * (2.6.29 truncates each sample): no residual inside, the
         * distance to the interval outside */
        double lo = c->tgt_min[i], mm = e->min[i], hi = lo + c->min_width[i];
        double d = mm < lo ? mm - lo : mm > hi ? mm - hi : 0;
        f[k++] = w * CALIB_W_MIN * d / (lo > 1 ? lo : 1);
    }
}

/* ---- parallel finite differences ---- */

typedef struct fdjob {
    fitctx *c;
    const double *u0;     /* all candidates */
    const int *cols;      /* candidate indices of the columns */
    int ncols, first, step;
    double *out;          /* ncols x nres, row-major by column */
    sim_err err;
    char errmsg[512];
} fdjob;

static void *fd_worker(void *arg)
{
    fdjob *j = arg;
    fitctx *c = j->c;
    double u[PARAM__COUNT];
    for (int q = j->first; q < j->ncols; q += j->step) {
        memcpy(u, j->u0, sizeof(double) * (size_t)c->ncand);
        u[j->cols[q]] += c->o->fd_step;
        params p;
        params_at(c, u, &p);
        evalout e;
        sim_err err = evaluate(c, &p, &e);
        if (err != SIM_OK) {
            j->err = err;
            snprintf(j->errmsg, sizeof j->errmsg, "%s", sim_errmsg());
            return NULL;
        }
        residuals(c, &e, j->out + (size_t)q * c->nres);
    }
    return NULL;
}

/* Residuals at u0 + step e_col for each of ncols columns into out (ncols x
 * nres), using o->threads threads; each column is one independent,
 * deterministic evaluation, so the thread count cannot change results. */
static sim_err fd_columns(fitctx *c, const double *u0, const int *cols,
                          int ncols, double *out)
{
    unsigned nt = c->o->threads ? c->o->threads : 1;
    if (nt > (unsigned)ncols)
        nt = (unsigned)ncols;
    if (nt > 64)
        nt = 64;
    fdjob jobs[64];
    pthread_t th[64];
    for (unsigned t = 0; t < nt; t++)
        jobs[t] = (fdjob){c, u0, cols, ncols, (int)t, (int)nt, out, SIM_OK,
                          ""};
    for (unsigned t = 1; t < nt; t++)
        if (pthread_create(&th[t], NULL, fd_worker, &jobs[t]) != 0)
            return sim_fail(SIM_ERR_NOMEM, "calibrate: cannot start a thread");
    fd_worker(&jobs[0]);
    for (unsigned t = 1; t < nt; t++)
        pthread_join(th[t], NULL);
    c->evals += (unsigned)ncols;
    for (unsigned t = 0; t < nt; t++)
        if (jobs[t].err != SIM_OK)
            return sim_fail(jobs[t].err, "%s", jobs[t].errmsg);
    return SIM_OK;
}

/* ---- GSL callbacks (over the free candidates) ---- */

static void u_all_from(const fitctx *c, const gsl_vector *x, double *u)
{
    memcpy(u, c->u_all, sizeof(double) * (size_t)c->ncand);
    for (int k = 0; k < c->nfree; k++)
        u[c->free_[k]] = gsl_vector_get(x, (size_t)k);
}

static int cb_f(const gsl_vector *x, void *arg, gsl_vector *f)
{
    fitctx *c = arg;
    double u[PARAM__COUNT];
    u_all_from(c, x, u);
    params p;
    params_at(c, u, &p);
    evalout e;
    sim_err err = evaluate(c, &p, &e);
    c->evals++;
    if (err != SIM_OK) {
        if (c->err == SIM_OK) {
            c->err = err;
            snprintf(c->errmsg, sizeof c->errmsg, "%s", sim_errmsg());
        }
        return GSL_EBADFUNC;
    }
    residuals(c, &e, f->data);
    gsl_vector_memcpy(c->last_x, x);
    gsl_vector_memcpy(c->last_f, f);
    c->have_last = true;
    return GSL_SUCCESS;
}

static int cb_df(const gsl_vector *x, void *arg, gsl_matrix *J)
{
    fitctx *c = arg;
    gsl_vector *f0 = gsl_vector_alloc(c->nres);
    if (!c->have_last || !gsl_vector_equal(c->last_x, x))
        if (cb_f(x, c, f0) != GSL_SUCCESS) {
            gsl_vector_free(f0);
            return GSL_EBADFUNC;
        }
    gsl_vector_memcpy(f0, c->last_f);
    double u[PARAM__COUNT];
    u_all_from(c, x, u);
    double *out = malloc(sizeof(double) * c->nres * (size_t)c->nfree);
    if (!out) {
        gsl_vector_free(f0);
        return GSL_ENOMEM;
    }
    sim_err err = fd_columns(c, u, c->free_, c->nfree, out);
    if (err != SIM_OK) {
        if (c->err == SIM_OK) {
            c->err = err;
            snprintf(c->errmsg, sizeof c->errmsg, "%s", sim_errmsg());
        }
        free(out);
        gsl_vector_free(f0);
        return GSL_EBADFUNC;
    }
    for (int k = 0; k < c->nfree; k++)
        for (size_t i = 0; i < c->nres; i++)
            gsl_matrix_set(J, i, (size_t)k,
                           (out[(size_t)k * c->nres + i] - f0->data[i]) /
                               c->o->fd_step);
    free(out);
    gsl_vector_free(f0);
    return GSL_SUCCESS;
}

static void progress(const calib_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void progress(const calib_opts *o, const char *fmt, ...)
{
    if (!o->progress)
        return;
    char line[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    o->progress(o->progress_ctx, line);
}

typedef struct cbstate {
    fitctx *c;
    calib_result *r;
} cbstate;

static void cb_iter(const size_t iter, void *arg,
                    const gsl_multifit_nlinear_workspace *w)
{
    cbstate *s = arg;
    gsl_vector *f = gsl_multifit_nlinear_residual(w);
    double chi = gsl_blas_dnrm2(f);
    s->r->iterations = (unsigned)iter;
    progress(s->c->o, "calibrate: iteration %zu, cost %.6g (start %.6g), %u "
             "replays", iter, 0.5 * chi * chi, s->r->cost0, s->c->evals);
}

/* ---- loading the (subsampled) trace ---- */

/* One load_trace pass: which records are kept, and the counts. */
typedef struct load_pass {
    fitctx *c;
    const char *path;
    calib_result *r;
    bool count;         /* the trace's counts into r too */
    bool sub;           /* subsampled: */
    uint64_t L, stride; /* blocks of L consecutive exits every stride */
    size_t cap;         /* of c->recs */
    uint64_t exits;
    int last; /* the last exit's type: the kernel never charges it */
} load_pass;

static sim_err load_header(void *ctx, const trace_header *h)
{
    load_pass *l = ctx;
    l->c->h = *h;
    l->r->clock_hz = (double)h->tb_hz;
    return SIM_OK;
}

static sim_err load_chunk(void *ctx, const trace_rec *recs, size_t n)
{
    load_pass *l = ctx;
    fitctx *c = l->c;
    for (size_t i = 0; i < n; i++) {
        const trace_rec *q = &recs[i];
        bool keep = true;
        if (q->kind == TREC_EXIT) {
            if (l->sub) {
                uint64_t b = l->exits / l->stride, off = l->exits % l->stride;
                keep = b < CALIB_BLOCKS && off < l->L;
            }
            l->exits++;
            if (l->count)
                l->r->row[q->type].count_trace++;
            l->last = q->type;
        }
        if (!keep)
            continue;
        if (c->nrecs == l->cap) {
            size_t nc = l->cap ? l->cap * 2 : 65536;
            trace_rec *nr = realloc(c->recs, nc * sizeof *nr);
            if (!nr)
                return sim_fail(SIM_ERR_NOMEM,
                                "calibrate: %s: out of memory holding "
                                "the records (use --subsample)",
                                l->path);
            c->recs = nr;
            l->cap = nc;
        }
        c->recs[c->nrecs++] = *q;
    }
    return SIM_OK;
}

/* Loads the records the fit replays: `want` exits (0: all) in
 * CALIB_BLOCKS blocks. With count, also the trace's counts into r. */
static sim_err load_trace(fitctx *c, const char *path, calib_result *r,
                          uint64_t want, bool count)
{
    uint64_t nex = trace_footer_hint(path).n_exits;
    load_pass l = {.c = c, .path = path, .r = r, .count = count, .last = -1};
    /* (a trace of fewer than CALIB_BLOCKS exits is replayed whole) */
    l.sub = want > 0 && nex > want && nex >= CALIB_BLOCKS;
    l.L = l.sub ? want / CALIB_BLOCKS : 0;
    l.stride = l.sub ? nex / CALIB_BLOCKS : 0;
    if (l.sub && l.L == 0)
        l.L = 1;
    trace_pass p = {.ctx = &l, .header = load_header, .chunk = load_chunk};
    sim_err e = trace_pass_file(path, &p, NULL);
    if (e != SIM_OK)
        return e;
    /* counts as the replayed table charges them (all exits but the last),
     * so the mix printed here agrees with sim replay's table */
    if (l.last >= 0 && count)
        r->row[l.last].count_trace--;
    r->trace_exits = l.exits;
    if (l.exits == 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "calibrate: %s: the trace has no exits", path);
    uint64_t kept = 0;
    for (size_t i = 0; i < c->nrecs; i++)
        kept += c->recs[i].kind == TREC_EXIT;
    r->fit_exits = kept;
    return SIM_OK;
}

/* ---- rows: which enter the objective, weights, mix ---- */

static bool table_has_emul_rows(const table *t)
{
    for (int i = 0; i < EXIT__COUNT; i++)
        if (exit_is_emul((exit_type)i) && t->rows[i].present &&
            t->rows[i].count > 0)
            return true;
    return false;
}

static sim_err setup_rows(fitctx *c, const char *path, calib_result *r)
{
    const table *hw = c->hw;
    c->fold = hw->rows[EXIT_EMULINST].present && !table_has_emul_rows(hw);
    r->fold_emul = c->fold;
    if (c->fold) { /* the trace's EMUL_* counts go to EMULINST */
        for (int i = 0; i < EXIT__COUNT; i++)
            if (exit_is_emul((exit_type)i)) {
                r->row[EXIT_EMULINST].count_trace += r->row[i].count_trace;
                r->row[i].count_trace = 0;
            }
    }
    /* the trace's guest entries: every exit but the last is charged */
    r->row[EXIT_TIMEINGUEST].count_trace =
        r->trace_exits ? r->trace_exits - 1 : 0;
    double traced = hw->traced_usec;
    double sum_all = 0;
    uint64_t hw_exits = 0, tr_exits = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const table_row *t = &hw->rows[i];
        if (t->present && isfinite(t->sum))
            sum_all += t->sum;
        if (i == EXIT_TIMEINGUEST)
            continue;
        if (t->present)
            hw_exits += t->count;
        tr_exits += r->row[i].count_trace;
    }
    int n_rows = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        n_rows += hw->rows[i].present;
    if (!(traced > 0)) {
        traced = sum_all;
        r->total_handled = !hw->rows[EXIT_TIMEINGUEST].present;
    } else if (!hw->rows[EXIT_TIMEINGUEST].present &&
               fabs(traced - sum_all) <= n_rows + 1e-3 * sum_all) {
        /* a traced duration that is the exit rows' sum (perf's handled
         * time written in the kvm form): no guest time in it either, as
         * table_handled_only (model/table.c) reads it */
        r->total_handled = true;
    }
    r->hw_exits = hw_exits;
    r->total_hw = traced;
    for (int i = 0; i < EXIT__COUNT; i++) {
        calib_row *w = &r->row[i];
        const table_row *t = &hw->rows[i];
        w->count_hw = t->present ? t->count : 0;
        if (i != EXIT_TIMEINGUEST) {
            w->mix_hw = hw_exits ? (double)w->count_hw / (double)hw_exits : 0;
            w->mix_trace =
                tr_exits ? (double)w->count_trace / (double)tr_exits : 0;
        }
        w->avg_hw = t->avg;
        w->sd_hw = t->stddev;
        w->min_hw = t->min;
        w->sum_hw = t->sum;
        w->time_share = traced > 0 && isfinite(t->sum) ? t->sum / traced : 0;
        w->avg_full = w->sum_full = NAN;
        if (!(w->count_hw > 0 && w->count_trace > 0))
            continue;
        if (!isfinite(t->avg) || !isfinite(t->stddev) || !isfinite(t->min))
            return sim_fail(SIM_ERR_FORMAT,
                            "calibrate: the table's row %s lacks avg, "
                            "stddev or min",
                            exit_name((exit_type)i));
        w->used = true;
        w->weight = sqrt(w->time_share > CALIB_MIN_SHARE ? w->time_share
                                                          : CALIB_MIN_SHARE);
        /* An idle wait's own row (a table with EMUL_* rows) is reported,
         * not fitted: a wait lasts from the guest's idle to its next tick,
         * and where in its tick period the guest idles is the guest's
         * phase, which no cost parameter owns (guest_hz is given). Fitted,
         * its avg (a quarter of the time on cpu440's boot) moved every
         * cost to shift the model's phase: 8-9% off on every other row. */
        if (i == EXIT_EMUL_WAIT)
            w->weight = 0;
        c->w[i] = w->weight;
        /* how noisy its residuals are: the table's row, and the model's
         * replay as another draw of the same distribution over the
         * trace's exits of the row (a function of the table and the
         * trace alone, so the objective is one wherever the fit starts
         * and whoever evaluates it) */
        calib_sample hs = {(double)t->count, t->avg, t->stddev, t->min,
                           t->max};
        calib_sample ms = hs;
        ms.n = (double)w->count_trace;
        w->xshare_hw = calib_extreme_share(&hs);
        calib_noise(&hs, &ms, &w->sigma_avg, &w->sigma_sd, &w->g_avg,
                    &w->g_sd);
        c->g_avg[i] = w->g_avg;
        c->g_sd[i] = w->g_sd;
        c->tgt_min[i] = t->min;
        c->min_width[i] = t->min == floor(t->min) ? 1 : 0;
        c->used[c->nused++] = i;
    }
    if (c->nused == 0 || (c->nused == 1 && c->used[0] == EXIT_TIMEINGUEST))
        return sim_fail(SIM_ERR_FORMAT,
                        "calibrate: the table and the trace %s have no exit "
                        "row in common (table rows with a count: none of "
                        "them in the trace)",
                        path);
    c->nres = 3 * (size_t)c->nused;
    return SIM_OK;
}

/* ---- identifiability ---- */

/* Fills J (nres x ncand) at u_all; returns the residuals at u_all in f0. */
static sim_err jacobian_all(fitctx *c, const double *u_all, double *f0,
                            gsl_matrix *J)
{
    params p;
    params_at(c, u_all, &p);
    evalout e;
    sim_err err = evaluate(c, &p, &e);
    c->evals++;
    if (err != SIM_OK)
        return err;
    residuals(c, &e, f0);
    int cols[PARAM__COUNT];
    for (int k = 0; k < c->ncand; k++)
        cols[k] = k;
    double *out = malloc(sizeof(double) * c->nres * (size_t)c->ncand);
    if (!out)
        return sim_fail(SIM_ERR_NOMEM, "calibrate: out of memory");
    err = fd_columns(c, u_all, cols, c->ncand, out);
    if (err == SIM_OK)
        for (int k = 0; k < c->ncand; k++)
            for (size_t i = 0; i < c->nres; i++)
                gsl_matrix_set(J, i, (size_t)k,
                               (out[(size_t)k * c->nres + i] - f0[i]) /
                                   c->o->fd_step);
    free(out);
    return err;
}

static double col_norm(const gsl_matrix *J, size_t k)
{
    gsl_vector_const_view v = gsl_matrix_const_column(J, k);
    return gsl_blas_dnrm2(&v.vector);
}

/* Decides which candidates are fitted: columns without effect are unseen;
 * of the rest, a pivoted QR keeps the columns whose |R_ii| exceed rank_tol
 * x |R_00|; each dropped one is named with the fitted column it is most
 * parallel to. Also the singular values and the weakest combinations. */
static void identify(fitctx *c, const gsl_matrix *J, calib_result *r)
{
    size_t n = J->size1, p = J->size2;
    double maxn = 0;
    for (size_t k = 0; k < p; k++)
        if (col_norm(J, k) > maxn)
            maxn = col_norm(J, k);
    int seen[PARAM__COUNT], nseen = 0;
    for (size_t k = 0; k < p; k++) {
        calib_param *cp = &r->par[k];
        if (maxn == 0 || col_norm(J, k) <= 1e-6 * maxn) {
            cp->state = CALIB_UNSEEN;
            snprintf(cp->why, sizeof cp->why,
                     "no effect on any row of the table");
        } else
            seen[nseen++] = (int)k;
    }
    c->nfree = 0;
    if (nseen == 0)
        return;
    /* A = the seen columns, padded with zero rows to at least as many rows
     * as columns (GSL's SVD wants M >= N) */
    size_t rows = n > (size_t)nseen ? n : (size_t)nseen;
    gsl_matrix *A = gsl_matrix_calloc(rows, (size_t)nseen);
    for (int j = 0; j < nseen; j++)
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(A, i, (size_t)j, gsl_matrix_get(J, i, (size_t)seen[j]));

    /* singular values and the weakest right singular vectors */
    gsl_matrix *U = gsl_matrix_alloc(rows, (size_t)nseen);
    gsl_matrix_memcpy(U, A);
    gsl_matrix *V = gsl_matrix_alloc((size_t)nseen, (size_t)nseen);
    gsl_vector *S = gsl_vector_alloc((size_t)nseen);
    gsl_vector *wk = gsl_vector_alloc((size_t)nseen);
    gsl_linalg_SV_decomp(U, V, S, wk);
    double s0 = gsl_vector_get(S, 0);
    r->nsv = nseen;
    for (int j = 0; j < nseen; j++)
        r->sv[j] = s0 > 0 ? gsl_vector_get(S, (size_t)j) / s0 : 0;
    int nnote = 0;
    for (int j = nseen - 1; j >= 0 && nnote < 4; j--) {
        if (r->sv[j] >= c->o->rank_tol)
            break;
        /* the combination: its three largest components */
        char *b = r->sv_note[nnote];
        size_t off = (size_t)snprintf(b, 200, "s/s0 = %.1e:", r->sv[j]);
        bool used_k[PARAM__COUNT] = {false};
        for (int t = 0; t < 3; t++) {
            int best = -1;
            double bv = 0;
            for (int q = 0; q < nseen; q++) {
                double v = fabs(gsl_matrix_get(V, (size_t)q, (size_t)j));
                if (!used_k[q] && v > bv) {
                    bv = v;
                    best = q;
                }
            }
            if (best < 0 || bv < 0.1)
                break;
            used_k[best] = true;
            double v = gsl_matrix_get(V, (size_t)best, (size_t)j);
            if (off < 200)
                off += (size_t)snprintf(b + off, 200 - off, " %+.2f %s", v,
                                        param_name(c->cand[seen[best]]));
        }
        nnote++;
    }

    /* pivoted QR: the well-determined subset */
    gsl_matrix *Q = gsl_matrix_alloc(rows, (size_t)nseen);
    gsl_matrix_memcpy(Q, A);
    gsl_vector *tau = gsl_vector_alloc((size_t)nseen);
    gsl_permutation *perm = gsl_permutation_alloc((size_t)nseen);
    gsl_vector *norm = gsl_vector_alloc((size_t)nseen);
    int sign;
    gsl_linalg_QRPT_decomp(Q, tau, perm, &sign, norm);
    double r00 = fabs(gsl_matrix_get(Q, 0, 0));
    int rank = 0;
    for (int j = 0; j < nseen; j++) {
        if (fabs(gsl_matrix_get(Q, (size_t)j, (size_t)j)) <=
            c->o->rank_tol * r00)
            break;
        rank++;
    }
    bool fitted[PARAM__COUNT] = {false};
    for (int j = 0; j < rank; j++) {
        int k = seen[gsl_permutation_get(perm, (size_t)j)];
        fitted[k] = true;
    }
    /* keep the fitted ones in candidate order (stable output) */
    for (int k = 0; k < c->ncand; k++)
        if (fitted[k]) {
            c->free_[c->nfree++] = k;
            r->par[k].state = CALIB_FITTED;
        }
    for (int j = 0; j < nseen; j++) {
        int k = seen[j];
        if (fitted[k])
            continue;
        /* the fitted column it is most parallel to */
        double best = 0;
        int bk = -1;
        gsl_vector_const_view a = gsl_matrix_const_column(J, (size_t)k);
        for (int q = 0; q < c->nfree; q++) {
            gsl_vector_const_view b =
                gsl_matrix_const_column(J, (size_t)c->free_[q]);
            double d;
            gsl_blas_ddot(&a.vector, &b.vector, &d);
            double cs = d / (gsl_blas_dnrm2(&a.vector) *
                             gsl_blas_dnrm2(&b.vector));
            if (fabs(cs) > fabs(best)) {
                best = cs;
                bk = c->free_[q];
            }
        }
        r->par[k].state = CALIB_COLLINEAR;
        /* its pivot: what it adds beyond the fitted ones */
        double piv = 0;
        for (int q = rank; q < nseen; q++)
            if (seen[gsl_permutation_get(perm, (size_t)q)] == k)
                piv = fabs(gsl_matrix_get(Q, (size_t)q, (size_t)q)) / r00;
        if (bk >= 0 && fabs(best) >= 0.9)
            snprintf(r->par[k].why, sizeof r->par[k].why,
                     "undetermined: its effect lies in that of the fitted "
                     "ones (most like %s, cos %+.3f)",
                     param_name(c->cand[bk]), best);
        else
            snprintf(r->par[k].why, sizeof r->par[k].why,
                     "undetermined: what it adds beyond the fitted ones is "
                     "%.1e of the strongest direction (below --rank-tol)",
                     piv);
    }
    gsl_matrix_free(A);
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(S);
    gsl_vector_free(wk);
    gsl_matrix_free(Q);
    gsl_vector_free(tau);
    gsl_permutation_free(perm);
    gsl_vector_free(norm);
}

/* ---- the run ---- */

static double objective(const double *f, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += f[i] * f[i];
    return 0.5 * s;
}

/* Rows of the result from one evaluation at the final point. */
static void fill_rows(const fitctx *c, const evalout *e, calib_result *r,
                      bool start)
{
    /* counts scaled from the trace to the table's number of exits */
    double scale = r->trace_exits
                       ? (double)r->hw_exits / (double)r->trace_exits
                       : 0;
    double total = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        calib_row *w = &r->row[i];
        if (!w->count_trace)
            continue;
        if (start) {
            w->avg0 = e->avg[i];
            w->sd0 = e->sd[i];
            w->min0 = e->min[i];
            continue;
        }
        w->avg = e->avg[i];
        w->sd = e->sd[i];
        w->min = e->min[i];
        w->sum = e->avg[i] * (double)w->count_trace * scale;
        if (!(r->total_handled && i == EXIT_TIMEINGUEST))
            total += w->sum; /* like with like: no guest time in hw's */
    }
    (void)c;
    if (!start)
        r->total = total;
}

/* One full_check pass: the evaluator, once the header has begun it. */
typedef struct check_pass {
    evaluator ev;
    const params *p;
    stats_unit unit;
    bool begun;
} check_pass;

static sim_err check_header(void *ctx, const trace_header *h)
{
    check_pass *k = ctx;
    sim_err e = ev_begin(&k->ev, k->p, h, k->unit);
    k->begun = e == SIM_OK;
    return e;
}

static sim_err check_chunk(void *ctx, const trace_rec *recs, size_t n)
{
    return ev_records(&((check_pass *)ctx)->ev, recs, n);
}

static sim_err full_check(fitctx *c, const char *path, calib_result *r)
{
    check_pass k = {.p = &r->fitted, .unit = c->o->unit};
    trace_pass p = {.ctx = &k, .header = check_header, .chunk = check_chunk};
    sim_err e = trace_pass_file(path, &p, NULL);
    if (!k.begun)
        return e;
    evalout o;
    ev_end(&k.ev, c->fold, &o);
    if (e != SIM_OK)
        return e;
    double scale = r->trace_exits
                       ? (double)r->hw_exits / (double)r->trace_exits
                       : 0;
    r->total_full = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        calib_row *w = &r->row[i];
        if (!w->count_trace)
            continue;
        w->avg_full = o.avg[i];
        w->sum_full = o.avg[i] * (double)w->count_trace * scale;
        if (!(r->total_handled && i == EXIT_TIMEINGUEST))
            r->total_full += w->sum_full;
    }
    return SIM_OK;
}

/* The trust-region fit of the free candidates from c->u_all, at most
 * max_iter iterations: the position into u_fit, the status, iterations and
 * 1-sigma uncertainties into r. */
static sim_err lm_fit(fitctx *c, calib_result *r, unsigned max_iter,
                      double *u_fit)
{
    const calib_opts *o = c->o;
    sim_err e = SIM_OK;
    memcpy(u_fit, c->u_all, sizeof(double) * PARAM__COUNT);
    gsl_multifit_nlinear_fdf fdf = {.f = cb_f,
                                    .df = cb_df,
                                    .fvv = NULL,
                                    .n = c->nres,
                                    .p = (size_t)c->nfree,
                                    .params = c};
    gsl_multifit_nlinear_parameters fp =
        gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace *w = gsl_multifit_nlinear_alloc(
        gsl_multifit_nlinear_trust, &fp, c->nres, (size_t)c->nfree);
    gsl_vector *x0 = gsl_vector_alloc((size_t)c->nfree);
    c->last_x = gsl_vector_alloc((size_t)c->nfree);
    c->last_f = gsl_vector_alloc(c->nres);
    c->have_last = false;
    for (int k = 0; k < c->nfree; k++)
        gsl_vector_set(x0, (size_t)k, c->u_all[c->free_[k]]);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int info = 0;
    int st = gsl_multifit_nlinear_init(x0, &fdf, w);
    cbstate cs = {c, r};
    if (st == GSL_SUCCESS)
        st = gsl_multifit_nlinear_driver(max_iter, 1e-8, 1e-8, 1e-8, cb_iter,
                                         &cs, &info, w);
    r->iterations = (unsigned)gsl_multifit_nlinear_niter(w);
    if (c->err != SIM_OK) {
        e = sim_fail(c->err, "%s", c->errmsg);
    } else {
        gsl_vector *x = gsl_multifit_nlinear_position(w);
        u_all_from(c, x, u_fit);
        /* GSL's driver reports a first iteration without any step that
         * lowers the objective as GSL_EMAXITER with info GSL_ENOPROG: the
         * start is already a minimum to the model's resolution (a table
         * made by the model at the start values, or a start at the fitted
         * point) - converged, not an iteration limit */
        if (st == GSL_EMAXITER && info == GSL_ENOPROG)
            st = GSL_ENOPROG;
        r->converged = st == GSL_SUCCESS || st == GSL_ENOPROG;
        snprintf(r->status, sizeof r->status, "%s",
                 st == GSL_SUCCESS
                     ? (info == 1   ? "converged (step below tolerance)"
                        : info == 2 ? "converged (gradient below "
                                      "tolerance)"
                                    : "converged")
                 : st == GSL_ENOPROG
                     ? "converged (no step decreases the objective "
                       "further)"
                 : st == GSL_EMAXITER ? "NOT CONVERGED: iteration limit "
                                        "reached; the best point is kept"
                                      : gsl_strerror(st));
        /* 1-sigma: (J'J)^-1 scaled by the residual variance */
        gsl_matrix *Jf = gsl_multifit_nlinear_jac(w);
        gsl_matrix *cov =
            gsl_matrix_alloc((size_t)c->nfree, (size_t)c->nfree);
        gsl_multifit_nlinear_covar(Jf, 0.0, cov);
        gsl_vector *fr = gsl_multifit_nlinear_residual(w);
        double chi2 = gsl_blas_dnrm2(fr);
        chi2 *= chi2;
        r->cost_fit = 0.5 * chi2;
        int dof = (int)c->nres - c->nfree;
        r->resvar = dof > 0 ? chi2 / dof : NAN;
        for (int k = 0; k < c->nfree; k++) {
            int ci = c->free_[k];
            int id = c->cand[ci];
            /* statistical: (J'J)^-1 x residual variance; in quadrature
             * with the fit's resolution, half the finite-difference step
             * (the model rounds cycles, so it is flat on finer scales and
             * the residuals cannot say more) */
            double su2 =
                gsl_matrix_get(cov, (size_t)k, (size_t)k) * r->resvar;
            double res = 0.5 * o->fd_step;
            double su = sqrt(su2 + res * res);
            r->par[ci].sigma = su * dx_du(u_fit[ci], o->lo[id], o->hi[id]);
        }
        /* their correlations, with the same resolution term on the
         * diagonal (the bounded map's derivative cancels: a linear
         * change of each coordinate keeps correlations) */
        memset(r->corr, 0, sizeof r->corr);
        for (int k = 0; k < c->nfree; k++)
            for (int l = 0; l < c->nfree; l++) {
                double res2 = 0.25 * o->fd_step * o->fd_step;
                double vk = gsl_matrix_get(cov, (size_t)k, (size_t)k) *
                                r->resvar + res2;
                double vl = gsl_matrix_get(cov, (size_t)l, (size_t)l) *
                                r->resvar + res2;
                double ckl = gsl_matrix_get(cov, (size_t)k, (size_t)l) *
                             r->resvar;
                double x = k == l ? 1 : ckl / sqrt(vk * vl);
                r->corr[c->free_[k]][c->free_[l]] =
                    isfinite(x) ? fmax(-1, fmin(1, x)) : 0;
            }
        gsl_matrix_free(cov);
    }
    gsl_set_error_handler(old);
    gsl_vector_free(x0);
    gsl_vector_free(c->last_x);
    gsl_vector_free(c->last_f);
    c->last_x = c->last_f = NULL;
    c->have_last = false;
    gsl_multifit_nlinear_free(w);
    return e;
}

/* The total (usec, scaled to the table's exits) of an evaluation, as
 * fill_rows computes it. */
static double eval_total(fitctx *c, const double *u, calib_result *r)
{
    params p;
    params_at(c, u, &p);
    evalout eo;
    if (evaluate(c, &p, &eo) != SIM_OK)
        return NAN;
    c->evals++;
    calib_result tmp = *r;
    fill_rows(c, &eo, &tmp, false);
    return tmp.total;
}

/* Which candidates are fitted is decided at the start (identify), from
 * the Jacobian there; the model is not linear, and two columns that look
 * alike at the start need not be alike elsewhere. On a 533 MHz board (the
 * seed's no-PV table) guest_cpi was held at the start as a near copy of
 * icache_miss_cycles (cos +0.996); the fit then moved icache_miss_cycles
 * alone and stopped at an objective of 0.0101 with TIMEINGUEST 78% off,
 * where fitting guest_cpi reaches 0.0001. So the candidates are
 * identified again at the fitted point: when that picks another set, the
 * fit goes on from the point with it (the parameters it no longer fits
 * held at their first-round values), and the second point is kept when
 * its objective is lower. One Jacobian more; a second fit only when the
 * set changed. */
static sim_err second_round(fitctx *c, calib_result *r, double *u_fit)
{
    if (c->nfree == 0)
        return SIM_OK;
    gsl_matrix *J = gsl_matrix_alloc(c->nres, (size_t)c->ncand);
    double f0[3 * EXIT__COUNT];
    sim_err e = jacobian_all(c, u_fit, f0, J);
    if (e != SIM_OK) {
        gsl_matrix_free(J);
        return e;
    }
    calib_result *r1 = malloc(sizeof *r1);
    if (!r1) {
        gsl_matrix_free(J);
        return sim_fail(SIM_ERR_NOMEM, "calibrate: out of memory");
    }
    *r1 = *r;
    int nfree1 = c->nfree, free1[PARAM__COUNT];
    memcpy(free1, c->free_, sizeof free1);
    identify(c, J, r);
    gsl_matrix_free(J);
    bool same = c->nfree == nfree1 &&
                !memcmp(free1, c->free_, sizeof(int) * (size_t)nfree1);
    if (same) {
        *r = *r1; /* the start's identification, as reported */
        free(r1);
        return SIM_OK;
    }
    double u_start[PARAM__COUNT], u2[PARAM__COUNT];
    memcpy(u_start, c->u_all, sizeof u_start);
    memcpy(c->u_all, u_fit, sizeof u_start);
    e = lm_fit(c, r, c->o->max_iter, u2);
    if (e != SIM_OK) {
        free(r1);
        return e;
    }
    double cost2 = r->cost_fit;
    int added = 0, dropped = 0;
    for (int k = 0; k < r->nparam; k++) {
        bool was = r1->par[k].state == CALIB_FITTED,
             is = r->par[k].state == CALIB_FITTED;
        added += is && !was;
        dropped += was && !is;
    }
    if (cost2 < r1->cost_fit) {
        for (int k = 0; k < r->nparam; k++) {
            bool was = r1->par[k].state == CALIB_FITTED,
                 is = r->par[k].state == CALIB_FITTED;
            if (was && !is) {
                char why[120];
                snprintf(why, sizeof why, "%s", r->par[k].why);
                snprintf(r->par[k].why, sizeof r->par[k].why,
                         "first round's value; %.90s", why);
                r->par[k].first_round = true;
            }
        }
        memcpy(u_fit, u2, sizeof u2);
        r->round2 = true;
        r->nfit = c->nfree;
    } else {
        /* the first round's point, identification and uncertainties */
        *r = *r1;
        c->nfree = nfree1;
        memcpy(c->free_, free1, sizeof free1);
        memcpy(c->u_all, u_start, sizeof u_start);
    }
    r->round2_tried = true;
    r->round2_added = added;
    r->round2_dropped = dropped;
    r->cost_round1 = r1->cost_fit;
    r->cost_round2 = cost2;
    r->iterations_round1 = r1->iterations;
    free(r1);
    return SIM_OK;
}

/* The objective at p over the fit's records. */
static sim_err cost_at(fitctx *c, const params *p, double *cost)
{
    evalout eo;
    sim_err e = evaluate(c, p, &eo);
    c->evals++;
    if (e != SIM_OK)
        return e;
    double f[3 * EXIT__COUNT];
    residuals(c, &eo, f);
    *cost = objective(f, c->nres);
    return SIM_OK;
}

/* Whole-number parameters (cycles, lines, instructions) are fitted as
 * continuous values and rounded to the nearest whole value at the end.
 * The model is not smooth everywhere: a 2.6.29 table truncates every
 * sample to whole usec, so a fixed part of each exit or guest run near a
 * whole usec (the guest entry's cycles on a board at 400 MHz) books 0 or
 * 1 usec by one cycle, and rounding can step over that edge: a fit of
 * objective 0.00028 came out at 0.0102, worse than its start's 0.0055,
 * and the row on the edge 78% off. When the nearest whole values more
 * than double the fit's own objective, each fitted whole-number
 * parameter is tried at its other whole neighbour (floor or ceil of the
 * fitted value) in turn, a change kept when it lowers the objective,
 * until a pass keeps none (at most 3 passes); r->round_note says what
 * was kept. */
static sim_err round_search(fitctx *c, calib_result *r, const double *u_fit)
{
    r->cost_nearest = NAN;
    r->round_note[0] = '\0';
    if (!isfinite(r->cost_fit))
        return SIM_OK;
    params cont;
    params_at(c, u_fit, &cont);
    bool rounded = false;
    for (int k = 0; k < r->nparam; k++) {
        int id = r->par[k].id;
        if (r->par[k].state == CALIB_FITTED &&
            param_kind((param_id)id) == PK_INT &&
            r->fitted.v[id] != cont.v[id])
            rounded = true;
    }
    if (!rounded)
        return SIM_OK;
    double cost;
    sim_err e = cost_at(c, &r->fitted, &cost);
    if (e != SIM_OK)
        return e;
    r->cost_nearest = cost;
    if (!(cost > 2 * r->cost_fit))
        return SIM_OK;
    params nearest = r->fitted;
    for (int pass = 0; pass < 3; pass++) {
        bool moved = false;
        for (int k = 0; k < r->nparam; k++) {
            calib_param *cp = &r->par[k];
            int id = cp->id;
            if (cp->state != CALIB_FITTED ||
                param_kind((param_id)id) != PK_INT)
                continue;
            double x = cont.v[id], v = r->fitted.v[id];
            double alt = v == floor(x) ? ceil(x) : floor(x);
            if (alt == v || alt < cp->lo || alt > cp->hi ||
                alt < param_min((param_id)id) ||
                alt > param_max((param_id)id))
                continue;
            params q = r->fitted;
            q.v[id] = alt;
            double cq;
            if ((e = cost_at(c, &q, &cq)) != SIM_OK)
                return e;
            if (cq < cost) {
                r->fitted = q;
                cp->value = alt;
                cost = cq;
                moved = true;
            }
        }
        if (!moved)
            break;
    }
    size_t n = 0, cap = sizeof r->round_note;
    for (int k = 0; k < r->nparam && n < cap; k++) {
        int id = r->par[k].id;
        if (r->fitted.v[id] != nearest.v[id])
            n += (size_t)snprintf(r->round_note + n, cap - n, "%s%s %g "
                                  "(nearest %g)", n ? ", " : "",
                                  param_name((param_id)id), r->fitted.v[id],
                                  nearest.v[id]);
    }
    if (n == 0)
        snprintf(r->round_note, cap, "no whole neighbour lowers it");
    return SIM_OK;
}

sim_err calib_run(const char *path, const table *hw, const params *start,
                  const calib_opts *o, calib_result *r)
{
    memset(r, 0, sizeof *r);
    r->start = r->fitted = *start;
    r->total_full = NAN;
    r->resvar = NAN;
    fitctx c;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.hw = hw;
    c.base = *start;
    sim_err e = SIM_OK;

    /* candidates and their ranges */
    for (int i = 0; i < PARAM__COUNT; i++) {
        if (!o->fit[i])
            continue;
        double x = start->v[i], lo = o->lo[i], hi = o->hi[i];
        if (!(lo < hi) || lo < param_min((param_id)i) ||
            hi > param_max((param_id)i))
            return sim_fail(SIM_ERR_RANGE,
                            "calibrate: %s: range [%g, %g] must be "
                            "increasing and inside the parameter's [%g, %g]",
                            param_name((param_id)i), lo, hi,
                            param_min((param_id)i), param_max((param_id)i));
        if (x < lo || x > hi)
            return sim_fail(SIM_ERR_RANGE,
                            "calibrate: %s: range [%g, %g] excludes its "
                            "start value %g",
                            param_name((param_id)i), lo, hi, x);
        calib_param *cp = &r->par[c.ncand];
        cp->id = (param_id)i;
        cp->start = cp->value = x;
        cp->sigma = NAN;
        cp->lo = lo;
        cp->hi = hi;
        c.u_all[c.ncand] = to_u(x, lo, hi);
        c.cand[c.ncand++] = i;
    }
    r->nparam = c.ncand;
    if (c.ncand == 0)
        return sim_fail(SIM_ERR_USAGE, "calibrate: no parameter to fit");

    progress(o, "calibrate: reading %s", path);
    e = load_trace(&c, path, r, o->subsample, true);
    if (e != SIM_OK)
        goto out;
    e = setup_rows(&c, path, r);
    if (e != SIM_OK)
        goto out;
    r->nres = (int)c.nres;

    /* the start: residuals and the Jacobian of every candidate */
    progress(o, "calibrate: Jacobian of %d parameters at the start (%llu "
             "exits per replay)", c.ncand, (unsigned long long)r->fit_exits);
    {
        params p;
        params_at(&c, c.u_all, &p);
        evalout eo;
        e = evaluate(&c, &p, &eo);
        if (e != SIM_OK)
            goto out;
        fill_rows(&c, &eo, r, true);
        r->guest_from_trace = eo.guest_from_trace;
    }
    gsl_matrix *J = gsl_matrix_alloc(c.nres, (size_t)c.ncand);
    double f0[3 * EXIT__COUNT];
    e = jacobian_all(&c, c.u_all, f0, J);
    if (e != SIM_OK) {
        gsl_matrix_free(J);
        goto out;
    }
    r->cost0 = objective(f0, c.nres);
    identify(&c, J, r);
    gsl_matrix_free(J);
    r->nfit = c.nfree;

    double u_fit[PARAM__COUNT];
    memcpy(u_fit, c.u_all, sizeof u_fit);
    r->cost_fit = NAN;
    if (c.nfree > 0 && (size_t)c.nfree <= c.nres) {
        e = lm_fit(&c, r, o->max_iter, u_fit);
        if (e == SIM_OK)
            e = second_round(&c, r, u_fit);
        if (e != SIM_OK)
            goto out;
        /* Refinement: the subsample's point, fitted again on the whole
         * trace for a few iterations, so that the result carries no
         * subsample bias (docs/calibration.md, "Speed") */
        if (o->refine_iter > 0 && r->fit_exits < r->trace_exits &&
            r->converged) {
            r->sub_exits = r->fit_exits;
            r->sub_iterations = r->iterations;
            r->sub_total = eval_total(&c, u_fit, r);
            snprintf(r->sub_status, sizeof r->sub_status, "%s", r->status);
            progress(o, "calibrate: refining on the whole trace (%llu "
                     "exits)", (unsigned long long)r->trace_exits);
            free(c.recs);
            c.recs = NULL;
            c.nrecs = 0;
            e = load_trace(&c, path, r, 0, false);
            if (e != SIM_OK)
                goto out;
            r->sub_total_full = eval_total(&c, u_fit, r);
            memcpy(c.u_all, u_fit, sizeof u_fit);
            e = lm_fit(&c, r, o->refine_iter, u_fit);
            if (e != SIM_OK)
                goto out;
            r->refined = true;
            if (!r->converged) /* the refinement's own limit */
                snprintf(r->status, sizeof r->status,
                         "refinement stopped at --refine-iter %u; the "
                         "best point is kept",
                         o->refine_iter);
            r->converged = true;
        }
    } else {
        r->converged = true;
        snprintf(r->status, sizeof r->status,
                 c.nfree ? "not fitted: more parameters than residuals"
                         : "nothing to fit: no parameter is determined");
        r->converged = c.nfree == 0;
    }

    /* the result: whole-number parameters rounded, then evaluated */
    params_at(&c, u_fit, &r->fitted);
    for (int k = 0; k < c.ncand; k++) {
        int id = c.cand[k];
        double v = r->fitted.v[id];
        if (r->par[k].state != CALIB_FITTED && !r->par[k].first_round)
            v = start->v[id];
        if (param_kind((param_id)id) == PK_INT)
            v = round(v);
        if (v < param_min((param_id)id))
            v = param_min((param_id)id);
        if (v > param_max((param_id)id))
            v = param_max((param_id)id);
        r->fitted.v[id] = v;
        r->par[k].value = v;
        if (r->par[k].state == CALIB_FITTED || r->par[k].first_round)
            r->fitted.origin[id] = PO_SET;
    }
    e = round_search(&c, r, u_fit);
    if (e != SIM_OK)
        goto out;
    {
        evalout eo;
        e = evaluate(&c, &r->fitted, &eo);
        c.evals++;
        if (e != SIM_OK)
            goto out;
        double f[3 * EXIT__COUNT];
        residuals(&c, &eo, f);
        r->cost = objective(f, c.nres);
        fill_rows(&c, &eo, r, false);
    }
    if (o->full_check && r->fit_exits < r->trace_exits) {
        progress(o, "calibrate: replaying the whole trace (%llu exits) at "
                 "the result", (unsigned long long)r->trace_exits);
        e = full_check(&c, path, r);
    }
out:
    r->evaluations = c.evals;
    free(c.recs);
    return e;
}

/* ---- the objective alone, at any point ---- */

struct calib_objective {
    fitctx c;
    calib_opts o;
    table hw;
    calib_result r; /* the trace's counts, as calib_run's */
};

sim_err calib_objective_open(calib_objective **obp, const char *trace,
                             const table *hw, stats_unit unit)
{
    *obp = NULL;
    calib_objective *ob = calloc(1, sizeof *ob);
    if (!ob)
        return sim_fail(SIM_ERR_NOMEM, "calibration objective: out of "
                                       "memory");
    calib_opts_default(&ob->o);
    ob->o.unit = unit;
    ob->hw = *hw;
    ob->c.o = &ob->o;
    ob->c.hw = &ob->hw;
    sim_err e = load_trace(&ob->c, trace, &ob->r, 0, true);
    if (e == SIM_OK)
        e = setup_rows(&ob->c, trace, &ob->r);
    if (e != SIM_OK) {
        calib_objective_close(ob);
        return e;
    }
    *obp = ob;
    return SIM_OK;
}

sim_err calib_objective_at(calib_objective *ob, const params *p, double *cost)
{
    evalout eo;
    sim_err e = evaluate(&ob->c, p, &eo);
    if (e != SIM_OK)
        return e;
    double f[3 * EXIT__COUNT];
    residuals(&ob->c, &eo, f);
    *cost = objective(f, ob->c.nres);
    return SIM_OK;
}

int calib_objective_nres(const calib_objective *ob)
{
    return (int)ob->c.nres;
}

void calib_objective_close(calib_objective *ob)
{
    if (!ob)
        return;
    free(ob->c.recs);
    free(ob);
}

/* ---- reports ---- */

static double pct(double model, double hw)
{
    return hw != 0 ? 100.0 * (model - hw) / fabs(hw) : NAN;
}

/* A relative error as a report's column: "-" where the table's value is 0
 * (a row's stddev of exits that all took the same time, an avg of guest
 * runs all under a usec): no relative error exists there, and "nan%" said
 * nothing. */
static const char *pct_field(char b[16], double model, double hw, int prec)
{
    double d = pct(model, hw);
    if (isfinite(d))
        snprintf(b, 16, "%.*f%%", prec, d);
    else
        snprintf(b, 16, "-");
    return b;
}

void calib_write_mix(FILE *f, const calib_result *r)
{
    fprintf(f, "# exit mix: counts come from the trace and are not fitted\n");
    fprintf(f, "# %-12s %12s %9s %12s %9s %8s\n", "row", "table", "share",
            "trace", "share", "diff");
    int differ = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const calib_row *w = &r->row[i];
        if (i == EXIT_TIMEINGUEST || (!w->count_hw && !w->count_trace))
            continue;
        double d = pct(w->mix_trace, w->mix_hw);
        bool off = !w->count_hw || !w->count_trace || fabs(d) > 1.0;
        differ += off;
        fprintf(f, "  %-12s %12llu %8.4f%% %12llu %8.4f%% %7.1f%%%s\n",
                exit_name((exit_type)i), (unsigned long long)w->count_hw,
                100 * w->mix_hw, (unsigned long long)w->count_trace,
                100 * w->mix_trace, isfinite(d) ? d : 0.0,
                !w->count_hw      ? "  (not in the table: not fitted)"
                : !w->count_trace ? "  (not in the trace: not fitted)"
                : off             ? "  (mix differs by more than 1%)"
                                  : "");
    }
    fprintf(f, "# %d row(s) whose share differs by more than 1%% or that only "
               "one side has\n", differ);
}

void calib_write_resvar(FILE *f, const calib_result *r)
{
    if (isfinite(r->resvar))
        fprintf(f, "%.4g", r->resvar);
    else
        fprintf(f, "n/a (%s)", r->nfit ? "no more residuals than fitted "
                                         "parameters" : "nothing fitted");
}

void calib_write_report(FILE *f, const calib_result *r)
{
    fprintf(f, "\n# fit: %llu of the trace's %llu exits per replay%s; %d "
               "residuals (avg, stddev, min of %d rows); %s after %u "
               "iterations, %u replays\n",
            (unsigned long long)r->fit_exits,
            (unsigned long long)r->trace_exits,
            r->fit_exits < r->trace_exits ? " (subsample)" : "", r->nres,
            r->nres / 3, r->status, r->iterations, r->evaluations);
    if (r->round2_tried)
        fprintf(f, "# second identification at the first fit's point "
                   "(objective %.6g after %u iterations): %d more fitted, "
                   "%d held at their first-round values; the fit from "
                   "there reached %.6g: %s\n",
                r->cost_round1, r->iterations_round1, r->round2_added,
                r->round2_dropped, r->cost_round2,
                r->round2 ? "kept" : "not lower, the first round's point "
                                     "kept");
    if (r->refined)
        fprintf(f, "# refined: the subsample stage (%llu exits per replay) "
                   "%s after %u iterations at total %+.2f%% on the "
                   "subsample, %+.2f%% on the whole trace (subsample bias "
                   "%+.2f%%); then fitted on the whole trace from there\n",
                (unsigned long long)r->sub_exits, r->sub_status,
                r->sub_iterations, pct(r->sub_total, r->total_hw),
                pct(r->sub_total_full, r->total_hw),
                pct(r->sub_total, r->sub_total_full));
    fprintf(f, "# guest time: %.1f%% of the exits from the trace's guest "
               "ticks, the rest modelled\n", 100 * r->guest_from_trace);
    fprintf(f, "# identifiability: %d candidates, %d fitted; singular "
               "values of the Jacobian / the largest:",
            r->nparam, r->nfit);
    for (int j = 0; j < r->nsv; j++)
        fprintf(f, " %.2g", r->sv[j]);
    fputc('\n', f);
    for (int j = 0; j < 4 && r->sv_note[j][0]; j++)
        fprintf(f, "#   weak combination %s\n", r->sv_note[j]);
    fprintf(f, "\n# %-22s %14s %12s %14s %12s %-12s %s\n", "parameter",
            "value", "1-sigma", "start", "default", "unit", "");
    for (int k = 0; k < r->nparam; k++) {
        const calib_param *p = &r->par[k];
        if (p->state != CALIB_FITTED)
            continue;
        char sg[32];
        if (isfinite(p->sigma))
            snprintf(sg, sizeof sg, "%.4g", p->sigma);
        else
            snprintf(sg, sizeof sg, "n/a");
        fprintf(f, "  %-22s %14.6g %12s %14.6g %12g %-12s fitted\n",
                param_name(p->id), p->value, sg, p->start,
                param_default(p->id), param_unit(p->id));
    }
    for (int k = 0; k < r->nparam; k++) {
        const calib_param *p = &r->par[k];
        if (p->state == CALIB_FITTED)
            continue;
        fprintf(f, "  %-22s %14.6g %12s %14.6g %12g %-12s held: %s\n",
                param_name(p->id), p->value, "-", p->start,
                param_default(p->id), param_unit(p->id), p->why);
    }
    fprintf(f, "\n# per row: table (hw) vs fitted model; sums scaled to the "
               "table's exits; errors (model - hw) / hw\n");
    fprintf(f, "# %-11s %11s %7s %10s %10s %8s %10s %10s %8s %7s %7s %14s "
               "%8s %8s\n",
            "row", "count", "time%", "avg hw", "avg fit", "err", "sd hw",
            "sd fit", "err", "min hw", "min fit", "sum fit", "err",
            r->total_full == r->total_full ? "sum full" : "");
    for (int i = 0; i < EXIT__COUNT; i++) {
        const calib_row *w = &r->row[i];
        if (!w->used)
            continue;
        char ea[16], es[16], eu[16], ef[16];
        fprintf(f,
                "  %-11s %11llu %7.2f %10.4f %10.4f %8s %10.3f %10.3f "
                "%8s %7.0f %7.2f %14.0f %8s",
                exit_name((exit_type)i), (unsigned long long)w->count_hw,
                100 * w->time_share, w->avg_hw, w->avg,
                pct_field(ea, w->avg, w->avg_hw, 2), w->sd_hw, w->sd,
                pct_field(es, w->sd, w->sd_hw, 1), w->min_hw, w->min, w->sum,
                pct_field(eu, w->sum, w->sum_hw, 2));
        if (isfinite(w->sum_full))
            fprintf(f, " %8s", pct_field(ef, w->sum_full, w->sum_hw, 2));
        if (w->weight == 0)
            fprintf(f, "  not fitted: the guest's idle phase");
        fputc('\n', f);
    }
    fprintf(f, "  %-11s %11llu %7s %10s %10s %8s %10s %10s %8s %7s %7s %14.0f "
               "%7.2f%%",
            "total", (unsigned long long)r->hw_exits, "100.00", "", "", "", "",
            "", "", "", "", r->total, pct(r->total, r->total_hw));
    if (isfinite(r->total_full))
        fprintf(f, " %7.2f%%", pct(r->total_full, r->total_hw));
    fputc('\n', f);
    fprintf(f, "# how noisy each row is (docs/calibration.md): the share of "
               "the table's squared deviations its most extreme exit "
               "carries, the 1-sigmas of the avg (relative) and stddev (log) "
               "residuals, their weights' factors\n");
    for (int i = 0; i < EXIT__COUNT; i++) {
        const calib_row *w = &r->row[i];
        if (!w->used || w->weight == 0)
            continue;
        fprintf(f, "#   %-11s extreme %5.3f  sigma avg %6.2f%% sd %5.3f  "
                   "factors avg %5.3f sd %5.3f\n",
                exit_name((exit_type)i), w->xshare_hw, 100 * w->sigma_avg,
                w->sigma_sd, w->g_avg, w->g_sd);
    }
    fprintf(f, "# %s: table %.0f usec, fitted %.0f usec (%+.2f%%)",
            r->total_handled ? "handled time (the table has no guest time; "
                               "TIMEINGUEST left out of both)"
                             : "traced duration",
            r->total_hw, r->total, pct(r->total, r->total_hw));
    if (isfinite(r->total_full))
        fprintf(f, "; the whole trace at the fitted point %.0f usec (%+.2f%%, "
                   "subsample bias %+.2f%%)",
                r->total_full, pct(r->total_full, r->total_hw),
                pct(r->total, r->total_full));
    fputc('\n', f);
    calib_write_unfitted(f, "# ", r);
    fprintf(f, "# objective (0.5 x sum of squared weighted residuals): "
               "start %.6g, fitted %.6g; residual variance ",
            r->cost0, r->cost);
    calib_write_resvar(f, r);
    fputc('\n', f);
    calib_write_round(f, "# ", r);
}

double calib_unfitted_points(const calib_result *r)
{
    double x = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const calib_row *w = &r->row[i];
        if (w->used && w->weight == 0 && isfinite(w->sum) &&
            isfinite(w->sum_hw))
            x += pct(w->sum, w->sum_hw) * w->sum_hw / r->total_hw;
    }
    return x;
}

void calib_write_unfitted(FILE *f, const char *pfx, const calib_result *r)
{
    bool any = false;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const calib_row *w = &r->row[i];
        if (!w->used || w->weight != 0 || !isfinite(w->sum) ||
            !isfinite(w->sum_hw))
            continue;
        if (!any)
            fprintf(f, "%snot fitted:", pfx);
        fprintf(f, "%s %s %+.2f points", any ? "," : "",
                exit_name((exit_type)i),
                pct(w->sum, w->sum_hw) * w->sum_hw / r->total_hw);
        any = true;
    }
    if (any)
        fprintf(f, " of the total (the guest's idle phase); the fitted "
                   "rows %+.2f%%\n",
                pct(r->total, r->total_hw) - calib_unfitted_points(r));
}

void calib_write_round(FILE *f, const char *pfx, const calib_result *r)
{
    if (r->round_note[0])
        fprintf(f, "%swhole numbers: their nearest values raised the "
                   "objective from %.6g (the fit's) to %.6g\n%swhole numbers "
                   "kept at their other neighbours: %s\n",
                pfx, r->cost_fit, r->cost_nearest, pfx, r->round_note);
    if (!r->refined && r->cost > r->cost0)
        fprintf(f, "%sWARNING: the fitted objective %.6g is above the "
                   "start's %.6g: the fit made the model worse on this "
                   "table (its rows above say where)\n",
                pfx, r->cost, r->cost0);
    /* a CPI no 440 has: the fit made up for something the model was told
     * wrong; for both, the clock the table's usec are read at (a board
     * faster than that needs fewer cycles an instruction to fill them),
     * for the guest's also the profile's run lengths */
    for (int k = 0; k < r->nparam; k++) {
        const calib_param *p = &r->par[k];
        if ((p->state != CALIB_FITTED && !p->first_round) ||
            (p->id != PARAM_cpi && p->id != PARAM_guest_cpi) ||
            !(p->value < CALIB_CPI_FLOOR))
            continue;
        fprintf(f, "%sWARNING: fitted %s %.3g is below %.1f, the 440's "
                   "dual-issue floor: is the board faster than the %.0f MHz "
                   "its table is read at (core_hz)?%s\n",
                pfx, param_name(p->id), p->value, CALIB_CPI_FLOOR,
                r->clock_hz / 1e6,
                p->id == PARAM_guest_cpi ? " Or the profile's guest runs "
                                           "longer than the table's?"
                                         : "");
    }
}

void calib_write_values(FILE *f, const calib_result *r)
{
    for (int k = 0; k < r->nparam; k++) {
        const calib_param *p = &r->par[k];
        if (p->first_round) {
            /* held in the second round at its first-round value: part of
             * the fitted point, without an uncertainty of its own */
            fprintf(f, "; %s: the first round's value, held in the second "
                       "(start %g, default %g)\n",
                    param_name(p->id), p->start, param_default(p->id));
            fprintf(f, param_kind(p->id) == PK_INT ? "%s = %.0f\n"
                                                   : "%s = %.9g\n",
                    param_name(p->id), p->value);
            continue;
        }
        if (p->state != CALIB_FITTED)
            continue;
        if (isfinite(p->sigma))
            fprintf(f, "; %s: +- %.3g %s (1 sigma), start %g, default %g\n",
                    param_name(p->id), p->sigma, param_unit(p->id), p->start,
                    param_default(p->id));
        else
            fprintf(f, "; %s: 1 sigma not estimable, start %g, default %g\n",
                    param_name(p->id), p->start, param_default(p->id));
        if (param_kind(p->id) == PK_INT)
            fprintf(f, "%s = %.0f\n", param_name(p->id), p->value);
        else
            fprintf(f, "%s = %.9g\n", param_name(p->id), p->value);
    }
    /* the estimates' correlations, for draws of the fitted point
     * (sim whatif --param-draws; docs/calibration.md) */
    bool head = false;
    for (int k = 0; k < r->nparam; k++)
        for (int l = k + 1; l < r->nparam; l++) {
            const calib_param *a = &r->par[k], *b = &r->par[l];
            double x = r->corr[k][l];
            if (a->state != CALIB_FITTED || b->state != CALIB_FITTED ||
                !isfinite(a->sigma) || !isfinite(b->sigma) ||
                fabs(x) < 0.005)
                continue;
            if (!head)
                fprintf(f, "; correlations of the fitted values' estimates "
                           "(|r| >= 0.005):\n");
            head = true;
            fprintf(f, "; corr %s %s %.3f\n", param_name(a->id),
                    param_name(b->id), x);
        }
    /* the residual variance those sigmas are scaled by: the fit's own
     * likelihood scale, by which draws are re-checked against the table
     * (pdraw.h; docs/calibration.md, "Draws of the fitted point") */
    if (isfinite(r->resvar))
        fprintf(f, "; resvar %.9g (the residual variance scaling the "
                   "1-sigmas: chi2 / (%d residuals - %d fitted))\n",
                r->resvar, r->nres, r->nfit);
}
