/* Tests of parameter draws (model/pdraw): draws of a calibrated point have
 * the 1-sigmas and correlations its INI file states, stay in each
 * parameter's range with whole numbers where the parameter is one, a
 * correlation matrix that is not positive definite is still drawn from,
 * and malformed files are refused with file:line. Their importance
 * weights against the fit's likelihood: equal where the objective is
 * exactly the proposal's quadratic, near 0 for a draw far worse than
 * that, Kish's ESS, the weighted statistics, the chi-square alternative;
 * the residual variance read back, and files without it still drawn
 * from; the model's noise at K seeds carried into the weights and the
 * quantile, on draws whose noise is known by construction; the
 * curvature proposal on an objective whose curvature and mode are known
 * by construction. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pdraw.h"
#include "testlib.h"

static char ini[512];

static void write_ini(const char *text)
{
    snprintf(ini, sizeof ini, "%s/pdraw_test.ini", test_tmp_dir());
    FILE *f = fopen(ini, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* The file text as the parameters file: its draws into d, its point into
 * at, a generator seeded with seed (the caller frees both). */
static gsl_rng *load(const char *text, pdraw *d, params *at, unsigned long seed)
{
    write_ini(text);
    CU_ASSERT_EQUAL_FATAL(pdraw_load(d, ini), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(params_load_file(at, ini), SIM_OK);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    return r;
}

/* 20,000 draws around cpi = 2, qemu_mmio_usec = 100 with sigmas 0.1 and
 * 5 and correlation 0.8: the sample's sds and correlation are those. */
static void test_draws_have_the_stated_covariance(void)
{
    static pdraw d;
    static params at, p;
    gsl_rng *r =
        load("; cpi: +- 0.1 cycles/insn (1 sigma), start 1.2, default 1.2\n"
             "cpi = 2\n"
             "; qemu_mmio_usec: +- 5 usec (1 sigma), start 40, default 40\n"
             "qemu_mmio_usec = 100\n"
             "; corr cpi qemu_mmio_usec 0.800\n",
             &d, &at, 7);
    CU_ASSERT_EQUAL(d.n, 2);
    CU_ASSERT_EQUAL(d.clipped, 0);
    /* a file without '; resvar' (sim calibrate before the weights) is
     * drawn from all the same; it has no weights */
    CU_ASSERT_TRUE(isnan(d.resvar));
    const int n = 20000;
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int k = 0; k < n; k++) {
        pdraw_sample(&d, r, &at, &p);
        double x = P(&p, cpi) - 2, y = P(&p, qemu_mmio_usec) - 100;
        sx += x;
        sy += y;
        sxx += x * x;
        syy += y * y;
        sxy += x * y;
        /* every other parameter is the point's */
        CU_ASSERT_EQUAL(P(&p, icache_miss_cycles), P(&at, icache_miss_cycles));
    }
    double mx = sx / n, my = sy / n;
    double vx = sxx / n - mx * mx, vy = syy / n - my * my;
    double rho = (sxy / n - mx * my) / sqrt(vx * vy);
    CU_ASSERT(fabs(mx) < 0.005);
    CU_ASSERT(fabs(sqrt(vx) - 0.1) < 0.003);
    CU_ASSERT(fabs(sqrt(vy) - 5) < 0.15);
    CU_ASSERT(fabs(rho - 0.8) < 0.02);
    gsl_rng_free(r);
    pdraw_free(&d);
}

/* A whole-number parameter's draws are whole; a value near its range's
 * end stays inside it (icache_miss_cycles is 0..1000 cycles), drawn
 * again when it leaves it, not clamped onto the end. */
static void test_draws_stay_in_range_and_whole(void)
{
    static pdraw d;
    static params at, p;
    gsl_rng *r = load("; icache_miss_cycles: +- 30 cycles (1 sigma), start 50, "
                      "default 50\n"
                      "icache_miss_cycles = 10\n",
                      &d, &at, 1);
    int at_zero = 0;
    unsigned long tries = 0;
    for (int k = 0; k < 2000; k++) {
        pdraw_point pt;
        pdraw_sample_at(&d, r, &at, &p, &pt);
        double v = P(&p, icache_miss_cycles);
        CU_ASSERT(v >= 0 && v <= 1000);
        CU_ASSERT_EQUAL(v, floor(v));
        CU_ASSERT_EQUAL(pt.outside, 0);
        at_zero += v == 0;
        tries += pt.tries;
    }
    /* P(10 + 30 z < 0) = 37% are drawn again: 2000 / 0.63 deviations;
     * rounded to 0 only those in [0, 0.5): 1.0% of the kept ones (37%
     * when they were clamped) */
    CU_ASSERT(tries > 2900 && tries < 3500);
    CU_ASSERT(at_zero < 60);
    gsl_rng_free(r);
    pdraw_free(&d);
}

/* Correlations of three values that no covariance can have (two pairs at
 * +0.9, the third at -0.9): their negative eigenvalue is set to 0 and the
 * draws are finite. */
static void test_not_positive_definite_is_clipped(void)
{
    static pdraw d;
    static params at, p;
    gsl_rng *r =
        load("; cpi: +- 0.1 x (1 sigma)\ncpi = 2\n"
             "; qemu_mmio_usec: +- 5 usec (1 sigma)\nqemu_mmio_usec = 100\n"
             "; gfn_to_page_cycles: +- 20 cycles (1 sigma)\n"
             "gfn_to_page_cycles = 300\n"
             "; corr cpi qemu_mmio_usec 0.9\n"
             "; corr cpi gfn_to_page_cycles 0.9\n"
             "; corr qemu_mmio_usec gfn_to_page_cycles -0.9\n",
             &d, &at, 3);
    CU_ASSERT(d.clipped >= 1);
    pdraw_sample(&d, r, &at, &p);
    CU_ASSERT(isfinite(P(&p, cpi)) && isfinite(P(&p, qemu_mmio_usec)));
    gsl_rng_free(r);
    pdraw_free(&d);
}

static void refused(const char *text, sim_err want, const char *msg)
{
    write_ini(text);
    static pdraw d;
    sim_err e = pdraw_load(&d, ini);
    CU_ASSERT_EQUAL(e, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), msg));
    if (!strstr(sim_errmsg(), msg))
        fprintf(stderr, "message: %s (want %s)\n", sim_errmsg(), msg);
    sim_clear_error();
}

static void test_bad_files_are_refused(void)
{
    char where[600];
    refused("cpi = 2\n", SIM_ERR_FORMAT, "no fitted value with a 1-sigma");
    snprintf(where, sizeof where, "%s:3: corr cpi qemu_mmio_usec 1.5", ini);
    refused("; cpi: +- 0.1 x (1 sigma)\n; qemu_mmio_usec: +- 5 usec\n"
            "; corr cpi qemu_mmio_usec 1.5\n",
            SIM_ERR_RANGE, where);
    snprintf(where, sizeof where, "%s:2: corr cpi icache_miss_cycles", ini);
    refused("; cpi: +- 0.1 x (1 sigma)\n; corr cpi icache_miss_cycles 0.5\n",
            SIM_ERR_FORMAT, where);
    snprintf(where, sizeof where, "%s:2: expected '; corr NAME NAME r'", ini);
    refused("; cpi: +- 0.1 x (1 sigma)\n; corr cpi\n", SIM_ERR_FORMAT, where);
    snprintf(where, sizeof where, "%s:2: expected '; resvar S2' with S2 > 0",
             ini);
    refused("; cpi: +- 0.1 x (1 sigma)\n; resvar -1\n", SIM_ERR_FORMAT, where);
    refused("; cpi: +- 0.1 x (1 sigma)\n; resvar none\n", SIM_ERR_FORMAT,
            where);
}

/* The proposal's own quadratic as the objective: cost - cost_fit = s^2 x
 * dx' C^-1 dx / 2 (what a linear model with the fit's covariance gives).
 * The target is then the proposal: every weight equal, ESS = n - the
 * weights see nothing but the objective's departure from it. */
static void test_linear_objective_weights_equal(void)
{
    static pdraw d;
    static params at, p;
    gsl_rng *r =
        load("; cpi: +- 0.1 cycles/insn (1 sigma)\ncpi = 2\n"
             "; qemu_mmio_usec: +- 5 usec (1 sigma)\nqemu_mmio_usec = 100\n"
             "; corr cpi qemu_mmio_usec -0.600\n"
             "; resvar 0.004 (the residual variance)\n",
             &d, &at, 11);
    CU_ASSERT_EQUAL(d.resvar, 0.004);
    enum { N = 50 };
    double lw[N], w[N], far[N];
    const double s1 = 0.1, s2 = 5, rho = -0.6, fit = 0.25;
    for (int k = 0; k < N; k++) {
        pdraw_point pt;
        pdraw_sample_at(&d, r, &at, &p, &pt);
        double x = (P(&p, cpi) - 2) / s1,
               y = (P(&p, qemu_mmio_usec) - 100) / s2;
        double q = (x * x - 2 * rho * x * y + y * y) / (1 - rho * rho);
        CU_ASSERT(fabs(q - pt.m2) < 1e-9 * (1 + q)); /* m2: the distance */
        double cost = fit + d.resvar * q / 2;
        lw[k] = pdraw_log_weight(cost, fit, d.resvar, &pt);
        /* the same draws with an objective 50 s^2 above it at k = 0 */
        far[k] = pdraw_log_weight(cost + (k == 0 ? 50 * d.resvar : 0), fit,
                                  d.resvar, &pt);
    }
    double ess = pdraw_weights(lw, N, w);
    CU_ASSERT(fabs(ess - N) < 1e-9);
    for (int k = 0; k < N; k++)
        CU_ASSERT(fabs(w[k] - 1.0 / N) < 1e-12);
    /* a draw whose objective the table rejects: weight exp(-50) of the
     * others', and the ESS one draw less */
    ess = pdraw_weights(far, N, w);
    CU_ASSERT(w[0] < 1e-20);
    CU_ASSERT(fabs(w[1] - 1.0 / (N - 1)) < 1e-12);
    CU_ASSERT(fabs(ess - (N - 1)) < 1e-9);
    gsl_rng_free(r);
    pdraw_free(&d);
}

/* Kish's effective sample size, the weights' normalisation, a draw left
 * outside the ranges (weight 0), and the chi-square alternative. */
static void test_ess_and_the_alternative(void)
{
    double w[4];
    const double half[4] = {0, 0, -INFINITY, -INFINITY};
    CU_ASSERT(fabs(pdraw_weights(half, 4, w) - 2) < 1e-12);
    CU_ASSERT(w[0] == 0.5 && w[1] == 0.5 && w[2] == 0 && w[3] == 0);
    /* weights 1, 2, 3, 4 (logs): (10)^2 / 30 */
    const double lin[4] = {0, log(2), log(3), log(4)};
    CU_ASSERT(fabs(pdraw_weights(lin, 4, w) - 100.0 / 30) < 1e-12);
    CU_ASSERT(fabs(w[3] - 0.4) < 1e-12);
    /* one dominant draw: ESS 1 */
    const double one[4] = {0, -800, -900, -1000};
    CU_ASSERT(fabs(pdraw_weights(one, 4, w) - 1) < 1e-12);
    const double none[2] = {-INFINITY, -INFINITY};
    CU_ASSERT_EQUAL(pdraw_weights(none, 2, w), 0);
    CU_ASSERT(w[0] == 0 && w[1] == 0);
    /* the floor: a quarter of the draws, at least 2 */
    CU_ASSERT_EQUAL(pdraw_ess_floor(16), 4);
    CU_ASSERT_EQUAL(pdraw_ess_floor(6), 2);
    /* noise of sd x on the excess: log weights of sd x / 2; lognormal
     * weights of log-sd t keep n exp(-t^2) */
    CU_ASSERT_EQUAL(pdraw_noise_ess(16, 0), 16);
    CU_ASSERT(fabs(pdraw_noise_ess(16, 2) - 16 * exp(-1)) < 1e-12);
    CU_ASSERT(pdraw_noise_ess(16, 20) < 1e-40);
    /* a draw clamped onto a range's end is no point of the target */
    pdraw_point out = {.m2 = 1, .outside = 1, .tries = PDRAW_TRIES};
    CU_ASSERT(isinf(pdraw_log_weight(0, 0, 1, &out)));
    /* chi2(1)'s 95% quantile is 3.841, chi2(5)'s 11.07 */
    CU_ASSERT(fabs(pdraw_chi2_noise_q95(1, 0) - 3.841459) < 1e-5);
    CU_ASSERT(fabs(pdraw_chi2_noise_q95(5, 0) - 11.0705) < 1e-4);
    /* one evaluation a draw (the fit's own seed): excess 2 (cost - fit) /
     * s^2 against it, no noise, the plain weights */
    const double c1[3] = {1.9, 1.95, 0.5}, fit = 0, m2[3] = {0, 0, 1};
    const int in[3] = {0, 0, 1};
    double x[3], w3[3];
    bool within[3];
    pdraw_weighing o;
    pdraw_weigh(3, 1, c1, &fit, m2, in, 1, 1, x, w3, within, &o);
    CU_ASSERT(fabs(x[0] - 3.8) < 1e-12 && fabs(x[1] - 3.9) < 1e-12);
    CU_ASSERT_TRUE(within[0]);
    CU_ASSERT_FALSE(within[1]);
    CU_ASSERT_FALSE(within[2]); /* outside a range: out, weight 0 */
    CU_ASSERT(o.tau == 0 && o.shrink == 1 && o.valid == 2);
    CU_ASSERT(fabs(w3[0] / w3[1] - exp(0.05)) < 1e-12 && w3[2] == 0);
    CU_ASSERT(fabs(o.ess - o.ess_plain) < 1e-12);
}

/* Weighted mean and sd: equal weights are the plain ones, 0/1 weights
 * the plain ones of the draws weighted 1, one draw with all the weight
 * has no sd. */
static void test_weighted_statistics(void)
{
    const double x[5] = {1, 2, 4, 8, 16};
    const double eq[5] = {0.2, 0.2, 0.2, 0.2, 0.2};
    double o[2];
    pdraw_wspread(eq, x, 5, o);
    CU_ASSERT(fabs(o[0] - 6.2) < 1e-12);
    CU_ASSERT(fabs(o[1] - gsl_stats_sd(x, 1, 5)) < 1e-12);
    const double sub[5] = {0, 1, 1, 1, 0};
    pdraw_wspread(sub, x, 5, o);
    CU_ASSERT(fabs(o[0] - 14.0 / 3) < 1e-12);
    CU_ASSERT(fabs(o[1] - gsl_stats_sd(x + 1, 1, 3)) < 1e-12);
    /* weights 3:1 on two values: mean 1.5, sd by the reliability
     * weights' formula: (4 / (16 - 10)) x (3 x 0.25 + 1 x 2.25) = 2 */
    const double y[2] = {1, 3}, w31[2] = {3, 1};
    pdraw_wspread(w31, y, 2, o);
    CU_ASSERT(fabs(o[0] - 1.5) < 1e-12);
    CU_ASSERT(fabs(o[1] - sqrt(2)) < 1e-12);
    const double all[5] = {0, 0, 1, 0, 0};
    pdraw_wspread(all, x, 5, o);
    CU_ASSERT_EQUAL(o[0], 4);
    CU_ASSERT_TRUE(isnan(o[1]));
    const double zero[5] = {0};
    pdraw_wspread(zero, x, 5, o);
    CU_ASSERT_TRUE(isnan(o[0]) && isnan(o[1]));
}

/* The re-check at K seeds with the model's noise known by construction:
 * draw i at seed j has objective fit_j + s^2 / 2 (m2_i + eta_i + sigma
 * e_ij), fit_j the point's at seed j (its own noise, which the pairing
 * takes out), eta_i the draw's true departure from the linear model, e
 * standard normal: the noise of a draw's excess (the mean of K paired
 * differences) is tau = sigma / sqrt(K). */
enum { NW = 400, KW = 4, KFIT = 4 };
static double wc[NW * KW], wpt[KW], wm2[NW], wx[NW], ww[NW];
static int wout[NW];
static bool win[NW];

static void make_draws(gsl_rng *r, double sigma, double far, double s2)
{
    for (int j = 0; j < KW; j++)
        wpt[j] = 1 + s2 / 2 * 30 * gsl_ran_gaussian(r, 1.0);
    for (int i = 0; i < NW; i++) {
        wm2[i] = gsl_ran_chisq(r, KFIT); /* z'z of a KFIT-dim draw */
        wout[i] = 0;
        double eta = i % 2 ? far : 0;
        for (int j = 0; j < KW; j++)
            wc[i * KW + j] = wpt[j] + s2 / 2 * (wm2[i] + eta +
                                                sigma * gsl_ran_gaussian(r, 1.0));
    }
}

static void test_noise_carried_into_the_weights(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    const double s2 = 0.01;
    pdraw_weighing o;
    /* the noise alone (eta = 0): sd 20 a seed, tau = 10. Plain weights
     * (log sd 5) leave a handful of draws; shrunk (James-Stein: here 0.14,
     * the spread of 400 noisy values a little above tau's by chance), the
     * draws are not told apart by noise: over half the draws' ESS; the
     * widened quantile holds about 95% of them (the plain chi2(4) one,
     * 9.5, far fewer) */
    make_draws(r, 20, 0, s2);
    pdraw_weigh(NW, KW, wc, wpt, wm2, wout, s2, KFIT, wx, ww, win, &o);
    CU_ASSERT(fabs(o.tau - 10) < 1);
    CU_ASSERT(o.point_sd > 10); /* the point's own spread, 30 a seed */
    CU_ASSERT(o.shrink < 0.2);
    CU_ASSERT(o.ess_plain < 0.05 * NW);
    CU_ASSERT(o.ess > 0.5 * NW);
    unsigned nin = 0;
    for (int i = 0; i < NW; i++)
        nin += win[i];
    CU_ASSERT(nin >= 0.9 * NW && nin <= 0.99 * NW);
    CU_ASSERT(o.q95 > 9.49 + 10 && fabs(o.q95_plain - 9.4877) < 1e-3);
    /* half the draws 200 worse than the linear model, beyond any noise:
     * the shrinkage is near 1, they keep ~0 weight and are out */
    make_draws(r, 20, 200, s2);
    pdraw_weigh(NW, KW, wc, wpt, wm2, wout, s2, KFIT, wx, ww, win, &o);
    CU_ASSERT(o.shrink > 0.95);
    double wfar = 0;
    nin = 0;
    for (int i = 1; i < NW; i += 2) {
        wfar += ww[i];
        nin += win[i];
    }
    CU_ASSERT(wfar < 1e-10);
    CU_ASSERT_EQUAL(nin, 0);
    /* common random numbers that hold: each draw's paired difference the
     * same at every seed, however much the point itself moves: no noise,
     * the plain weights, here all equal (the linear model) */
    make_draws(r, 0, 0, s2);
    pdraw_weigh(NW, KW, wc, wpt, wm2, wout, s2, KFIT, wx, ww, win, &o);
    CU_ASSERT(o.tau < 1e-6 && o.point_sd > 10);
    CU_ASSERT(fabs(o.ess - NW) < 1e-3);
    /* a draw left outside a range: weight 0 whatever the shrinkage */
    make_draws(r, 20, 0, s2);
    wout[3] = 1;
    pdraw_weigh(NW, KW, wc, wpt, wm2, wout, s2, KFIT, wx, ww, win, &o);
    CU_ASSERT(ww[3] == 0 && !win[3] && o.valid == NW - 1);
    gsl_rng_free(r);
}

/* The widened quantile: chi2(k) + N(0, tau^2) by its definition, a Monte
 * Carlo of both (GSL) */
static void test_noise_quantile(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 9);
    const int k = 18;
    const double tau = 9;
    double q = pdraw_chi2_noise_q95(k, tau);
    int below = 0, n = 200000;
    for (int i = 0; i < n; i++)
        below += gsl_ran_chisq(r, k) + gsl_ran_gaussian(r, tau) <= q;
    CU_ASSERT(fabs((double)below / n - 0.95) < 0.003);
    CU_ASSERT(q > pdraw_chi2_noise_q95(k, 0));
    gsl_rng_free(r);
}

/* The curvature proposal on an objective known by construction: around
 * cpi = 2 +- 0.1 and qemu_mmio_usec = 100 +- 5 with correlation -0.6
 * (resvar 0.004), the excess 2 (S - S_fit) / s^2 is the quadratic
 * sum_j c_j ((u_j - mu_j)^2 - mu_j^2), u_j = v_j' delta / sigma_j along
 * the covariance's eigen-directions, here computed by hand (2 x 2, not by
 * the module), plus noise of sd `noise` on every evaluation. c = (1, 1)
 * and mu = 0 is the linearised objective; c_j = 100 makes the target 10
 * times narrower than the linearisation along j, mu_j moves its mode
 * there. */
typedef struct quad {
    double fit, s2;
    double at[2];          /* cpi, qemu_mmio_usec at the point */
    double v[2][2];        /* v[i][j]: parameter i of direction j */
    double sig[2];         /* sqrt(eigenvalue) */
    double c[2], mu[2];
    double rho;            /* the cross-curvature of u_0 and u_1, in
                              sqrt(c_0 c_1): invisible to the step */
    double q4[2];          /* + q4_j u_j^4: faster than a parabola */
    double noise;
    gsl_rng *r;
} quad;

static void quad_init(quad *q, double cpi, double sc, double sq, double rho)
{
    memset(q, 0, sizeof *q);
    q->fit = 0.25;
    q->s2 = 0.004;
    q->at[0] = cpi;
    q->at[1] = 100;
    double a = sc * sc, b = rho * sc * sq, dd = sq * sq;
    double m = (a + dd) / 2, h = sqrt((a - dd) * (a - dd) / 4 + b * b);
    double lam[2] = {m - h, m + h};
    for (int j = 0; j < 2; j++) {
        q->sig[j] = sqrt(lam[j]);
        /* (C - lam I) v = 0: v ~ (b, lam - a), or an axis when b = 0 */
        double x = b, y = lam[j] - a;
        if (b == 0) {
            x = a <= dd ? (j == 0) : (j == 1);
            y = a <= dd ? (j == 1) : (j == 0);
        }
        double nrm = hypot(x, y);
        q->v[0][j] = x / nrm;
        q->v[1][j] = y / nrm;
        q->c[j] = 1;
    }
    q->r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(q->r, 17);
}

static sim_err quad_cost(void *ctx, const params *p, double *cost)
{
    quad *q = ctx;
    double dl[2] = {P(p, cpi) - q->at[0], P(p, qemu_mmio_usec) - q->at[1]};
    /* (u - mu)' H (u - mu) - mu' H mu, H = [c0 r; r c1] */
    double u[2], r = q->rho * sqrt(q->c[0] * q->c[1]);
    for (int j = 0; j < 2; j++)
        u[j] = (q->v[0][j] * dl[0] + q->v[1][j] * dl[1]) / q->sig[j];
    double e0 = u[0] - q->mu[0], e1 = u[1] - q->mu[1];
    double x = q->c[0] * e0 * e0 + q->c[1] * e1 * e1 + 2 * r * e0 * e1 -
               (q->c[0] * q->mu[0] * q->mu[0] + q->c[1] * q->mu[1] * q->mu[1] +
                2 * r * q->mu[0] * q->mu[1]) +
               q->q4[0] * pow(u[0], 4) + q->q4[1] * pow(u[1], 4);
    if (q->noise > 0)
        x += gsl_ran_gaussian(q->r, q->noise);
    *cost = q->fit + q->s2 / 2 * x;
    return SIM_OK;
}

static const char *quad_ini(double cpi, double rho)
{
    static char text[400];
    snprintf(text, sizeof text,
             "; cpi: +- 0.1 cycles/insn (1 sigma)\ncpi = %.17g\n"
             "; qemu_mmio_usec: +- 5 usec (1 sigma)\nqemu_mmio_usec = 100\n"
             "; corr cpi qemu_mmio_usec %.3f\n"
             "; resvar 0.004 (the residual variance)\n",
             cpi, rho);
    return text;
}

/* the point at K seeds (the seeds mean nothing to quad_cost: its noise is
 * fresh every evaluation, the common random numbers that do not hold) */
enum { QK = 4 };
static const double qseed[QK] = {2, 3, 4, 5};

static void quad_point(quad *q, const params *at, double *cost_pt)
{
    for (int j = 0; j < QK; j++)
        CU_ASSERT_EQUAL(quad_cost(q, at, &cost_pt[j]), SIM_OK);
}

/* the direction of cv whose eigenvalue is the larger (the module sorts
 * ascending) */
#define SHARP 1

/* pdraw_curvature of q around at, the point's own objective taken at
 * the QK seeds first (as sim validate does before drawing) */
static void curv_at_point(quad *q, const pdraw *d, const params *at,
                          pdraw_curv *cv)
{
    double cpt[QK];
    quad_point(q, at, cpt);
    CU_ASSERT_EQUAL_FATAL(pdraw_curvature(d, at, quad_cost, q, QK, qseed, cpt,
                                          cv),
                          SIM_OK);
}

/* The step recovers the curvature along each direction (within 10%: the
 * noise of sd 0.3 an evaluation is the only error of a quadratic), narrows
 * the 100x one to a tenth of its sd, keeps the other at the linearised
 * sd; a direction flatter than the linearisation (c = 0.25) is not
 * widened; the parabola's minimum is found where the slope is real and
 * not invented where it is noise. */
static void test_curvature_recovers_the_scale(void)
{
    static pdraw d;
    static params at;
    static quad q;
    gsl_rng *r = load(quad_ini(2, -0.6), &d, &at, 1);
    quad_init(&q, 2, 0.1, 5, -0.6);
    q.c[SHARP] = 100;
    q.mu[SHARP] = 0.15;
    q.c[0] = 0.25;
    q.noise = 0.3;
    for (int j = 0; j < 2; j++) /* the module's eigenvalues are the hand's */
        CU_ASSERT(fabs(sqrt(d.eval[j]) - q.sig[j]) < 1e-9 * q.sig[j]);
    pdraw_curv cv;
    curv_at_point(&q, &d, &at, &cv);
    CU_ASSERT_EQUAL(cv.n, 2);
    /* +-h at each seed, along both, and again along the narrowed one */
    CU_ASSERT_EQUAL(cv.evals, 3 * 2 * QK);
    const pdraw_dir *s = &cv.dir[SHARP], *f = &cv.dir[0];
    CU_ASSERT_EQUAL(s->wide.hp, 1);
    CU_ASSERT_EQUAL(s->wide.hm, 1);
    CU_ASSERT(fabs(s->wide.curv / 100 - 1) < 0.1);
    CU_ASSERT(s->wide.curv_se > 0 && s->wide.curv_se < 1);
    /* measured again at two of the narrowed sds, 0.2: the same parabola */
    CU_ASSERT_TRUE(s->refined);
    CU_ASSERT(fabs(s->fine.hp - 0.2) < 0.01 && s->fine.hp == s->fine.hm);
    CU_ASSERT(fabs(s->fine.curv / 100 - 1) < 0.1);
    CU_ASSERT(fabs(s->scale * 10 - 1) < 0.1);
    /* the mode: 0.15 sigma along it (the module's v may point the other
     * way: the centre in parameter space is what must agree) */
    CU_ASSERT(fabs(fabs(s->shift) - 0.15) < 0.02);
    CU_ASSERT_EQUAL(cv.narrowed, 1);
    CU_ASSERT_EQUAL(cv.shifted, 1);
    /* flatter than the linearisation: measured so, kept at its sd */
    CU_ASSERT(fabs(f->wide.curv - 0.25) < 0.3);
    CU_ASSERT_FALSE(f->refined);
    CU_ASSERT_EQUAL(f->used, 1);
    CU_ASSERT_EQUAL(f->scale, 1);
    CU_ASSERT_EQUAL(f->shift, 0);
    /* the lead of the sharp direction is qemu_mmio_usec */
    CU_ASSERT_EQUAL(s->lead[0], PARAM_qemu_mmio_usec);
    pdraw_narrow(&d, &cv);
    for (int i = 0; i < 2; i++) {
        double want = 0.15 * q.sig[SHARP] * q.v[i][SHARP];
        CU_ASSERT(fabs(d.shift[i] - want) < 0.02 * q.sig[SHARP] *
                                                 fabs(q.v[i][SHARP]) + 1e-12);
    }
    /* a point 0.6 sigma above cpi's lower end (0.3): measured half a
     * sigma down, a whole one up (the axes: no correlation) */
    gsl_rng_free(r);
    pdraw_free(&d);
    gsl_rng_free(q.r);
    r = load(quad_ini(0.36, 0), &d, &at, 1);
    quad_init(&q, 0.36, 0.1, 5, 0);
    q.c[0] = 100;
    q.mu[0] = 0.15;
    q.c[1] = 50;
    q.noise = 0.3;
    curv_at_point(&q, &d, &at, &cv);
    CU_ASSERT_EQUAL(cv.dir[0].wide.hm, 0.5);
    CU_ASSERT_EQUAL(cv.dir[0].wide.hp, 1);
    CU_ASSERT_EQUAL(cv.dir[0].lead[0], PARAM_cpi);
    /* the parabola through the unequal steps: the curvature and the
     * minimum as before */
    CU_ASSERT(fabs(cv.dir[0].wide.curv / 100 - 1) < 0.1);
    CU_ASSERT(fabs(cv.dir[0].shift - 0.15) < 0.02);
    CU_ASSERT_EQUAL(cv.dir[1].wide.hp, 1);
    CU_ASSERT(fabs(cv.dir[1].wide.curv / 50 - 1) < 0.1);
    /* its slope is noise (mu = 0): narrowed, but the centre stays */
    CU_ASSERT_EQUAL(cv.dir[1].shift, 0);
    CU_ASSERT_EQUAL(cv.narrowed, 2);
    CU_ASSERT_EQUAL(cv.shifted, 1);
    /* a file without '; resvar': no curvature (no scale for the excess) */
    pdraw_free(&d);
    write_ini("; cpi: +- 0.1 x (1 sigma)\ncpi = 2\n");
    CU_ASSERT_EQUAL_FATAL(pdraw_load(&d, ini), SIM_OK);
    double cpt[QK];
    quad_point(&q, &at, cpt);
    CU_ASSERT_EQUAL(pdraw_curvature(&d, &at, quad_cost, &q, QK, qseed, cpt,
                                    &cv),
                    SIM_ERR_FORMAT);
    sim_clear_error();
    gsl_rng_free(q.r);
    gsl_rng_free(r);
    pdraw_free(&d);
}

/* An objective that rises faster than a parabola, x = 100 u^4 along the
 * direction qemu_mmio_usec leads: at one sigma it reads as curvature 100,
 * but the target's sd there is 0.22 sigma (E u^2 = Gamma(3/4) /
 * Gamma(1/4) / sqrt(50)), and a proposal narrowed to 0.1 would be under
 * 1/sqrt(2) of it (weights of infinite variance). The second
 * measurement, at two of the narrowed sds (0.2 sigma: curvature 100 x
 * 0.04 = 4), widens the proposal to that step, 0.2 sigma: above
 * 1/sqrt(2) of the target's sd. */
static void test_curvature_errs_wide(void)
{
    static pdraw d;
    static params at;
    static quad q;
    gsl_rng *r = load(quad_ini(2, -0.6), &d, &at, 1);
    quad_init(&q, 2, 0.1, 5, -0.6);
    q.c[SHARP] = 0;
    q.q4[SHARP] = 100;
    q.noise = 0.05;
    pdraw_curv cv;
    curv_at_point(&q, &d, &at, &cv);
    const pdraw_dir *s = &cv.dir[SHARP];
    CU_ASSERT(fabs(s->wide.curv / 100 - 1) < 0.1);
    CU_ASSERT_TRUE(s->refined);
    CU_ASSERT(fabs(s->fine.hp - 0.2) < 0.01);
    CU_ASSERT(s->fine.curv > 2 && s->fine.curv < 6);
    double target = sqrt(gsl_sf_gamma(0.75) / gsl_sf_gamma(0.25) / sqrt(50));
    CU_ASSERT(s->scale > target / sqrt(2));
    CU_ASSERT(fabs(s->scale - s->fine.hp) < 0.01); /* widened to it */
    CU_ASSERT(s->used <= s->wide.curv);
    gsl_rng_free(q.r);
    gsl_rng_free(r);
    pdraw_free(&d);
}

/* n draws of d re-checked against q at the QK seeds and weighed as sim
 * validate weighs them: ESS, the weighted mean and sd of qemu_mmio_usec
 * and of cpi into o[0..3], and the plain sd of qemu_mmio_usec into o[4] */
enum { QN = 2000 };
static double qc[QN * QK], qm2[QN], qx[QN], qw[QN], qv[2][QN];
static int qout[QN];
static bool qin[QN];

static double quad_weigh(quad *q, const pdraw *d, const params *at,
                         gsl_rng *r, double *o)
{
    static params p;
    double cpt[QK];
    quad_point(q, at, cpt);
    for (int i = 0; i < QN; i++) {
        pdraw_point pt;
        pdraw_sample_at(d, r, at, &p, &pt);
        qm2[i] = pt.m2;
        qout[i] = pt.outside;
        qv[0][i] = P(&p, qemu_mmio_usec);
        qv[1][i] = P(&p, cpi);
        for (int j = 0; j < QK; j++) {
            p.v[PARAM_seed] = qseed[j];
            CU_ASSERT_EQUAL(quad_cost(q, &p, &qc[i * QK + j]), SIM_OK);
        }
    }
    pdraw_weighing g;
    pdraw_weigh(QN, QK, qc, cpt, qm2, qout, q->s2, 2, qx, qw, qin, &g);
    pdraw_wspread(qw, qv[0], QN, o);
    pdraw_wspread(qw, qv[1], QN, o + 2);
    o[4] = gsl_stats_sd(qv[0], 1, QN);
    return g.ess;
}

/* The target is about 10 times narrower than the linearisation along
 * the direction qemu_mmio_usec leads and its mode 0.15 sigma off the
 * point: drawn from the linearised Gaussian the importance weights keep
 * an ESS of about 14% of the draws; drawn along the measured curvature,
 * with that proposal's density in the weights, over half. The two
 * directions' cross-curvature (rho 0.5) is what the step cannot see: the
 * proposal is 0.87 of the target's sd along both (H^-1 = [100 -5; -5 1] /
 * 75 in u), so its draws' plain sd is too small, and the weights must
 * bring the mean and sd back to the target's (by hand: W H^-1 W', the
 * mode at W mu, W = V diag(sigma)). */
static void test_curvature_proposal_weighs_well(void)
{
    static pdraw d;
    static params at;
    static quad q;
    gsl_rng *r = load(quad_ini(2, -0.6), &d, &at, 21);
    quad_init(&q, 2, 0.1, 5, -0.6);
    q.c[SHARP] = 100;
    q.mu[SHARP] = 0.15;
    q.rho = 0.5;
    q.noise = 0.1; /* (so that c' is near c: the bound's margin for noise
                      would widen the proposal towards the target) */
    /* H^-1 of H = [c0 r; r c1] */
    double hr = q.rho * sqrt(q.c[0] * q.c[1]);
    double det = q.c[0] * q.c[1] - hr * hr;
    double hi[2][2] = {{q.c[1] / det, -hr / det},
                       {-hr / det, q.c[0] / det}};
    double true_mean[2], true_sd[2];
    for (int i = 0; i < 2; i++) { /* i: 0 qemu_mmio_usec, 1 cpi */
        int pi = i == 0 ? 1 : 0;
        double var = 0;
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++)
                var += q.sig[j] * q.v[pi][j] * hi[j][k] * q.sig[k] *
                       q.v[pi][k];
        true_sd[i] = sqrt(var);
        true_mean[i] = q.at[pi] + q.mu[SHARP] * q.sig[SHARP] * q.v[pi][SHARP];
    }
    double lin[5], cur[5];
    double ess_lin = quad_weigh(&q, &d, &at, r, lin);
    pdraw_curv cv;
    curv_at_point(&q, &d, &at, &cv);
    pdraw_narrow(&d, &cv);
    double ess_cur = quad_weigh(&q, &d, &at, r, cur);
    CU_ASSERT(ess_lin < 0.25 * QN);
    CU_ASSERT(ess_cur > 0.5 * QN);
    if (!(ess_lin < 0.25 * QN) || !(ess_cur > 0.5 * QN))
        fprintf(stderr, "ESS linear %.0f, curvature %.0f of %d\n", ess_lin,
                ess_cur, QN);
    /* the proposal itself: the linearised draws' plain sd of
     * qemu_mmio_usec is its 5, the curvature's near a tenth of it and
     * short of the target's (the cross-curvature it cannot see) */
    CU_ASSERT(fabs(lin[4] / 5 - 1) < 0.1);
    CU_ASSERT(cur[4] < 0.92 * true_sd[0] && cur[4] > 0.8 * true_sd[0]);
    /* weighted: the target's sd within 5%, its mean within a tenth of
     * its sd, for both parameters */
    for (int i = 0; i < 2; i++) {
        CU_ASSERT(fabs(cur[2 * i + 1] / true_sd[i] - 1) < 0.05);
        CU_ASSERT(fabs(cur[2 * i] - true_mean[i]) < 0.1 * true_sd[i]);
        if (!(fabs(cur[2 * i + 1] / true_sd[i] - 1) < 0.05))
            fprintf(stderr, "sd %g, want %g (plain %g)\n", cur[2 * i + 1],
                    true_sd[i], cur[4]);
    }
    gsl_rng_free(q.r);
    gsl_rng_free(r);
    pdraw_free(&d);
}

static CU_TestInfo tests[] = {
    {"draws have the stated sigmas and correlation",
     test_draws_have_the_stated_covariance},
    {"draws stay in range, whole where the parameter is",
     test_draws_stay_in_range_and_whole},
    {"a correlation matrix that is not positive definite is clipped",
     test_not_positive_definite_is_clipped},
    {"bad files are refused with file:line", test_bad_files_are_refused},
    {"a linear objective weighs every draw alike; a far worse one ~0",
     test_linear_objective_weights_equal},
    {"ESS, normalisation, a clamped draw, the chi-square alternative",
     test_ess_and_the_alternative},
    {"weighted mean and sd (GSL)", test_weighted_statistics},
    {"the model's noise at K seeds carried into the weights (known noise)",
     test_noise_carried_into_the_weights},
    {"the chi-square quantile widened by the noise (Monte Carlo)",
     test_noise_quantile},
    {"the curvature step recovers a known objective's scale and mode",
     test_curvature_recovers_the_scale},
    {"drawn along the curvature: high ESS, the target's mean and sd",
     test_curvature_proposal_weighs_well},
    {"an objective steeper than a parabola: the proposal widened",
     test_curvature_errs_wide},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("pdraw", tests)
