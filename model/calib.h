/* calib: fits cycle-model parameters so that replaying a trace through the
 * model reproduces a hardware exit-timing table row by row
 * (docs/calibration.md). Objective: relative errors of avg, stddev and min
 * of every row both have, weighted by the row's share of the traced time
 * and, avg and stddev, by how noisy each is (a row's count, spread and
 * most extreme exit, in the table and in the model's replay);
 * GSL gsl_multifit_nlinear (trust region) in a logistic transform of each
 * parameter's range; Jacobian by finite differences with the model's seed
 * fixed (common random numbers), its columns spread over threads (the
 * result does not depend on how many). Identifiability from the Jacobian at
 * the start: parameters without effect and those collinear with others
 * (pivoted QR, singular values) are held at their start values. Counts are
 * never fitted: they come from the trace. */
#ifndef CALIB_H
#define CALIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "params.h"
#include "sim_err.h"
#include "stats.h"
#include "table.h"

/* What became of a candidate parameter. */
typedef enum calib_state {
    CALIB_FITTED,
    CALIB_UNSEEN,    /* no effect on any residual: held */
    CALIB_COLLINEAR, /* its effect is (nearly) that of fitted ones: held */
} calib_state;

typedef struct calib_param {
    param_id id;
    double start, value, sigma; /* sigma: 1-sigma, NAN if not estimable */
    double lo, hi;              /* the range fitted over */
    calib_state state;
    char why[120]; /* for held ones: what it is collinear with */
    bool first_round; /* fitted in the first round, held in the second
                         (calib_result.round2): its value is the first
                         round's, not the start's */
} calib_param;

typedef struct calib_row {
    bool used;                   /* in the objective */
    uint64_t count_hw, count_trace; /* count_trace: the whole trace's */
    double mix_hw, mix_trace;    /* count shares of all exits */
    double time_share;           /* hw sum / traced duration */
    double weight;               /* sqrt(max(time_share, CALIB_MIN_SHARE)) */
    double avg_hw, sd_hw, min_hw, sum_hw;
    double avg0, sd0, min0;      /* model at the start */
    double avg, sd, min, sum;    /* model at the result; sum = avg x the
                                    trace's count scaled to hw's exits */
    double avg_full, sum_full;   /* whole trace at the result (when the fit
                                    used a subsample), else NAN */
    /* how noisy the row's residuals are (docs/calibration.md, "How noisy
     * each residual is"): the share of the table's squared deviations its
     * most extreme exit carries; the 1-sigma of the avg residual and of
     * the stddev's log ratio it implies, the model's replay taken as
     * another draw of the table's distribution over the trace's exits;
     * the factors (<= 1) the two residuals' weights are multiplied by */
    double xshare_hw;
    double sigma_avg, sigma_sd;
    double g_avg, g_sd;
} calib_row;

/* A row as a sample: exits, avg, stddev, min and max (usec). */
typedef struct calib_sample {
    double n, avg, sd, min, max;
} calib_sample;

/* The share of a row's squared deviations its most extreme exit carries:
 * max(max - avg, avg - min)^2 / (n sd^2), in [0, 1]; 0 for a row without
 * spread or without a known max and min. */
double calib_extreme_share(const calib_sample *s);

/* The 1-sigmas of a row's two spread-driven residuals, the table (hw)
 * and the model's replay (m) each a draw (the fit passes the table's row
 * with the trace's count as m: the hypothesis that both are draws of one
 * distribution): the avg's relative error, sqrt(sd_hw^2 / n_hw +
 * sd_m^2 / n_m) / avg_hw, and the stddev's log ratio, 0.5 sqrt(f_hw +
 * f_m) with f the extreme shares (a bound on the squared deviations' own
 * relative spread); then the factors 1 / sqrt(1 + (sigma / tau)^2) of
 * their weights, tau CALIB_TAU_AVG and CALIB_TAU_SD. */
void calib_noise(const calib_sample *hw, const calib_sample *m,
                 double *sigma_avg, double *sigma_sd, double *g_avg,
                 double *g_sd);

#define CALIB_MIN_SHARE 1e-4
#define CALIB_W_SD 0.25 /* stddev (log ratio) residual weight relative to avg */
#define CALIB_W_MIN 0.25 /* min residual weight relative to avg */
#define CALIB_SD_FLOOR 0.5 /* usec added to both stddevs in their log ratio */
/* The error a row's avg is fitted to when the table carries it precisely
 * (relative); the stddev's log ratio's is CALIB_TAU_AVG / CALIB_W_SD, so a
 * noise-free row keeps the weights above. A residual whose own 1-sigma is
 * sigma counts 1 / sqrt(1 + (sigma / tau)^2) of that. */
#define CALIB_TAU_AVG 0.01
#define CALIB_TAU_SD (CALIB_TAU_AVG / CALIB_W_SD)

/* The PPC440 issues at most two instructions a cycle (docs/kvm440.md,
 * "Pipeline"): a fitted `cpi` or `guest_cpi` below this is no 440's, and
 * the calibration says so (calib_write_round). */
#define CALIB_CPI_FLOOR 0.5

typedef struct calib_opts {
    bool fit[PARAM__COUNT];         /* candidates */
    double lo[PARAM__COUNT], hi[PARAM__COUNT];
    uint64_t subsample;  /* exits the fit replays (0 = all); spread over
                            CALIB_BLOCKS blocks of consecutive records */
    unsigned threads;    /* >= 1 */
    unsigned max_iter;
    double rank_tol;     /* relative |R_ii| (pivoted QR) below which a
                            direction is undetermined */
    double fd_step;      /* finite-difference step in the transformed
                            (logit) coordinate */
    stats_unit unit;     /* accounting convention of the table */
    bool full_check;     /* replay the whole trace at the result */
    unsigned refine_iter; /* after a subsample fit: at most this many
                             iterations on the whole trace (0: none) */
    /* a line of progress (no newline), or NULL */
    void (*progress)(void *ctx, const char *line);
    void *progress_ctx;
} calib_opts;

#define CALIB_BLOCKS 64

/* Whether a parameter is a fit candidate by default: its default is an
 * "assumption, to calibrate" and it is a cost, not a setting of the run
 * (seed, guest RAM, guest tick rate) or a count of discrete pages. */
bool calib_default_candidate(param_id id);
/* Defaults: candidates as above, each parameter's declared range, 2M-exit
 * subsample, 2 threads, 40 iterations, rank_tol 1e-2, fd_step 0.05,
 * 2.6.29 usec accounting, full check on. */
void calib_opts_default(calib_opts *o);

typedef struct calib_result {
    params start, fitted;
    int nparam;
    calib_param par[PARAM__COUNT];
    int nfit;
    calib_row row[EXIT__COUNT];
    bool fold_emul; /* the table has one EMULINST row for all emulations */
    int nsv;
    double sv[PARAM__COUNT]; /* singular values of the start Jacobian,
                                relative to the largest */
    char sv_note[4][200];    /* the weakest combinations, in words */
    int nres;
    double cost0, cost;      /* 0.5 * sum of squared residuals */
    /* whole numbers: the fit's own (continuous) point's objective, and
     * the point with each whole-number parameter at its nearest whole
     * value; when that more than doubled the fit's objective, its
     * neighbours were searched (round_note says what was kept; empty:
     * no search) */
    double cost_fit, cost_nearest;
    char round_note[160];
    /* the second identification, at the first fit's point: it picked
     * another set (round2_tried), the fit went on from that point with
     * it, and was kept when its objective was lower (round2); the first
     * round's objective and iterations, the second's objective */
    bool round2_tried, round2;
    double cost_round1, cost_round2;
    unsigned iterations_round1;
    int round2_added, round2_dropped;
    double resvar;           /* chi2 / (residuals - fitted), NAN if <= 0 */
    bool converged;
    char status[120];        /* how the fit ended */
    unsigned iterations, evaluations;
    uint64_t trace_exits, fit_exits, hw_exits;
    double clock_hz;         /* the trace's timebase: the core clock the
                                table's usec are read at (Hz) */
    /* refinement: the subsample stage's exits, iterations, status and
     * total (usec) on the subsample and on the whole trace */
    bool refined;
    uint64_t sub_exits;
    unsigned sub_iterations;
    char sub_status[120];
    double sub_total, sub_total_full;
    double total_hw, total, total_full; /* usec, scaled to hw's exits */
    bool total_handled; /* the table has neither a traced duration nor a
                           TIMEINGUEST row (perf): totals are the handled
                           time, the model's guest time left out */
    double guest_from_trace;            /* fraction of exits */
    /* correlations of the fitted parameters' estimates, by par[] index
     * (the linearised covariance of the last fit; 0 where unknown) */
    double corr[PARAM__COUNT][PARAM__COUNT];
} calib_result;

/* Runs the calibration of `start` against hw on the trace at path. Errors
 * (exit code 2): unreadable trace, a trace without exits, no row in common
 * with the table, a range that excludes the start value, no candidate. A
 * fit that stops without converging is SIM_OK with r->converged false (the
 * best point is in r->fitted). */
SIM_MUST_CHECK sim_err calib_run(const char *path, const table *hw,
                                 const params *start, const calib_opts *o,
                                 calib_result *r);

/* Per-row mix of the trace against the table (before fitting). */
void calib_write_mix(FILE *f, const calib_result *r);
/* Identifiability, fitted values with 1-sigma and start, per-row measured
 * vs fitted, totals. */
void calib_write_report(FILE *f, const calib_result *r);
/* The residual variance, or "n/a (...)" when there is none (nothing
 * fitted, no degrees of freedom): never a bare "nan". */
void calib_write_resvar(FILE *f, const calib_result *r);
/* Lines (each prefixed with `pfx`, under 200 characters: an INI comment)
 * about the whole-number search, a fitted point worse than its start and
 * a fitted cycles-per-instruction below the 440's dual-issue floor
 * (CALIB_CPI_FLOOR); nothing when none applies. */
void calib_write_round(FILE *f, const char *pfx, const calib_result *r);

/* The points of the total's error (percent of the table's total) the rows
 * the fit gives no weight (a table's own EMUL_WAIT row: the guest's idle
 * phase) carry, at the fitted point; 0 without such a row. */
double calib_unfitted_points(const calib_result *r);

/* One line, pfx first, naming each row not fitted with its points of the
 * total's error and the fitted rows' part ("not fitted: EMUL_WAIT -4.57
 * points of the total ...; the fitted rows -0.13%"); nothing without such
 * a row. The parameters file carries it (sim validate reads it). */
void calib_write_unfitted(FILE *f, const char *pfx, const calib_result *r);
/* `name = value` lines of every fitted parameter (the header is the
 * caller's); whole-number parameters are whole. */
void calib_write_values(FILE *f, const calib_result *r);

/* The calibration's own objective at any parameter point, for re-checking
 * draws of a fitted point against the table it was fitted to
 * (docs/calibration.md, "Draws of the fitted point"): the same rows,
 * weights and residuals as calib_run, replayed over the WHOLE trace (the
 * records the fit's last stage, the refinement, minimises over; a fit
 * left at its subsample stage minimised a subsample's). The table is
 * copied; errors as calib_run's (unreadable trace, no exits, no row in
 * common). */
typedef struct calib_objective calib_objective;
SIM_MUST_CHECK sim_err calib_objective_open(calib_objective **ob,
                                            const char *trace,
                                            const table *hw, stats_unit unit);
/* *cost = 0.5 x the sum of the squared weighted residuals at p, as
 * calib_result's cost. */
SIM_MUST_CHECK sim_err calib_objective_at(calib_objective *ob,
                                          const params *p, double *cost);
/* The residuals in it (3 per row used). */
int calib_objective_nres(const calib_objective *ob);
void calib_objective_close(calib_objective *ob);

#endif
