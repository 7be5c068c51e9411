/* Draws of a calibrated parameter point (docs/calibration.md, "Draws of
 * the fitted point"): sim calibrate writes each fitted value's 1-sigma
 * ("; NAME: +- S ...") and the estimates' correlations ("; corr A B r")
 * as comment lines of its INI file; a draw is the fitted point plus a
 * multivariate normal deviation of that covariance (GSL), restricted to
 * each parameter's declared range (drawn again when it leaves one) and
 * whole-number parameters rounded. It is the linearised uncertainty of
 * the fit: it says how far the table leaves the parameters free, not
 * whether the model is right. */
#ifndef SIM_PDRAW_H
#define SIM_PDRAW_H

#include "calib.h"
#include "params.h"
#include "sim_err.h"
#include "table.h"
#include "whatif.h"

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

typedef struct pdraw {
    int n;                      /* parameters with a 1-sigma */
    param_id id[PARAM__COUNT];
    double sigma[PARAM__COUNT];
    gsl_matrix *factor;         /* A with A A' = the covariance (Cholesky) */
    int clipped;                /* negative eigenvalues set to 0 (a
                                   correlation matrix rounded to 3 digits
                                   need not be positive definite) */
    bool live[PARAM__COUNT];    /* factor's column j is not 0 (a clipped
                                   eigenvalue's is) */
    double resvar;              /* "; resvar S2": the fit's residual
                                   variance, the scale of its likelihood;
                                   NAN in a file without it (a sim
                                   calibrate before it was written) */
} pdraw;

/* Where a draw fell, for its importance weight. */
typedef struct pdraw_point {
    double m2;   /* z'z: its squared Mahalanobis distance from the point
                    in the proposal's covariance (over the covariance's
                    support), before rounding */
    int outside; /* values outside their parameter's declared range (then
                    clamped): only after PDRAW_TRIES deviations in vain */
    unsigned tries; /* deviations drawn for it (the ones before left a
                       range) */
} pdraw_point;

#define PDRAW_TRIES 100000

/* Reads the 1-sigma and correlation lines of a sim calibrate INI file.
 * A file without any 1-sigma line is SIM_ERR_FORMAT ("not a calibration's
 * output"); a malformed corr line, an unknown or unfitted name or |r| > 1
 * is SIM_ERR_FORMAT naming path:line. */
SIM_MUST_CHECK sim_err pdraw_load(pdraw *d, const char *path);
/* out = at with each drawn parameter replaced by at's value plus a draw
 * of the deviation, rounded as above; a deviation that takes any value
 * outside its parameter's declared range is drawn again (the Gaussian
 * restricted to the ranges), at most PDRAW_TRIES times, then clamped. */
void pdraw_sample(const pdraw *d, gsl_rng *r, const params *at, params *out);
/* The same draw (the same random numbers), and where it fell into pt. */
void pdraw_sample_at(const pdraw *d, gsl_rng *r, const params *at,
                     params *out, pdraw_point *pt);
void pdraw_free(pdraw *d);

/* The share of drawn parameter i's own (marginal) Gaussian around at
 * that lies outside its declared range: where the linearised 1-sigma
 * reaches past what the parameter can be. */
double pdraw_outside_share(const pdraw *d, int i, const params *at);

/* Importance weights of draws re-checked against the calibration table
 * (docs/calibration.md, "Weighing the draws"). The target is the fit's
 * own likelihood, exp(-chi2(theta) / (2 s^2)) with chi2 = 2 x the
 * calibration objective (calib_objective_at) and s^2 its residual
 * variance, flat over each parameter's declared range; the proposal the
 * Gaussian the draws come from. The log weight of a draw, up to a constant
 * all draws share:
 *   -(cost - cost_fit) / resvar + m2 / 2,
 * -INFINITY for a draw outside a declared range (the target is 0 there:
 * clamping it would put the tail's mass on the range's end). Whole-number
 * parameters are rounded inside the model: the target is read at the
 * rounded point, as the model sees it. */
double pdraw_log_weight(double cost, double cost_fit, double resvar,
                        const pdraw_point *pt);
/* w = exp(lw - max) normalised to sum 1 (all 0 when every lw is
 * -INFINITY); returns Kish's effective sample size (sum w)^2 / sum w^2
 * (0 when all are 0). */
double pdraw_weights(const double *lw, unsigned n, double *w);
/* ESS below which weighted numbers are not to be trusted: a quarter of
 * the draws, at least 2 */
double pdraw_ess_floor(unsigned n);
/* The ESS that noise of sd x on each draw's excess 2 (S - S_fit) / s^2
 * alone leaves of n draws: log weights of sd x / 2, lognormal weights,
 * n exp(-(x / 2)^2). */
double pdraw_noise_ess(unsigned n, double x);
/* Weighted mean and sd of x[0..n-1] into o[0], o[1] (GSL's
 * gsl_stats_wmean and gsl_stats_wsd_m: the sd unbiased for reliability
 * weights, sum w / ((sum w)^2 - sum w^2) x sum w (x - mean)^2, so 0/1
 * weights give the plain sd of the draws weighted 1); NAN where there is
 * none (no weight; one draw with all of it). */
void pdraw_wspread(const double *w, const double *x, unsigned n, double *o);
/* The chi-square alternative: whether a draw's excess 2 (cost -
 * cost_fit) / resvar is within the 95% quantile of the chi-square
 * distribution with k (the fitted values) degrees of freedom; the
 * quantile into *q if q. */
bool pdraw_within_chi2(double cost, double cost_fit, double resvar, int k,
                       double *q);

/* The spread of a what-if's predicted table over n draws of its
 * parameters: per row (EMUL_* folded into EMULINST when fold) and for the
 * traced duration, the draws' mean, sd (n - 1), min and max of the sum
 * (usec) and count. */
#define PDRAW_MAX 1000 /* draws in a band */
#define PDRAW_NOISE_SEEDS 8

/* Mean and sd of the same quantities under weights (NAN where there is
 * no sd: one draw carries all the weight). */
typedef struct pdraw_view {
    double total[2], base_total[2], handled[2], base_handled[2];
    double sum[EXIT__COUNT][2], count[EXIT__COUNT][2];
} pdraw_view;

typedef struct pdraw_band {
    unsigned n;
    double total[4];                 /* mean, sd, min, max */
    double sum[EXIT__COUNT][4];
    double count[EXIT__COUNT][4];
    bool present[EXIT__COUNT];       /* the row in every draw */
    double base_total[4];            /* the untransformed model's total
                                        at the same draws */
    double handled[4], base_handled[4]; /* the same of the exit rows only
                                           (TIMEINGUEST left out) */
    /* the draws re-checked against the calibration table (obj given):
     * each draw's objective, where it fell, and the spreads again,
     * weighted (importance weights) and of the draws within the
     * chi-square quantile alone */
    bool rechecked;
    bool weighted;             /* ... and the file had its resvar */
    double cost_fit, resvar;   /* the objective at the point */
    int k;                     /* fitted values drawn */
    double chi2q;              /* the 95% quantile of chi2(k) */
    double cost[PDRAW_MAX], m2[PDRAW_MAX], w[PDRAW_MAX];
    int outside[PDRAW_MAX];
    bool within[PDRAW_MAX];
    unsigned n_within, n_outside;
    unsigned long tries;       /* deviations drawn for the n draws (n /
                                  tries: the Gaussian's mass inside the
                                  ranges) */
    /* the model's own noise: the objective at the point itself with the
     * model's seed + 1 .. + PDRAW_NOISE_SEEDS (parameters that change how
     * many random numbers the model draws move the objective by as much:
     * common random numbers hold only for the others) */
    double cost_seed[PDRAW_NOISE_SEEDS];
    double noise_sd;           /* sd of 2 (S_seed - S_fit) / s^2 */
    double ess;
    pdraw_view wv, cv;         /* weighted; within the quantile */
} pdraw_band;

/* Runs `sim whatif` n (2..PDRAW_MAX) times on trace with the transform
 * spec (a fresh chain each time) at draws of the point at (GSL mt19937
 * seeded by seed); progress, if given, gets "draw k of n". With obj (the
 * objective of the CALIBRATION table, never the measured one), each draw
 * and the point are re-checked against it: weights, ESS and the weighted
 * spreads as above. */
SIM_MUST_CHECK sim_err pdraw_band_run(const char *trace, const char *spec,
                                      const params *at, const whatif_opts *wo,
                                      const pdraw *d,
                                      calib_objective *obj, unsigned n,
                                      unsigned long seed, bool fold,
                                      void (*progress)(void *, unsigned,
                                                       unsigned),
                                      void *ctx, pdraw_band *b);

#endif
