/* sensitivity: how much the predicted run moves when one parameter moves
 * (docs/sweep.md, "Sensitivity"). Each parameter is probed a step below
 * and above its value - linear ones from one replay's sufficient
 * statistics (model/sweep.h), stateful ones by a replay each - giving the
 * elasticity of the total and of every row; with a target run change, the
 * value each single parameter would need to reach it, or that none in its
 * range can. */
#ifndef SENSITIVITY_H
#define SENSITIVITY_H

#include <signal.h>
#include <stdbool.h>

#include "params.h"
#include "sim_err.h"
#include "sweep.h"

typedef enum sens_target {
    SENS_T_NONE,     /* no target asked, or the parameter is 0 */
    SENS_T_FOUND,    /* target_value reaches the target */
    SENS_T_RANGE,    /* no value in the range does: bound_* is the best */
    SENS_T_NOEFFECT, /* the parameter does not move the run */
} sens_target;

typedef struct sens_entry {
    param_id id;
    bool linear;         /* evaluated from the statistics */
    bool probed;         /* false: the value is 0, nothing to scale */
    double base, lo, hi; /* value and the probes (lo/hi = base if none) */
    sweep_totals t_lo, t_hi;
    bool exact;          /* the probes equal replays */
    double lo_pct, hi_pct; /* run change at lo / hi, % of the base run */
    double elasticity;     /* d(run)/run over d(value)/value */
    sens_target target;
    double target_value, target_pct; /* value found, run change there */
    bool target_exact;
} sens_entry;

typedef struct sens_opts {
    double step;   /* relative probe, e.g. 0.10 */
    bool replay;   /* probe linear parameters by replay too */
    double target; /* wanted relative run change (-0.10); 0: none */
    cost_guest_mode guest;
    const char *transform; /* a what-if chain: every probe predicts the
                              transformed trace (whatif), by replay */
    unsigned threads;
    volatile sig_atomic_t *stop;
} sens_opts;

/* Probes every parameter but `seed` and `core_hz` around base; e[] gets
 * one entry per parameter in table order (*n of them), *b the base
 * replay (b->at is the base prediction). */
SIM_MUST_CHECK sim_err sens_run(const char *trace, const params *base,
                                const sens_opts *o, sweep_base *b,
                                sens_entry *e, size_t *n);

#endif
