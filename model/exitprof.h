/* exitprof: an exit profile - the per-exit details of a recorded run that a
 * table does not carry (docs/calibration.md, "A trace for a table nobody
 * traced"): per exit type, the instruction words of its exits, the share
 * in problem state, the pages its misses and faults touch (with, per page,
 * the exits in problem state: mode and page go together); the guest TLB
 * writes in order; the guest run lengths (instructions between exits).
 * Built by `sim trace profile` from a plain cpu440 recording (one tick per
 * guest instruction), kept as a small text file, read by `sim trace synth
 * --like` to dress a table's exit counts in those details. */
#ifndef EXITPROF_H
#define EXITPROF_H

#include <stdint.h>
#include <stdio.h>

#include "exits.h"
#include "sim_err.h"

#define XP_MAX_WORDS 64   /* instruction words kept per type */
#define XP_MAX_PAGES 256  /* pages kept per type */
#define XP_MAX_GTLB 4096  /* guest TLB writes kept */
#define XP_RUNQ 101       /* run-length quantiles 0, 1/100, ..., 1 */
#define XP_MAX_WALL 8     /* recordings the wall-time rates come from */
#define XP_MAX_SEQ 16     /* refill-handler sequences kept per miss type */
#define XP_SEQ_LEN 32     /* emulated exits of one kept sequence, at most */

/* One recording of the wall-time fit: its simulated duration, the guest's
 * decrementer ticks in it (its mtspr TSR exits) and its exits. */
typedef struct xp_wallrun {
    double seconds;
    uint64_t ticks, exits;
} xp_wallrun;

typedef struct xp_value {
    uint32_t v;      /* an instruction word or a page address */
    uint64_t count;
    uint64_t pr;     /* pages: how many of count were in problem state
                        (MSR[PR]=1): mode and page are drawn together */
} xp_value;

typedef struct xp_gtlb {
    uint8_t index, tid;
    uint32_t w0, w1, w2;
} xp_gtlb;

/* The emulated exits of one guest TLB-miss handler, from the delivered miss
 * (ITLBREAL, DTLBREAL) to its rfi, in order, and how many misses ran it. */
typedef struct xp_seq {
    uint64_t count;
    int len;
    uint8_t type[XP_SEQ_LEN];
    uint32_t word[XP_SEQ_LEN];
} xp_seq;

typedef struct exitprof {
    char name[32];
    char source[200];  /* how it was made */
    char assumes[200]; /* what using it assumes */
    uint64_t exits;
    uint64_t count[EXIT__COUNT], pr[EXIT__COUNT];
    int nword[EXIT__COUNT];
    xp_value word[EXIT__COUNT][XP_MAX_WORDS];
    int npage[EXIT__COUNT];
    xp_value page[EXIT__COUNT][XP_MAX_PAGES];
    int ngtlb;
    xp_gtlb gtlb[XP_MAX_GTLB];
    double runq[XP_RUNQ]; /* guest instructions after an entry */
    /* The guest's TLB-refill handlers (docs/calibration.md, "The guest's
     * refill handler"): per delivered miss type (ITLBREAL, DTLBREAL), the
     * most frequent emulated-exit sequences from the miss to the handler's
     * rfi. Misses whose handler left the leaf path (another delivered
     * exception, or more than XP_SEQ_LEN emulations before the rfi) or
     * whose sequence is not among the kept ones have none: count[t] less
     * the kept sequences' counts. */
    int nseq[EXIT__COUNT];
    xp_seq seq[EXIT__COUNT][XP_MAX_SEQ];
    /* The guest's wall-time-driven exits (docs/calibration.md): per type,
     * exits per second of wall time, the slope of its count on the run's
     * duration over nwall cycle-model recordings at several exit costs
     * (0: none, or a slope that is not positive). wall_hz: the guest's
     * decrementer ticks per second of the first recording. */
    int nwall;
    xp_wallrun wallrun[XP_MAX_WALL];
    double wall_hz;
    double wall[EXIT__COUNT];
    char workload[32]; /* the base recording's (not written) */
} exitprof;

/* From a trace written by a plain `sim record` (cpu440, flat costs: its
 * guest ticks are guest instructions); other traces are refused. */
SIM_MUST_CHECK sim_err exitprof_build(exitprof *p, const char *trace,
                                      const char *name, const char *source,
                                      const char *assumes);
/* The wall-time rates from n (3..XP_MAX_WALL) recordings of the same
 * workload as the base, made with the cycle model (`sim record --model`)
 * at different exit costs and no host noise: per exit type other than the
 * host-time-driven ones (EXF_TIMED), the least-squares slope of its count
 * on the simulated duration (gsl_fit_linear), 0 unless it is above zero
 * at the 95% level (two-sided t, n - 2 degrees of freedom). Recordings
 * all of one duration, or of another workload: SIM_ERR_FORMAT. */
SIM_MUST_CHECK sim_err exitprof_wall(exitprof *p, const char *const *traces,
                                     int n);
/* The slope of y on x over n points (least squares) and its standard
 * error from the scatter about the line, for exitprof_wall;
 * SIM_ERR_FORMAT when the x do not differ. */
SIM_MUST_CHECK sim_err exitprof_slope(const double *x, const double *y,
                                      int n, double *slope, double *se);
void exitprof_write(FILE *f, const exitprof *p);
/* Parses the text form; errors name "name:line". */
SIM_MUST_CHECK sim_err exitprof_parse(exitprof *p, const char *text,
                                      size_t len, const char *name);

/* The profiles built into sim (the .prof files of workloads/profiles). */
int exitprof_builtin_count(void);
const char *exitprof_builtin_name(int i);
/* A built-in profile by name, else the file at `name_or_path`. */
SIM_MUST_CHECK sim_err exitprof_load(exitprof *p, const char *name_or_path);
/* The default profile's name. */
const char *exitprof_default_name(void);
/* The built-in profile a trace was made from, NULL when none is known: a
 * `sim trace synth --like` trace's (workload "like:NAME"), or a `sim
 * record` trace's own workload when a built-in profile has its name. */
const char *exitprof_of_trace(unsigned source, const char *workload);

#endif
