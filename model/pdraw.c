/* Draws of a calibrated parameter point: see pdraw.h. */
#include "pdraw.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_statistics_double.h>

static int index_of(const pdraw *d, int id)
{
    for (int k = 0; k < d->n; k++)
        if ((int)d->id[k] == id)
            return k;
    return -1;
}

/* A factor of the covariance: Cholesky when it is positive definite,
 * else V sqrt(max(L, 0)) of its eigen-decomposition (ev, v: GSL's order) */
static sim_err factorise(pdraw *d, gsl_matrix *cov, const gsl_vector *ev,
                         const gsl_matrix *v)
{
    size_t n = (size_t)d->n;
    d->factor = gsl_matrix_alloc(n, n);
    gsl_matrix_memcpy(d->factor, cov);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int st = gsl_linalg_cholesky_decomp1(d->factor);
    gsl_set_error_handler(old);
    if (st == GSL_SUCCESS) {
        for (size_t i = 0; i < n; i++) { /* keep the lower triangle */
            d->live[i] = true;
            for (size_t j = i + 1; j < n; j++)
                gsl_matrix_set(d->factor, i, j, 0);
        }
        return SIM_OK;
    }
    for (size_t j = 0; j < n; j++) {
        double l = gsl_vector_get(ev, j);
        if (l < 0)
            d->clipped++;
        double s = sqrt(fmax(l, 0));
        d->live[j] = s > 0;
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(d->factor, i, j, gsl_matrix_get(v, i, j) * s);
    }
    return SIM_OK;
}

/* The covariance's eigen-decomposition (GSL) into ev and v, in the
 * solver's order (the factor's columns), and into d->evec, d->eval sorted
 * by ascending eigenvalue so that their order does not depend on the
 * solver's */
static void eigen(pdraw *d, const gsl_matrix *cov, gsl_vector *ev,
                  gsl_matrix *v)
{
    size_t n = (size_t)d->n;
    gsl_matrix *a = gsl_matrix_alloc(n, n);
    gsl_vector *es = gsl_vector_alloc(n);
    gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc(n);
    gsl_matrix_memcpy(a, cov);
    gsl_eigen_symmv(a, ev, v, w);
    d->evec = gsl_matrix_alloc(n, n);
    gsl_matrix_memcpy(d->evec, v);
    gsl_vector_memcpy(es, ev);
    gsl_eigen_symmv_sort(es, d->evec, GSL_EIGEN_SORT_VAL_ASC);
    for (size_t j = 0; j < n; j++)
        d->eval[j] = gsl_vector_get(es, j);
    gsl_eigen_symmv_free(w);
    gsl_vector_free(es);
    gsl_matrix_free(a);
}

sim_err pdraw_load(pdraw *d, const char *path)
{
    memset(d, 0, sizeof *d);
    d->resvar = NAN;
    FILE *f = fopen(path, "r");
    if (!f)
        return sim_fail(SIM_ERR_IO, "%s: %s", path, strerror(errno));
    /* first pass: the 1-sigma lines name the drawn parameters */
    char line[512], name[128], b[128];
    double x;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "; %127[^: ]: +- %lf", name, &x) == 2) {
            int id = param_from_name(name);
            if (id >= 0 && isfinite(x) && x > 0 && index_of(d, id) < 0 &&
                d->n < PARAM__COUNT) {
                d->id[d->n] = (param_id)id;
                d->sigma[d->n++] = x;
            }
        }
    if (d->n == 0) {
        fclose(f);
        return sim_fail(SIM_ERR_FORMAT, "%s: no fitted value with a 1-sigma "
                                        "('; NAME: +- S' lines): draws need "
                                        "the parameters sim calibrate "
                                        "wrote", path);
    }
    size_t n = (size_t)d->n;
    gsl_matrix *cov = gsl_matrix_alloc(n, n);
    gsl_matrix_set_zero(cov);
    for (size_t i = 0; i < n; i++)
        gsl_matrix_set(cov, i, i, d->sigma[i] * d->sigma[i]);
    rewind(f);
    unsigned no = 0;
    sim_err e = SIM_OK;
    while (e == SIM_OK && fgets(line, sizeof line, f)) {
        no++;
        if (!strncmp(line, "; resvar ", 9)) {
            /* the fit's residual variance (sim calibrate writes it since
             * the draws are weighted; older files lack it) */
            if (sscanf(line, "; resvar %lf", &x) != 1 || !isfinite(x) ||
                x <= 0)
                e = sim_fail(SIM_ERR_FORMAT, "%s:%u: expected '; resvar "
                                             "S2' with S2 > 0 (the fit's "
                                             "residual variance)", path, no);
            d->resvar = x;
            continue;
        }
        if (strncmp(line, "; corr ", 7) != 0)
            continue;
        char tail[8] = "";
        if (sscanf(line, "; corr %127s %127s %lf %7s", name, b, &x, tail) != 3) {
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: expected '; corr NAME NAME "
                                         "r'", path, no);
            break;
        }
        int i = index_of(d, param_from_name(name));
        int j = index_of(d, param_from_name(b));
        if (i < 0 || j < 0 || i == j)
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: corr %s %s: %s", path, no,
                         name, b, i == j && i >= 0
                                      ? "a parameter with itself"
                                      : "not two fitted values with a "
                                        "1-sigma line");
        else if (!isfinite(x) || fabs(x) > 1)
            e = sim_fail(SIM_ERR_RANGE, "%s:%u: corr %s %s %g: a "
                                        "correlation is in -1..1", path, no,
                         name, b, x);
        else {
            double c = x * d->sigma[i] * d->sigma[j];
            gsl_matrix_set(cov, (size_t)i, (size_t)j, c);
            gsl_matrix_set(cov, (size_t)j, (size_t)i, c);
        }
    }
    fclose(f);
    if (e == SIM_OK) {
        size_t n = (size_t)d->n;
        gsl_vector *ev = gsl_vector_alloc(n);
        gsl_matrix *v = gsl_matrix_alloc(n, n);
        eigen(d, cov, ev, v);
        e = factorise(d, cov, ev, v);
        gsl_vector_free(ev);
        gsl_matrix_free(v);
    }
    gsl_matrix_free(cov);
    if (e != SIM_OK)
        pdraw_free(d);
    return e;
}

void pdraw_sample(const pdraw *d, gsl_rng *r, const params *at, params *out)
{
    pdraw_point pt;
    pdraw_sample_at(d, r, at, out, &pt);
}

void pdraw_sample_at(const pdraw *d, gsl_rng *r, const params *at,
                     params *out, pdraw_point *pt)
{
    *out = *at;
    size_t n = (size_t)d->n;
    gsl_vector *z = gsl_vector_alloc(n), *dx = gsl_vector_alloc(n);
    /* the Gaussian restricted to the declared ranges: a deviation that
     * takes a value outside is drawn again (clamping it put the tail's
     * mass on the range's end, a point the fit's likelihood gives no
     * more weight than its neighbours) */
    pt->tries = 0;
    do {
        pt->tries++;
        pt->m2 = 0;
        pt->outside = 0;
        for (size_t i = 0; i < n; i++) {
            double zi = gsl_ran_gaussian(r, 1.0);
            gsl_vector_set(z, i, zi);
            /* dx = A z: with A square and invertible (Cholesky), dx'
             * C^-1 dx = z'z; a clipped eigenvalue's z moves nothing (its
             * column is 0): the distance over the covariance's support
             * leaves it out */
            if (d->live[i])
                pt->m2 += zi * zi;
        }
        gsl_blas_dgemv(CblasNoTrans, 1.0, d->factor, z, 0.0, dx);
        for (size_t i = 0; i < n; i++) {
            param_id id = d->id[i];
            double v = at->v[id] + d->shift[i] + gsl_vector_get(dx, i);
            pt->outside += v < param_min(id) || v > param_max(id);
        }
    } while (pt->outside && pt->tries < PDRAW_TRIES);
    for (size_t i = 0; i < n; i++) {
        param_id id = d->id[i];
        double v = at->v[id] + d->shift[i] + gsl_vector_get(dx, i);
        /* (after PDRAW_TRIES in vain: clamped, and outside says so) */
        v = fmin(param_max(id), fmax(param_min(id), v));
        if (param_kind(id) == PK_INT)
            v = round(v);
        out->v[id] = v;
        out->origin[id] = PO_SET;
    }
    gsl_vector_free(dx);
    gsl_vector_free(z);
}

void pdraw_free(pdraw *d)
{
    if (d->factor)
        gsl_matrix_free(d->factor);
    if (d->evec)
        gsl_matrix_free(d->evec);
    d->factor = d->evec = NULL;
}

/* at + t sigma_j v_j into p (whole numbers rounded, as a draw's);
 * false when a value leaves its declared range */
static bool along(const pdraw *d, const params *at, int j, double t,
                  params *p)
{
    *p = *at;
    double sj = sqrt(d->eval[j]);
    bool in = true;
    for (int i = 0; i < d->n; i++) {
        param_id id = d->id[i];
        double v = at->v[id] + t * sj * gsl_matrix_get(d->evec, (size_t)i,
                                                        (size_t)j);
        in = in && v >= param_min(id) && v <= param_max(id);
        if (param_kind(id) == PK_INT)
            v = round(v);
        p->v[id] = v;
        p->origin[id] = PO_SET;
    }
    return in;
}

/* the two fitted values direction j moves most, in their own 1-sigmas */
static void leads(const pdraw *d, int j, int *lead)
{
    double top[2] = {-1, -1};
    lead[0] = lead[1] = -1;
    for (int i = 0; i < d->n; i++) {
        double m = fabs(gsl_matrix_get(d->evec, (size_t)i, (size_t)j)) /
                   d->sigma[i];
        if (m > top[0]) {
            top[1] = top[0];
            lead[1] = lead[0];
            top[0] = m;
            lead[0] = (int)d->id[i];
        } else if (m > top[1]) {
            top[1] = m;
            lead[1] = (int)d->id[i];
        }
    }
}

/* The steps h+ and h- (at most hp0, hm0) as far as each side's range
 * allows: hp0, hm0 halved until the end is inside (false when one is
 * still outside after PDRAW_CURV_HALVINGS halvings) */
static bool steps(const pdraw *d, const params *at, int j, double hp0,
                  double hm0, pdraw_probe *m)
{
    static params p;
    double h0[2] = {hp0, hm0}, hs[2];
    for (int side = 0; side < 2; side++) {
        int k = 0;
        for (hs[side] = h0[side]; k <= PDRAW_CURV_HALVINGS;
             k++, hs[side] /= 2)
            if (along(d, at, j, side ? -hs[side] : hs[side], &p))
                break;
        if (k > PDRAW_CURV_HALVINGS)
            return false;
    }
    m->hp = hs[0];
    m->hm = hs[1];
    return true;
}

/* The objective at + m->hp and - m->hm along direction j at each seed:
 * the excesses' means, the parabola's curvature and slope with their
 * standard errors, into m */
static sim_err probe(const pdraw *d, const params *at, int j, pdraw_cost_fn f,
                     void *ctx, unsigned K, const double *seed,
                     const double *cost_pt, pdraw_probe *m, unsigned *evals)
{
    static params p;
    unsigned nk = K ? K : 1;
    double c[PDRAW_SEEDS_MAX], a[PDRAW_SEEDS_MAX];
    double hp = m->hp, hm = m->hm, den = hp * hm * (hp + hm);
    m->xp = m->xm = 0;
    for (unsigned s = 0; s < nk; s++) {
        double x[2];
        for (int side = 0; side < 2; side++) {
            along(d, at, j, side ? -hm : hp, &p);
            if (K)
                p.v[PARAM_seed] = seed[s];
            double cost;
            sim_err e = f(ctx, &p, &cost);
            if (e != SIM_OK)
                return e;
            (*evals)++;
            x[side] = 2 * (cost - cost_pt[s]) / d->resvar;
        }
        m->xp += x[0] / nk;
        m->xm += x[1] / nk;
        /* the parabola a t + c t^2 through (0, 0), (hp, x+), (-hm, x-):
         * with hp = hm = h, c = (x+ + x-) / (2 h^2), a = (x+ - x-) / (2 h) */
        c[s] = (x[0] * hm + x[1] * hp) / den;
        a[s] = (x[0] * hm * hm - x[1] * hp * hp) / den;
    }
    m->curv = gsl_stats_mean(c, 1, nk);
    m->slope = gsl_stats_mean(a, 1, nk);
    m->curv_se = m->slope_se = 0;
    if (nk > 1) {
        m->curv_se = gsl_stats_sd_m(c, 1, nk, m->curv) / sqrt(nk);
        m->slope_se = gsl_stats_sd_m(a, 1, nk, m->slope) / sqrt(nk);
    }
    return SIM_OK;
}

sim_err pdraw_curvature(const pdraw *d, const params *at, pdraw_cost_fn f,
                        void *ctx, unsigned K, const double *seed,
                        const double *cost_pt, pdraw_curv *cv)
{
    memset(cv, 0, sizeof *cv);
    cv->n = d->n;
    if (!isfinite(d->resvar))
        return sim_fail(SIM_ERR_FORMAT, "parameter draws: the curvature "
                                        "proposal needs the fit's residual "
                                        "variance ('; resvar')");
    if (K == 1 || K > PDRAW_SEEDS_MAX)
        return sim_fail(SIM_ERR_RANGE, "parameter draws: curvature at %u "
                                       "seeds, expected 0 or 2..%d", K,
                        PDRAW_SEEDS_MAX);
    unsigned nk = K ? K : 1;
    /* the one-sided 97.5% bound over the K seeds (Student's t) */
    double tq = nk > 1 ? gsl_cdf_tdist_Pinv(0.975, nk - 1) : 0;
    for (int j = 0; j < d->n; j++) {
        pdraw_dir *dir = &cv->dir[j];
        dir->sigma = sqrt(fmax(d->eval[j], 0));
        dir->used = dir->scale = 1;
        leads(d, j, dir->lead);
        /* the wide probe: each side as far as its range allows, up to
         * one sigma (a point near one end of a range is still measured a
         * full sigma the other way: a small step leaves a small excess,
         * read through the model's noise) */
        if (!(d->eval[j] > 0) || !steps(d, at, j, 1, 1, &dir->wide))
            continue;
        sim_err e = probe(d, at, j, f, ctx, K, seed, cost_pt, &dir->wide,
                          &cv->evals);
        if (e != SIM_OK)
            return e;
        /* narrowed only as far as the measurement supports, never
         * widened past the linearisation */
        double lo = dir->wide.curv - tq * dir->wide.curv_se;
        if (!(lo > 1 + 1e-9))
            continue;
        /* the fine probe, at two of the narrowed sds (where the proposal
         * draws): an objective that rises faster than a parabola between
         * them has a smaller curvature there than the wide probe's, and
         * a proposal narrower than the target gives weights of infinite
         * variance; its bound is kept where smaller (the proposal errs
         * wide), but widens the direction at most to the fine step
         * itself (c' / 4): where the objective is still flat there, the
         * rise the wide probe saw lies farther out, by an amount neither
         * measured (ppc440-pv: three directions flat at the fine step went
         * back to the linearised width, a draw 5,000 excess units out) */
        const pdraw_probe *m = &dir->wide;
        double h2 = 2 / sqrt(lo);
        if ((h2 < dir->wide.hp || h2 < dir->wide.hm) &&
            steps(d, at, j, fmin(h2, dir->wide.hp), fmin(h2, dir->wide.hm),
                  &dir->fine)) {
            if ((e = probe(d, at, j, f, ctx, K, seed, cost_pt, &dir->fine,
                           &cv->evals)) != SIM_OK)
                return e;
            dir->refined = true;
            lo = fmin(lo, fmax(lo / 4,
                               dir->fine.curv - tq * dir->fine.curv_se));
            m = &dir->fine;
        }
        if (!(lo > 1 + 1e-9))
            continue;
        dir->used = lo;
        dir->scale = 1 / sqrt(lo);
        cv->narrowed++;
        /* the centre: the finer probe's parabola's minimum, where its
         * slope is beyond its noise, within the steps it measured */
        if (m->curv > 0 && fabs(m->slope) > tq * m->slope_se) {
            double t = -m->slope / (2 * m->curv);
            dir->shift = fmax(-m->hm, fmin(m->hp, t));
            cv->shifted++;
        }
    }
    return SIM_OK;
}

void pdraw_narrow(pdraw *d, const pdraw_curv *cv)
{
    size_t n = (size_t)d->n;
    assert(cv->n == d->n);
    for (size_t i = 0; i < n; i++) {
        d->shift[i] = 0;
        for (size_t j = 0; j < n; j++) {
            const pdraw_dir *dir = &cv->dir[j];
            double v = gsl_matrix_get(d->evec, i, j);
            gsl_matrix_set(d->factor, i, j, v * dir->sigma * dir->scale);
            d->shift[i] += v * dir->sigma * dir->shift;
        }
    }
    for (size_t j = 0; j < n; j++)
        d->live[j] = cv->dir[j].sigma > 0;
    d->narrowed = true;
}

double pdraw_outside_share(const pdraw *d, int i, const params *at)
{
    param_id id = d->id[i];
    double x = at->v[id], s = d->sigma[i];
    return gsl_cdf_gaussian_P(param_min(id) - x, s) +
           gsl_cdf_gaussian_Q(param_max(id) - x, s);
}

double pdraw_log_weight(double cost, double cost_fit, double resvar,
                        const pdraw_point *pt)
{
    if (pt->outside)
        return -INFINITY;
    /* target / proposal, each relative to its value at the point:
     * exp(-(chi2 - chi2_fit) / (2 s^2)) / exp(-m2 / 2), chi2 = 2 cost */
    return -(cost - cost_fit) / resvar + 0.5 * pt->m2;
}

double pdraw_weights(const double *lw, unsigned n, double *w)
{
    double top = -INFINITY;
    for (unsigned i = 0; i < n; i++)
        if (lw[i] > top)
            top = lw[i];
    double sum = 0;
    for (unsigned i = 0; i < n; i++) {
        w[i] = isfinite(top) && isfinite(lw[i]) ? exp(lw[i] - top) : 0;
        sum += w[i];
    }
    double s2 = 0;
    for (unsigned i = 0; i < n; i++) {
        w[i] = sum > 0 ? w[i] / sum : 0;
        s2 += w[i] * w[i];
    }
    return s2 > 0 ? 1 / s2 : 0; /* (sum w)^2 / sum w^2 with sum w = 1 */
}

double pdraw_ess_floor(unsigned n)
{
    return fmax(2, n / 4.0);
}

double pdraw_noise_ess(unsigned n, double x)
{
    return n * exp(-(x / 2) * (x / 2));
}

void pdraw_wspread(const double *w, const double *x, unsigned n, double *o)
{
    double sw = 0, sw2 = 0;
    for (unsigned i = 0; i < n; i++) {
        sw += w[i];
        sw2 += w[i] * w[i];
    }
    if (!(sw > 0)) {
        o[0] = o[1] = NAN;
        return;
    }
    o[0] = gsl_stats_wmean(w, 1, x, 1, n);
    o[1] = sw * sw - sw2 > 1e-12 * sw * sw ? gsl_stats_wsd_m(w, 1, x, 1, n,
                                                             o[0])
                                           : NAN;
}

/* P(chi2(k) + tau u <= q), u standard normal: integral of phi(u)
 * P_chi2(q - tau u) over u (the chi-square's CDF is 0 for q - tau u <= 0,
 * u >= q / tau; the normal's mass beyond 12 is below 1e-32) */
struct cq {
    int k;
    double tau, q, p;
    gsl_integration_workspace *ws;
};

static double cq_integrand(double u, void *arg)
{
    const struct cq *c = arg;
    return gsl_ran_ugaussian_pdf(u) * gsl_cdf_chisq_P(c->q - c->tau * u, c->k);
}

static double cq_cdf(double q, void *arg)
{
    struct cq *c = arg;
    c->q = q;
    double hi = fmin(12, q / c->tau);
    if (hi <= -12)
        return -c->p;
    gsl_function f = {cq_integrand, c};
    double r, err;
    gsl_integration_qags(&f, -12, hi, 1e-12, 1e-10, 1000, c->ws, &r, &err);
    return r - c->p;
}

double pdraw_chi2_noise_q95(int k, double tau)
{
    double q0 = gsl_cdf_chisq_Pinv(0.95, k);
    if (!(tau > 0))
        return q0;
    struct cq c = {.k = k, .tau = tau, .p = 0.95,
                   .ws = gsl_integration_workspace_alloc(1000)};
    gsl_function f = {cq_cdf, &c};
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    /* F(q0 - 13 tau) <= P(chi2 <= q0 - tau) + P(u < -12) < 0.95 and
     * F(q0 + 13 tau) >= P(u <= 12) P(chi2 <= q0 + tau) > 0.95 */
    gsl_root_fsolver_set(s, &f, q0 - 13 * tau, q0 + 13 * tau);
    double q = q0;
    for (int it = 0; it < 200; it++) {
        gsl_root_fsolver_iterate(s);
        q = gsl_root_fsolver_root(s);
        double lo = gsl_root_fsolver_x_lower(s),
               hi = gsl_root_fsolver_x_upper(s);
        if (gsl_root_test_interval(lo, hi, 1e-9, 1e-9) == GSL_SUCCESS)
            break;
    }
    gsl_root_fsolver_free(s);
    gsl_integration_workspace_free(c.ws);
    return q;
}

void pdraw_weigh(unsigned n, unsigned K, const double *cost,
                 const double *cost_pt, const double *m2, const int *outside,
                 double resvar, int k, double *x, double *w, bool *within,
                 pdraw_weighing *o)
{
    memset(o, 0, sizeof *o);
    o->seeds = K;
    double pt = gsl_stats_mean(cost_pt, 1, K);
    /* the point's own spread over the seeds, in excess units */
    if (K > 1)
        o->point_sd = 2 * gsl_stats_sd(cost_pt, 1, K) / resvar;
    /* each draw's excess (the mean of its paired differences) and the
     * paired differences' variance about it, pooled over the draws */
    double ss = 0;
    unsigned dof = 0;
    for (unsigned i = 0; i < n; i++) {
        double sum = 0;
        for (unsigned j = 0; j < K; j++)
            sum += cost[(size_t)i * K + j];
        x[i] = 2 * (sum / K - pt) / resvar;
        if (outside[i] || K < 2)
            continue;
        o->valid++;
        for (unsigned j = 0; j < K; j++) {
            double d = 2 * (cost[(size_t)i * K + j] - cost_pt[j]) / resvar;
            ss += (d - x[i]) * (d - x[i]);
        }
        dof += K - 1;
    }
    if (K < 2)
        for (unsigned i = 0; i < n; i++)
            o->valid += !outside[i];
    o->tau = dof ? sqrt(ss / dof / K) : 0;
    /* the departures from the linear model, y = x - m2, among the draws
     * inside the ranges: their variance beyond the noise */
    double *y = calloc(n ? n : 1, sizeof *y), *lw = calloc(n ? n : 1, sizeof *lw);
    if (!y || !lw) { /* (out of memory: no weights, no ESS) */
        free(y);
        free(lw);
        for (unsigned i = 0; i < n; i++) {
            w[i] = 0;
            within[i] = false;
        }
        return;
    }
    unsigned nv = 0;
    for (unsigned i = 0; i < n; i++)
        if (!outside[i])
            y[nv++] = x[i] - m2[i];
    /* the James-Stein factor (positive part) of the departures about
     * their mean: 1 - (n - 3) tau^2 / SS, the empirical Bayes estimate of
     * V / (V + tau^2) (Efron and Morris) that does not take the spread of
     * n noisy values for a spread of the departures; V the rest of their
     * variance. Fewer than 4 draws, or no noise: the plain weights. */
    double t2 = o->tau * o->tau;
    double vy = nv > 1 ? gsl_stats_variance(y, 1, nv) : 0;
    o->dep_var = fmax(0, vy - t2);
    o->shrink = 1;
    if (t2 > 0 && nv >= 4)
        o->shrink = vy > 0 ? fmax(0, 1 - (nv - 3) * t2 / ((nv - 1) * vy)) : 0;
    o->q95_plain = gsl_cdf_chisq_Pinv(0.95, k);
    o->q95 = pdraw_chi2_noise_q95(k, o->tau);
    for (unsigned i = 0; i < n; i++) {
        pdraw_point p = {.m2 = m2[i], .outside = outside[i]};
        lw[i] = pdraw_log_weight(0.5 * resvar * x[i], 0, resvar, &p);
    }
    o->ess_plain = pdraw_weights(lw, n, w);
    for (unsigned i = 0; i < n; i++) {
        /* (a draw outside a range stays at weight 0, B = 0 included) */
        lw[i] = outside[i] ? -INFINITY : o->shrink * lw[i];
        within[i] = !outside[i] && x[i] <= o->q95;
    }
    o->ess = pdraw_weights(lw, n, w);
    free(y);
    free(lw);
}
