/* Draws of a calibrated parameter point: see pdraw.h. */
#include "pdraw.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

static int index_of(const pdraw *d, int id)
{
    for (int k = 0; k < d->n; k++)
        if ((int)d->id[k] == id)
            return k;
    return -1;
}

/* A factor of the covariance: Cholesky when it is positive definite,
 * else V sqrt(max(L, 0)) of its eigen-decomposition. */
static sim_err factorise(pdraw *d, gsl_matrix *cov)
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
    gsl_matrix *a = gsl_matrix_alloc(n, n), *v = gsl_matrix_alloc(n, n);
    gsl_vector *ev = gsl_vector_alloc(n);
    gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc(n);
    gsl_matrix_memcpy(a, cov);
    gsl_eigen_symmv(a, ev, v, w);
    for (size_t j = 0; j < n; j++) {
        double l = gsl_vector_get(ev, j);
        if (l < 0)
            d->clipped++;
        double s = sqrt(fmax(l, 0));
        d->live[j] = s > 0;
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(d->factor, i, j, gsl_matrix_get(v, i, j) * s);
    }
    gsl_eigen_symmv_free(w);
    gsl_vector_free(ev);
    gsl_matrix_free(v);
    gsl_matrix_free(a);
    return SIM_OK;
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
    if (e == SIM_OK)
        e = factorise(d, cov);
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
            double v = at->v[id] + gsl_vector_get(dx, i);
            pt->outside += v < param_min(id) || v > param_max(id);
        }
    } while (pt->outside && pt->tries < PDRAW_TRIES);
    for (size_t i = 0; i < n; i++) {
        param_id id = d->id[i];
        double v = at->v[id] + gsl_vector_get(dx, i);
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
    d->factor = NULL;
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

bool pdraw_within_chi2(double cost, double cost_fit, double resvar, int k,
                       double *q)
{
    double qk = gsl_cdf_chisq_Pinv(0.95, k);
    if (q)
        *q = qk;
    return 2 * (cost - cost_fit) / resvar <= qk;
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
