/* sweep: the cycle model evaluated at many parameter points
 * (docs/sweep.md). A point is predicted either by a full replay of the trace
 * or, for the LINEAR parameters of model/params.h, from the sufficient
 * statistics of one replay: the unit-cost feature counts of model/cost.h
 * per exit type. The two agree exactly wherever the model's trajectory (TLB
 * outcomes, random draws, where host interrupts land) does not depend on
 * the costs; sweep_eval says for each point whether that holds. */
#ifndef SWEEP_H
#define SWEEP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cost.h"
#include "exits.h"
#include "params.h"
#include "sim_err.h"

/* One point's prediction, in timebase ticks (3.1+ convention: ticks summed,
 * divided when printed). */
typedef struct sweep_totals {
    uint64_t count[EXIT__COUNT]; /* charged samples per row */
    uint64_t sum[EXIT__COUNT];   /* ticks per row */
    uint64_t total;              /* traced duration: sum of all rows */
    uint64_t tb_per_usec;        /* the trace's timebase ticks per usec */
    bool exact;     /* equals `sim replay --model --accounting 3.1` at the point */
    bool replayed;  /* came from its own replay */
} sweep_totals;

/* Sufficient statistics of one replay (the "base" trajectory). */
typedef struct sweep_base {
    params p;                 /* the parameters replayed */
    sweep_totals at;          /* the replay's own prediction */
    uint64_t feat[EXIT__COUNT][CFEAT__COUNT];
    double unit[EXIT__COUNT][CFEAT__COUNT]; /* unit cycles at p */
    bool ticks_are_cycles; /* timebase = core clock and nothing capped */
    bool time_coupled;  /* host arrivals in simulated time, or EMUL_WAIT */
    bool guest_coupled; /* modelled guest intervals feed D-cache decay */
} sweep_base;

typedef struct sweep_replay_opts {
    cost_guest_mode guest;
    /* a what-if chain (`sim whatif --transform`, model/whatif.h): the
     * prediction of the transformed trace instead of a plain replay; no
     * sufficient statistics (b must be NULL). NULL: none. */
    const char *transform;
    /* progress of the replay (records done / total), may be NULL */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} sweep_replay_opts;

/* Replays trace at p (model costs, ticks). With b, also gathers the
 * sufficient statistics into *b (b->at = *out). */
SIM_MUST_CHECK sim_err sweep_replay(const char *trace, const params *p,
                                    const sweep_replay_opts *o, sweep_base *b,
                                    sweep_totals *out);

/* Evaluates q from b. Every stateful parameter of q must equal b's
 * (SIM_ERR_USAGE otherwise). out->exact tells whether a replay at q would
 * give the same numbers; when it is false the result is the first-order
 * prediction on b's trajectory (same arrivals, draws and TLB outcomes). */
SIM_MUST_CHECK sim_err sweep_eval(const sweep_base *b, const params *q,
                                  sweep_totals *out);

/* ---- plans: the points of a sweep ---- */
#define SWEEP_MAX_AXES 16
/* values of one LO:HI:STEP axis, refused above this before they are
 * allocated (80 MB); a grid's points are limited by --max-points */
#define SWEEP_MAX_AXIS_VALUES 10000000

typedef struct sweep_axis {
    param_id id;
    bool range;      /* LO:HI[:STEP] given (lists: false) */
    double lo, hi, step; /* step 0: range without a step (LHS only) */
    size_t n;        /* values (grid) */
    double *values;
} sweep_axis;

typedef struct sweep_plan {
    int naxes;
    sweep_axis axes[SWEEP_MAX_AXES];
    size_t npoints;
    double *values; /* npoints x naxes, row-major */
} sweep_plan;

/* Adds an axis from "NAME=LO:HI:STEP", "NAME=LO:HI" (LHS only) or
 * "NAME=v1,v2,...". Unknown names (with the nearest one), LO > HI,
 * STEP <= 0, more than SWEEP_MAX_AXIS_VALUES values, values outside the
 * parameter's range or not whole for an integer parameter: SIM_ERR_USAGE
 * with the reason. */
SIM_MUST_CHECK sim_err sweep_plan_axis(sweep_plan *pl, const char *spec);
/* The points: the full grid (first axis slowest), or with samples > 0 a
 * Latin hypercube of that many points over the axes' [LO, HI] (GSL
 * mt19937 seeded with seed; integer parameters rounded). Fails with
 * SIM_ERR_USAGE if there would be more than max_points. */
SIM_MUST_CHECK sim_err sweep_plan_points(sweep_plan *pl, uint64_t samples,
                                         unsigned long seed,
                                         uint64_t max_points);
void sweep_plan_free(sweep_plan *pl);
/* The parameters of point i: base with the axes' values set. */
void sweep_plan_params(const sweep_plan *pl, size_t i, const params *base,
                       params *out);

/* ---- running a plan ---- */
typedef enum sweep_method {
    SWEEP_AUTO,   /* sufficient statistics where exact, else a replay */
    SWEEP_LINEAR, /* sufficient statistics for every linear parameter */
    SWEEP_REPLAY, /* one replay per point */
} sweep_method;

typedef struct sweep_run_opts {
    sweep_method method;
    cost_guest_mode guest;
    const char *transform; /* every point replayed through it (whatif) */
    unsigned threads;   /* workers (>= 1) */
    unsigned rank, nranks; /* this process's share: tasks i % nranks == rank */
    volatile sig_atomic_t *stop; /* set (by a signal) to stop early; may be
                                    NULL */
    /* tasks (replays) done / total, from worker threads under a lock */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} sweep_run_opts;

/* Predicts every point of pl at base + the point's values. done[i] is set
 * for the points finished (all of them unless stopped). Deterministic:
 * the same results whatever the thread and rank counts. Points that share
 * their stateful values share one base replay. */
SIM_MUST_CHECK sim_err sweep_run(const char *trace, const params *base,
                                 const sweep_plan *pl,
                                 const sweep_run_opts *o, sweep_totals *out,
                                 unsigned char *done);

/* Calls fn(ctx, i) for i in 0..n-1 on `threads` threads (each i once, in
 * no particular order); stops handing out work once *stop is set. */
void sweep_parallel(size_t n, unsigned threads,
                    void (*fn)(void *ctx, size_t i), void *ctx,
                    volatile sig_atomic_t *stop);

#endif
