/* synth: synthetic exit traces with measured ticks, whose exit mix and
 * per-type tick distributions follow a profile (an exit-timing table: count
 * shares, min, avg, stddev, max per type). For tests, benchmarks and demos;
 * a synthetic trace is never evidence about real hardware. */
#ifndef SYNTH_H
#define SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "exits.h"
#include "sim_err.h"
#include "table.h"
#include "trace.h"

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
    /* synth --like: the table is a 3.0+ kernel's, whose EMUL_MFSPR and
     * EMUL_MTSPR rows hold every mfspr/mtspr (2.6.29-2.6.37: only the SPRs
     * that reach the core handlers, as cpu440 records them) */
    bool spr_rows_3x;
    /* synth --like: the guest's tick rate (its HZ), which bounds the idle
     * waits a table's emulation row can hold (a wait lasts to the next
     * tick); 0: no bound, the profile's share */
    double guest_hz;
    /* synth --like: the table is a 3.1+ kernel's, whose accounting sums
     * ticks (2.6.29 truncates every interval to whole usec): how the
     * table booked the guest time the run lengths are sized to */
    bool ticks_summed;
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} synth_opts;

/* Writes the trace (temporary name, renamed when complete). Deterministic:
 * same profile, options and seed give the same bytes. */
SIM_MUST_CHECK sim_err synth_write(const char *path, const synth_profile *p,
                                   const synth_opts *o);

/* ---- a trace for a table nobody traced (sim trace synth --like) ---- */
/* Without a number of exits, synth --like writes the table's own; above
 * this many (a long run's table: billions) that trace would fill a disk
 * (32-byte records, more with the guest TLB writes), so the number must be
 * given (--exits, a case's baseline.exits). */
#define SYNTH_LIKE_MAX_DEFAULT_EXITS 100000000ULL

/* The cost label of a trace synthesised like a table in the folded layout
 * (one EMULINST row for all emulation, before 3.0): its exits keep
 * cpu440's EMUL_* subtypes, which the table had inside EMULINST. */
#define SYNTH_LIKE_FOLDED_LABEL "none (synth --like, folded)"
/* Whether a trace is such a one (its header says so). */
bool synth_like_folded(const trace_header *h);
/* The guest CPIs a fit may take for the profile's guest runs to stand
 * (docs/calibration.md, "Guest run lengths"): from the 440's dual-issue
 * floor to three times the model's default. Outside, the fit would not be
 * estimating a CPI but making up for run lengths the table contradicts. */
#define SYNTH_CPI_LO 0.5
#define SYNTH_CPI_HI 4.5
struct exitprof;
typedef struct synth_like_report {
    uint64_t exits;
    uint64_t count[EXIT__COUNT]; /* exits written per table row */
    bool folded;                 /* the table's EMULINST holds every
                                    emulated instruction (pre-3.0) */
    int nbare;                   /* rows the profile has no detail for */
    exit_type bare[EXIT__COUNT];
    /* emulation rows the profile has exits but no instruction word for
     * (3.0+'s EMULINST when all of the profile's are mfspr/mtspr): their
     * exits are written without one */
    int nwordless;
    exit_type wordless[EXIT__COUNT];
    /* per table row mixing idle waits (EMUL_WAIT, whose time is the
     * guest's idle to its next tick, not a handler's) with other
     * emulations: the waits the profile's share gives the row, the most
     * the row's stddev and sum can hold (INFINITY: no bound), the fewest
     * its time needs (waits_floor, with the cost it assumes of the other
     * emulations, waits_other), and the number written (the share within
     * floor and bound, rounded: a count, not a draw) */
    double waits_share[EXIT__COUNT], waits_bound[EXIT__COUNT];
    double waits_floor[EXIT__COUNT], waits_other[EXIT__COUNT];
    uint64_t waits[EXIT__COUNT];
    /* The guest run lengths (docs/calibration.md, "Guest run lengths"):
     * what the table's TIMEINGUEST row books an interval (usec, avg and
     * stddev), what the profile's runs book at the model's defaults
     * (guest_cpi runs_cpi; avg and stddev) and at either end of the guest
     * CPIs the fit may take (runs_cpi_lo, runs_cpi_hi; avg), how the runs
     * were written (run_scale, run_power: a run v of the profile becomes
     * run_scale x m x (v / m)^run_power, m its mean run) and what they
     * book so (runs_booked, runs_booked_sd). */
    enum {
        SYNTH_RUNS_KEPT,     /* a CPI of the band meets the table */
        SYNTH_RUNS_SCALED,   /* none does: the runs are scaled */
        SYNTH_RUNS_NO_ROW,   /* no TIMEINGUEST avg: the profile's */
        SYNTH_RUNS_ENTRY     /* the entry alone books more than the table */
    } runs;
    double runs_table, runs_table_sd, runs_profile, runs_profile_sd;
    double runs_lo, runs_hi, runs_booked, runs_booked_sd;
    double runs_cpi, runs_cpi_lo, runs_cpi_hi, run_scale, run_power;
    uint64_t gtlb_writes;
    uint64_t handlers;      /* misses whose refill handler wrote exits */
    uint64_t handler_exits; /* the emulated exits those handlers wrote */
    /* the share of misses given a handler (1: all), and when below 1 the
     * row that limits it: its exits (hneed_have) against what the
     * handlers of all misses would take from it (hneed) */
    double handler_share;
    int handler_limit; /* exit type, -1: none */
    double hneed, hneed_have;
} synth_like_report;

/* Writes a trace whose exit counts follow hw's rows exactly (scaled to
 * o->exits; 0 = hw's own number of exits), in a random order, and whose
 * per-exit details come from profile p: instruction words (a table without
 * EMUL_* rows counts every emulated instruction as EMULINST, the pre-3.0
 * taxonomy, so its EMULINST exits draw from all of the profile's emulated
 * exits, each keeping the subtype cpu440 gave it), problem state, pages of
 * misses and faults, the guest TLB writes (one after each tlbwe, in the
 * profile's order), the refill handler after a delivered guest TLB miss
 * (the profile's seq lines: its emulated exits follow the miss, taken out of
 * the emulation rows, whose other exits draw from the words outside the
 * handlers) and the guest run length, in instructions
 * (TRF_GUEST_INSNS: the cycle model times it), scaled when no plausible
 * guest CPI makes the profile's runs book the table's TIMEINGUEST avg
 * (docs/calibration.md, "Guest run lengths"). Idle waits in a row
 * with other emulations (a folded EMULINST) are not drawn one by one: the
 * row gets the profile's share of them as a count, at most what the row's
 * stddev and sum can hold at o->guest_hz (docs/calibration.md), placed at
 * random among the row's exits. No handler or guest ticks.
 * Never reads anything but hw and p. Deterministic in o->seed. */
SIM_MUST_CHECK sim_err synth_like_write(const char *path, const table *hw,
                                        const struct exitprof *p,
                                        const synth_opts *o,
                                        synth_like_report *rep);

#endif
