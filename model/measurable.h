/* measurable: would a change in the number of traps show in a workload's
 * wall time? (docs/measurable.md). Predicts the wall-time change from the
 * extra trap count and a range of per-trap costs, and judges the measured
 * runs of the two kernels with a Welch t-test (GSL): the runs' standard
 * error, the smallest change they could detect, the verdicts of the
 * prediction and of the measurement, and whether they agree. */
#ifndef MEASURABLE_H
#define MEASURABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "sim_err.h"

#define MEAS_MAX_RUNS 64
/* Beyond these a value is a typo, not a measurement: refused where read. */
#define MEAS_MAX_WALL_S 1e7   /* one run: 115 days */
#define MEAS_MAX_TRAPS 1e15   /* extra traps */
#define MEAS_MAX_COST_NS 1e9  /* one trap: 1 s */

/* A data file (validation/hw/arm64-mair-kernel-compile.txt):
 *   kernel NAME wall T1 T2 ...     wall times, s or m:ss(.frac) or h:mm:ss
 *   traps NAME EVENT COUNT          trap events counted under kernel NAME
 * '#' lines are comments. The first kernel is the baseline. */
typedef struct meas_kernel {
    char name[32];
    double wall[MEAS_MAX_RUNS]; /* seconds */
    size_t n;
    double traps; /* -1: not given */
    char event[48];
    unsigned wall_line, traps_line; /* where each was given (0: not yet) */
} meas_kernel;

typedef struct meas_data {
    meas_kernel k[8];
    size_t nk;
    char path[256]; /* the file, for meas_judge's messages ("" if built) */
} meas_data;

SIM_MUST_CHECK sim_err meas_load(meas_data *d, const char *path);

/* One published per-trap cost. */
typedef struct meas_cost {
    const char *what;
    double ns;
    const char *source; /* docs/measurable.md has the citations */
} meas_cost;
/* The built-in range, cheapest first: a bare EL2 trap ... a full world
 * switch. */
const meas_cost *meas_costs(size_t *n);

typedef struct meas_opts {
    double extra_traps; /* < 0: the data's difference of trap counts */
    double cost_lo_ns, cost_hi_ns; /* <= 0: the built-in range's ends */
    unsigned vcpus;     /* the traps spread over this many vCPUs: the low
                           bound divides by it (1: every trap on the
                           critical path) */
    double alpha;       /* two-sided test level, e.g. 0.05 */
    double power;       /* for the smallest detectable change, e.g. 0.8 */
} meas_opts;

typedef struct meas_result {
    const meas_kernel *base, *changed;
    double extra_traps;
    double cost_lo_ns, cost_hi_ns;
    double pred_lo_s, pred_hi_s;   /* predicted wall-time increase */
    double mean_base, mean_changed, sd_base, sd_changed;
    double diff_s;     /* changed - base, measured */
    double se_s;       /* standard error of the difference (Welch) */
    double df;         /* Welch-Satterthwaite degrees of freedom */
    double t, p;       /* Welch t and two-sided p */
    double mde_s;      /* smallest change detectable at alpha with power */
    double runs_needed; /* runs per kernel to detect pred_hi_s */
    bool predicted_visible; /* |pred_hi_s| >= mde_s */
    bool measured_visible;  /* p < alpha */
    bool agree;
} meas_result;

/* Compares kernel `changed` with the first (baseline) kernel of d.
 * SIM_ERR_USAGE if a kernel has fewer than 2 runs or no trap counts are
 * known and none is given; SIM_ERR_RANGE if neither kernel's runs vary or
 * a count or cost is beyond MEAS_MAX_TRAPS / MEAS_MAX_COST_NS. */
SIM_MUST_CHECK sim_err meas_judge(const meas_data *d, size_t changed,
                                  const meas_opts *o, meas_result *r);

#endif
