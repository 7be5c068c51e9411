/* synth: synthetic exit traces with measured ticks, whose exit mix and
 * per-type tick distributions follow a profile (an exit-timing table: count
 * shares, min, avg, stddev, max per type). For tests, benchmarks and demos;
 * a synthetic trace is never evidence about real hardware. */
#ifndef SYNTH_H
#define SYNTH_H

#include <stdint.h>

#include "exits.h"
#include "sim_err.h"
#include "table.h"

typedef struct synth_dist {
    double min, avg, sd, max; /* usec, as the table printed them */
} synth_dist;

typedef struct synth_profile {
    char name[64];
    double weight[EXIT__COUNT];    /* exit-mix share (count); 0 = never */
    synth_dist dist[EXIT__COUNT];  /* handler time per type; TIMEINGUEST:
                                      guest time between exits */
} synth_profile;

/* From a table: weights = exit counts, distributions from min/avg/stddev/max.
 * Needs a TIMEINGUEST row and at least one exit row. */
SIM_MUST_CHECK sim_err synth_profile_from_table(synth_profile *p,
                                                const table *t,
                                                const char *name);
/* The built-in default: the seed's no-PV table (validation/hw). */
SIM_MUST_CHECK sim_err synth_profile_default(synth_profile *p);

typedef struct synth_opts {
    uint64_t exits;   /* number of exit records, >= 1 */
    uint64_t seed;
    uint64_t tb_hz;   /* default 667 MHz (a 440EPx; tb = core clock) */
    uint64_t core_hz;
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} synth_opts;

/* Writes the trace (temporary name, renamed when complete). Deterministic:
 * same profile, options and seed give the same bytes. */
SIM_MUST_CHECK sim_err synth_write(const char *path, const synth_profile *p,
                                   const synth_opts *o);

#endif
