/* Draws of a calibrated parameter point (docs/calibration.md, "Draws of
 * the fitted point"): sim calibrate writes each fitted value's 1-sigma
 * ("; NAME: +- S ...") and the estimates' correlations ("; corr A B r")
 * as comment lines of its INI file; a draw is the fitted point plus a
 * multivariate normal deviation of that covariance (GSL), each value
 * clamped to its parameter's declared range and whole-number parameters
 * rounded. It is the linearised uncertainty of the fit: it says how far
 * the table leaves the parameters free, not whether the model is right. */
#ifndef SIM_PDRAW_H
#define SIM_PDRAW_H

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
} pdraw;

/* Reads the 1-sigma and correlation lines of a sim calibrate INI file.
 * A file without any 1-sigma line is SIM_ERR_FORMAT ("not a calibration's
 * output"); a malformed corr line, an unknown or unfitted name or |r| > 1
 * is SIM_ERR_FORMAT naming path:line. */
SIM_MUST_CHECK sim_err pdraw_load(pdraw *d, const char *path);
/* out = at with each drawn parameter replaced by at's value plus a draw
 * of the deviation, clamped and rounded as above. */
void pdraw_sample(const pdraw *d, gsl_rng *r, const params *at, params *out);
void pdraw_free(pdraw *d);

/* The spread of a what-if's predicted table over n draws of its
 * parameters: per row (EMUL_* folded into EMULINST when fold) and for the
 * traced duration, the draws' mean, sd (n - 1), min and max of the sum
 * (usec) and count. */
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
} pdraw_band;

/* Runs `sim whatif` n times on trace with the transform spec (a fresh
 * chain each time) at draws of the point at (GSL mt19937 seeded by seed);
 * progress, if given, gets "draw k of n". */
SIM_MUST_CHECK sim_err pdraw_band_run(const char *trace, const char *spec,
                                      const params *at, const whatif_opts *wo,
                                      const pdraw *d, unsigned n,
                                      unsigned long seed, bool fold,
                                      void (*progress)(void *, unsigned,
                                                       unsigned),
                                      void *ctx, pdraw_band *b);

#endif
