/* The spread of a what-if over draws of its parameters: see pdraw.h (a
 * file of its own, so that pdraw.c does not bring the what-if engine and
 * the timed platform with it). */
#include "pdraw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

/* mean, sd (n - 1), min, max of x[0..n-1] into o (GSL statistics) */
static void spread(const double *x, unsigned n, double *o)
{
    o[0] = gsl_stats_mean(x, 1, n);
    o[1] = n > 1 ? gsl_stats_sd_m(x, 1, n, o[0]) : 0;
    gsl_stats_minmax(&o[2], &o[3], x, 1, n);
}

static void view(const double *w, unsigned n, const double *tot,
                 const double *btot, const double *hnd, const double *bhnd,
                 const double *sum, const double *cnt, pdraw_view *v)
{
    pdraw_wspread(w, tot, n, v->total);
    pdraw_wspread(w, btot, n, v->base_total);
    pdraw_wspread(w, hnd, n, v->handled);
    pdraw_wspread(w, bhnd, n, v->base_handled);
    for (int t = 0; t < EXIT__COUNT; t++) {
        pdraw_wspread(w, sum + (size_t)t * n, n, v->sum[t]);
        pdraw_wspread(w, cnt + (size_t)t * n, n, v->count[t]);
    }
}

/* the calibration table's objective for pdraw_curvature */
static sim_err objective(void *ctx, const params *p, double *cost)
{
    return calib_objective_at(ctx, p, cost);
}

sim_err pdraw_band_run(const char *trace, const char *spec, const params *at,
                       const whatif_opts *wo, pdraw *d, pdraw_proposal prop,
                       calib_objective *obj, unsigned seeds, unsigned n,
                       unsigned long seed, bool fold,
                       void (*progress)(void *, unsigned, unsigned),
                       void *ctx, pdraw_band *b)
{
    memset(b, 0, sizeof *b);
    if (n < 2 || n > PDRAW_MAX)
        return sim_fail(SIM_ERR_RANGE, "parameter draws: %u, expected 2 "
                                       "(a spread needs two) .. %d", n,
                        PDRAW_MAX);
    if (seeds == 1 || seeds > PDRAW_SEEDS_MAX)
        return sim_fail(SIM_ERR_RANGE, "parameter draws: re-checked at %u "
                                       "seeds, expected 0 (the fit's own) "
                                       "or 2 (a noise needs two) .. %d",
                        seeds, PDRAW_SEEDS_MAX);
    double *tot = calloc(n, sizeof *tot), *btot = calloc(n, sizeof *btot);
    double *hnd = calloc(n, sizeof *hnd), *bhnd = calloc(n, sizeof *bhnd);
    double *sum = calloc((size_t)n * EXIT__COUNT, sizeof *sum);
    double *cnt = calloc((size_t)n * EXIT__COUNT, sizeof *cnt);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    sim_err e = tot && btot && hnd && bhnd && sum && cnt && r
                    ? SIM_OK
                    : sim_fail(SIM_ERR_NOMEM, "parameter draws: out of memory");
    if (r)
        gsl_rng_set(r, seed);
    for (int t = 0; t < EXIT__COUNT; t++)
        b->present[t] = true;
    static params p;
    static stats sb, sp;
    static table raw, tab;
    /* the re-check: the calibration's objective at the point itself, the
     * reference of every draw's */
    b->rechecked = obj != NULL;
    b->weighted = obj && isfinite(d->resvar);
    b->resvar = d->resvar;
    b->k = d->n;
    b->seeds = seeds;
    b->seed_own = at->v[PARAM_seed];
    if (obj && e == SIM_OK)
        e = calib_objective_at(obj, at, &b->cost_own);
    b->cost_fit = b->cost_own;
    /* the model's seeds next to the point's own (the fit's): the
     * re-check's (seeds > 0) or the noise line's */
    unsigned ns = seeds ? seeds : PDRAW_NOISE_SEEDS;
    for (unsigned k = 0; k < ns; k++) {
        double sd = at->v[PARAM_seed] + k + 1;
        if (sd > param_max(PARAM_seed))
            sd = at->v[PARAM_seed] - k - 1;
        b->seed[k] = sd;
    }
    for (unsigned k = 0; obj && e == SIM_OK && k < ns; k++) {
        p = *at;
        p.v[PARAM_seed] = b->seed[k];
        e = calib_objective_at(obj, &p,
                               seeds ? &b->cost_pt[k] : &b->cost_seed[k]);
    }
    if (seeds)
        b->cost_fit = gsl_stats_mean(b->cost_pt, 1, seeds);
    /* the curvature proposal: measured along the covariance's
     * eigen-directions at the re-check's seeds (the point's own alone
     * with seeds 0), against the same calibration objective; without a
     * re-check or a resvar there is nothing to measure it with */
    b->proposal = PDRAW_LINEAR;
    if (e == SIM_OK && prop == PDRAW_CURVATURE && b->weighted) {
        e = pdraw_curvature(d, at, objective, obj, seeds, b->seed,
                            seeds ? b->cost_pt : &b->cost_own, &b->curv);
        if (e == SIM_OK) {
            pdraw_narrow(d, &b->curv);
            b->proposal = PDRAW_CURVATURE;
        }
    }
    for (unsigned k = 0; k < n && e == SIM_OK; k++) {
        if (progress)
            progress(ctx, k + 1, n);
        pdraw_point pt;
        pdraw_sample_at(d, r, at, &p, &pt);
        b->m2[k] = pt.m2;
        b->outside[k] = pt.outside;
        b->n_outside += pt.outside > 0;
        b->tries += pt.tries;
        if (obj && !seeds &&
            (e = calib_objective_at(obj, &p, &b->cost[k])) != SIM_OK)
            break;
        /* at the seeds the point was evaluated at, common random numbers:
         * each draw's the point's (the draw's own seed is the point's) */
        double *ck = b->cost_ks + (size_t)k * seeds;
        for (unsigned j = 0; obj && e == SIM_OK && j < seeds; j++) {
            params q = p;
            q.v[PARAM_seed] = b->seed[j];
            e = calib_objective_at(obj, &q, &ck[j]);
        }
        if (e != SIM_OK)
            break;
        if (obj && seeds)
            b->cost[k] = gsl_stats_mean(ck, 1, seeds);
        whatif_chain *chain = NULL;
        e = whatif_chain_parse(&chain, spec);
        whatif_result res;
        if (e == SIM_OK)
            e = whatif_run(trace, chain, &p, wo, &sb, &sp, &res);
        whatif_chain_free(chain);
        if (e != SIM_OK)
            break;
        stats_to_table(&sb, &raw);
        btot[k] = raw.traced_usec;
        bhnd[k] = table_handled_usec(&raw);
        stats_to_table(&sp, &raw);
        hnd[k] = table_handled_usec(&raw);
        if (fold)
            table_fold_emul(&raw, &tab);
        else
            tab = raw;
        tot[k] = tab.traced_usec;
        b->total_k[k] = tot[k];
        b->handled_k[k] = hnd[k];
        for (int t = 0; t < EXIT__COUNT; t++) {
            const table_row *w = &tab.rows[t];
            b->present[t] = b->present[t] && w->present;
            sum[(size_t)t * n + k] = w->present ? w->sum : 0;
            cnt[(size_t)t * n + k] = w->present ? (double)w->count : 0;
        }
    }
    if (e == SIM_OK) {
        b->n = n;
        spread(tot, n, b->total);
        spread(btot, n, b->base_total);
        spread(hnd, n, b->handled);
        spread(bhnd, n, b->base_handled);
        for (int t = 0; t < EXIT__COUNT; t++) {
            spread(sum + (size_t)t * n, n, b->sum[t]);
            spread(cnt + (size_t)t * n, n, b->count[t]);
        }
    }
    if (e == SIM_OK && b->weighted) {
        if (!seeds) {
            double xs[PDRAW_NOISE_SEEDS];
            for (int k = 0; k < PDRAW_NOISE_SEEDS; k++)
                xs[k] = 2 * (b->cost_seed[k] - b->cost_fit) / b->resvar;
            b->noise_sd = gsl_stats_sd(xs, 1, PDRAW_NOISE_SEEDS);
        }
        /* the weights and the chi-square alternative (a draw outside a
         * range is out, as its weight is 0); at the fit's own seed alone
         * one evaluation a draw, no noise carried */
        pdraw_weigh(n, seeds ? seeds : 1, seeds ? b->cost_ks : b->cost,
                    seeds ? b->cost_pt : &b->cost_fit, b->m2, b->outside,
                    b->resvar, b->k, b->x, b->w, b->within, &b->wg);
        if (seeds)
            b->noise_sd = b->wg.tau;
        b->chi2q = b->wg.q95;
        b->ess = b->wg.ess;
        double *cw = calloc(n, sizeof *cw);
        if (!cw)
            e = sim_fail(SIM_ERR_NOMEM, "parameter draws: out of memory");
        for (unsigned k = 0; k < n && e == SIM_OK; k++) {
            b->n_within += b->within[k];
            cw[k] = b->within[k];
        }
        if (e == SIM_OK) {
            view(b->w, n, tot, btot, hnd, bhnd, sum, cnt, &b->wv);
            view(cw, n, tot, btot, hnd, bhnd, sum, cnt, &b->cv);
        }
        free(cw);
    }
    if (r)
        gsl_rng_free(r);
    free(cnt);
    free(sum);
    free(tot);
    free(btot);
    free(hnd);
    free(bhnd);
    return e;
}
