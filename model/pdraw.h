/* Draws of a calibrated parameter point (docs/calibration.md, "Draws of
 * the fitted point"): sim calibrate writes each fitted value's 1-sigma
 * ("; NAME: +- S ...") and the estimates' correlations ("; corr A B r")
 * as comment lines of its INI file; a draw is the fitted point plus a
 * multivariate normal deviation of that covariance (GSL), restricted to
 * each parameter's declared range (drawn again when it leaves one) and
 * whole-number parameters rounded. It is the linearised uncertainty of
 * the fit: it says how far the table leaves the parameters free, not
 * whether the model is right. pdraw_narrow replaces that Gaussian by one
 * narrowed along the covariance's eigen-directions where the objective
 * is measured to curve more sharply (the curvature proposal, below). */
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
    /* the covariance's eigen-decomposition C = V diag(eval) V' (GSL
     * gsl_eigen_symmv, ascending eigenvalues), the directions the
     * curvature proposal measures along */
    gsl_matrix *evec;           /* V, column j the direction j */
    double eval[PARAM__COUNT];
    /* the proposal's centre minus the point (0 but after pdraw_narrow) */
    double shift[PARAM__COUNT];
    bool narrowed;              /* factor and shift are pdraw_narrow's */
} pdraw;

/* Where a draw fell, for its importance weight. */
typedef struct pdraw_point {
    double m2;   /* z'z: its squared Mahalanobis distance from the
                    proposal's centre (the point, or the curvature
                    proposal's) in the proposal's covariance (over its
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
/* The re-check with the model's noise carried (docs/calibration.md,
 * "Weighing the draws", "The model's noise in the re-check"): the point
 * and every draw evaluated at the same K seeds of the model (common
 * random numbers), none of them the seed the fit minimised; a draw's
 * excess is x = 2 (mean S_draw - mean S_point) / s^2 over those seeds.
 * Its noise: the paired differences d_j = 2 (S_draw,j - S_point,j) / s^2
 * of every draw, their variance over the seeds pooled over the draws and
 * divided by K (the variance of a mean of K): tau^2. The departure of a
 * draw from the linear model, y = x - m2 (0 for a linear model without
 * noise), is taken as eta + noise, eta ~ N(mu, V) across the draws, the
 * noise N(0, tau^2) (with the curvature proposal m2 is its own
 * distance: y is the departure from the proposal's quadratic). The
 * posterior mean of the importance weight
 * exp(-eta / 2) is then exp(-B y / 2) up to a constant all draws share,
 * B = V / (V + tau^2), estimated by James and Stein's factor (positive
 * part) 1 - (n - 3) tau^2 / sum (y - mean y)^2 over the n draws inside the
 * ranges (n >= 4, else B = 1): the plain weight's log shrunk by B - where
 * the draws differ by no more than the noise (B -> 0) none is rejected
 * for it; where the noise is small (B -> 1) the weights are the plain
 * ones. The chi-square alternative: the draws whose x is
 * within the 95% quantile of chi2(k) + N(0, tau^2), the linear model's
 * excess (k the fitted values: draws from the fit's own covariance have
 * an excess so distributed) plus the noise, weighed alike. */
#define PDRAW_SEEDS_MAX 32
#define PDRAW_RECHECK_SEEDS 4 /* sim validate's default (param_draws.seeds) */
typedef struct pdraw_weighing {
    unsigned seeds;      /* K (1: one evaluation a point, no noise known) */
    double tau;          /* sd of the noise of a draw's excess x */
    double point_sd;     /* sd over the K seeds of the point's own
                            2 (S_j - mean S) / s^2: one evaluation's noise */
    double dep_var;      /* V: var(y) - tau^2, at least 0 */
    double shrink;       /* B (1 when tau = 0 or fewer than 4 draws) */
    double q95;          /* the quantile the draws are held against */
    double q95_plain;    /* chi2(k)'s alone */
    double ess, ess_plain; /* Kish's ESS of the weights, of the plain ones */
    unsigned valid;      /* draws inside the ranges */
} pdraw_weighing;

/* The 95% quantile of chi2(k) + N(0, tau^2) (GSL integration and root
 * finding; chi2(k)'s own for tau = 0). */
double pdraw_chi2_noise_q95(int k, double tau);
/* Weighs n draws re-checked at K (1..PDRAW_SEEDS_MAX) seeds: cost[i * K
 * + j] the objective of draw i at seed j, cost_pt[j] the point's at seed
 * j, m2 and outside as pdraw_point's; resvar s^2, k the fitted values.
 * Into x[i] each draw's excess, w[i] its weight (normalised), within[i]
 * whether x is within o->q95 (and the draw inside the ranges). K = 1 is
 * the plain re-check (tau = 0, B = 1). */
void pdraw_weigh(unsigned n, unsigned K, const double *cost,
                 const double *cost_pt, const double *m2, const int *outside,
                 double resvar, int k, double *x, double *w, bool *within,
                 pdraw_weighing *o);

/* The curvature proposal (docs/calibration.md, "Drawing along the
 * measured curvature"). Along each eigen-direction j of the covariance
 * (sigma_j = sqrt(eval[j])), the objective is evaluated at the point
 * + h+ sigma_j v_j and - h- sigma_j v_j at the same seeds as the point
 * (common random numbers), each h = 1 halved until its end is inside
 * the declared ranges (at most PDRAW_CURV_HALVINGS times, else the
 * direction is left unmeasured). Per seed the excesses d+-, 2 (S(+-) -
 * S_point) / s^2, give the parabola a t + c t^2 through them: the
 * curvature c (1 for the linearised objective; (d+ + d-) / (2 h^2) when
 * h+ = h- = h) and the slope a (0 at the objective's minimum); their
 * means over the seeds and standard errors (sd / sqrt K). The
 * rule: c' = c - t se, t Student's 97.5% quantile with K - 1 degrees
 * of freedom (3.18 at K = 4; 0 with one seed); where that is above 1 the
 * direction is measured again at two of the narrowed sds, 2 / sqrt(c')
 * (within the first steps and the ranges), and c' is the smaller of the
 * two bounds, but not below a quarter of the first (the fine step
 * itself); the proposal's sd along j is sigma_j / sqrt(c') where c' is
 * above 1, else sigma_j: never widened past the linearisation. Where
 * narrowed and |a|
 * > t se(a) of the finer measurement, the centre moves to its parabola's
 * minimum -a / (2 c) sigma_j, held within its steps. */
#define PDRAW_CURV_HALVINGS 10
/* One measurement along a direction: the steps, the excesses there (mean
 * over the seeds), the parabola's curvature and slope with their
 * standard errors */
typedef struct pdraw_probe {
    double hp, hm;          /* h+, h-, in sigma */
    double xp, xm;          /* the excess at +h+, -h- */
    double curv, curv_se;   /* c */
    double slope, slope_se; /* a */
} pdraw_probe;
typedef struct pdraw_dir {
    double sigma;       /* sqrt(eval): the linearised sd along it */
    pdraw_probe wide;   /* at up to one sigma (hp 0: not measured - an
                           eigenvalue <= 0, or an end still outside a
                           range) */
    pdraw_probe fine;   /* at two of the narrowed sds (refined) */
    bool refined;
    double used;        /* c' */
    double scale;       /* 1 / sqrt(c'): the proposal's sd / sigma */
    double shift;       /* the proposal's centre, in sigma */
    int lead[2];        /* the two fitted values it moves most, in their
                           own 1-sigmas (param_id; -1 none) */
} pdraw_dir;
typedef struct pdraw_curv {
    int n;              /* directions (d->n) */
    pdraw_dir dir[PARAM__COUNT];
    unsigned evals;     /* objective evaluations it took */
    unsigned narrowed, shifted;
} pdraw_curv;
/* The objective at p (p's seed included): for sim validate the
 * calibration table's (calib_objective_at), never a measured one. */
typedef sim_err (*pdraw_cost_fn)(void *ctx, const params *p, double *cost);
/* Measures cv along d's directions around at: with K >= 2 seeds at
 * seed[0..K-1], the point's objective there cost_pt[0..K-1]; with K = 0
 * at at's own seed, cost_pt[0] the point's there (no standard errors).
 * Needs d->resvar. */
SIM_MUST_CHECK sim_err pdraw_curvature(const pdraw *d, const params *at,
                                       pdraw_cost_fn f, void *ctx,
                                       unsigned K, const double *seed,
                                       const double *cost_pt,
                                       pdraw_curv *cv);
/* Makes d's proposal cv's: factor V diag(sigma_j scale_j), shift V
 * diag(sigma_j) shift_j; pdraw_sample_at then draws the point + shift +
 * factor z and its m2 = z'z is the distance in THAT Gaussian, so the
 * importance weights use the proposal's own density. */
void pdraw_narrow(pdraw *d, const pdraw_curv *cv);

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

typedef enum pdraw_proposal {
    PDRAW_LINEAR,    /* the linearised covariance as written */
    PDRAW_CURVATURE, /* narrowed by the measured curvature (above) */
} pdraw_proposal;

typedef struct pdraw_band {
    unsigned n;
    pdraw_proposal proposal;   /* the one drawn from (PDRAW_LINEAR when
                                  curvature was asked without a resvar) */
    pdraw_curv curv;           /* PDRAW_CURVATURE: what was measured */
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
    double cost_fit, resvar;   /* the objective at the point (the mean over
                                  the seeds) */
    int k;                     /* fitted values drawn */
    double chi2q;              /* the 95% quantile the draws are held
                                  against (chi2(k)'s, widened by the
                                  noise with seeds) */
    /* seeds K > 0: the point and each draw at the model's seeds seed[0 ..
     * K-1] (the point's own seed + 1 ..), the objective their mean; 0:
     * at the point's own seed alone (the fit's, the re-check before the
     * noise was carried) */
    unsigned seeds;
    double seed[PDRAW_SEEDS_MAX];
    double seed_own;           /* the point's own seed (its what-if's) */
    double cost_own;           /* the point at it (the fit's minimum, when
                                  the fit ran at that seed) */
    double cost_pt[PDRAW_SEEDS_MAX];
    double cost_ks[PDRAW_MAX * PDRAW_SEEDS_MAX]; /* draw i at seed j */
    double x[PDRAW_MAX];       /* each draw's excess 2 (S - S_fit) / s^2 */
    double total_k[PDRAW_MAX], handled_k[PDRAW_MAX]; /* each draw's
                                  predicted total and handled time */
    pdraw_weighing wg;
    double cost[PDRAW_MAX], m2[PDRAW_MAX], w[PDRAW_MAX];
    int outside[PDRAW_MAX];
    bool within[PDRAW_MAX];
    unsigned n_within, n_outside;
    unsigned long tries;       /* deviations drawn for the n draws (n /
                                  tries: the Gaussian's mass inside the
                                  ranges) */
    /* seeds 0, the model's own noise: the objective at the point itself
     * with the model's seed + 1 .. + PDRAW_NOISE_SEEDS (parameters that
     * change how many random numbers the model draws move the objective
     * by as much: common random numbers hold only for the others) */
    double cost_seed[PDRAW_NOISE_SEEDS];
    double noise_sd;           /* seeds 0: sd of 2 (S_seed - S_fit) / s^2;
                                  seeds K: wg.tau, the noise of an excess */
    double ess;
    pdraw_view wv, cv;         /* weighted; within the quantile */
} pdraw_band;

/* Runs `sim whatif` n (2..PDRAW_MAX) times on trace with the transform
 * spec (a fresh chain each time) at draws of the point at (GSL mt19937
 * seeded by seed); progress, if given, gets "draw k of n". With obj (the
 * objective of the CALIBRATION table, never the measured one), each draw
 * and the point are re-checked against it at the model's seeds (0 or
 * 2..PDRAW_SEEDS_MAX of them, above): weights, ESS and the weighted
 * spreads as above. With prop PDRAW_CURVATURE (and obj, and d's resvar)
 * the curvature is measured at those seeds first and d narrowed by it
 * (pdraw_narrow: d is changed). */
SIM_MUST_CHECK sim_err pdraw_band_run(const char *trace, const char *spec,
                                      const params *at, const whatif_opts *wo,
                                      pdraw *d, pdraw_proposal prop,
                                      calib_objective *obj, unsigned seeds,
                                      unsigned n,
                                      unsigned long seed, bool fold,
                                      void (*progress)(void *, unsigned,
                                                       unsigned),
                                      void *ctx, pdraw_band *b);

#endif
