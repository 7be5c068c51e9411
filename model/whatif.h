/* whatif: predict the exit-timing table after an optimization
 * (docs/whatif.md). A transform changes the workload or the kernel the way
 * the real change would (instruction words patched into loads/stores, exits
 * removed or inserted, UTLB slots added, a path shortened); the model then
 * re-derives everything downstream in one lockstep pass over the trace:
 *   - the baseline: the trace through the cycle model exactly as `sim replay
 *     --model` costs it (same hook, same ticks);
 *   - the prediction: the transformed exit stream through a second model
 *     with the transformed parameters. A removed exit hands its guest run
 *     (plus what replaces it in the guest) to the run around it; a VIRT TLB
 *     miss of the trace is dropped when the prediction's soft TLB still holds
 *     the page while the baseline's had lost it (fewer exits, fewer host
 *     fills, fewer evictions), unless a miss is owed (one to a page the
 *     baseline's holds and the prediction's lost); time-driven exits (DEC,
 *     EXTINT) keep their place in guest time, so their number follows the
 *     predicted guest time; SIGNAL exits follow the workload and stay.
 * One file per transform (model/xf_<name>.c), registered in one table in
 * whatif.c. */
#ifndef WHATIF_H
#define WHATIF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cost.h"
#include "exitprof.h"
#include "insnprof.h"
#include "params.h"
#include "replay.h"
#include "sim_err.h"
#include "stats.h"
#include "trace.h"

/* ---- what a transform sees and does (model/xf_*.c) ---- */

/* The engine's side of one prediction, for a transform's hooks. */
typedef struct whatif_env whatif_env;

/* One exit of the trace as the transform chain passes it on. */
typedef struct xf_exit {
    trace_rec rec;        /* may be changed (type, inst ...) */
    bool removed;         /* the exit no longer happens */
    uint64_t guest_extra; /* removed: guest cycles of what replaces it
                             (the load/store, the template's path) */
    bool magic_access;    /* removed: the guest touches the magic page here
                             (a DTLBPV exit if its shadow entry is gone) */
} xf_exit;

typedef struct xf_ops {
    const char *name;    /* as given to --transform */
    const char *options; /* "" or e.g. "template-bytes=N,hcalls=N" */
    const char *summary; /* one line for --help and errors */
    /* Parses the options after "name:" (or "name=" for a value-only
     * transform; NULL when none were given) into *state. Errors name the
     * option and the valid ones: SIM_ERR_USAGE. */
    sim_err (*parse)(void **state, const char *opts);
    /* The kernel change, as parameters of the predicting model (may be
     * NULL). */
    sim_err (*params)(void *state, params *p);
    /* The kernel change as a policy of the predicting model (may be NULL):
     * called once after it is built. */
    void (*model)(void *state, cost_model *m);
    /* A first pass over the trace's exits before the prediction, for a
     * transform that must see the whole workload first (the kernel patches
     * its text in address order); NULL, or returns false, when not needed. */
    bool (*prescan_needed)(const void *state);
    void (*prescan)(void *state, const trace_rec *r);
    /* After each prescan pass; true asks for one more pass (may be NULL). */
    bool (*prescan_end)(void *state);
    /* Before the first record: may insert exits (whatif_env_insert). */
    void (*begin)(void *state, whatif_env *env);
    /* Each workload exit of the trace (time-driven exits are the engine's):
     * may change or remove it, or insert exits before it. */
    void (*exit)(void *state, whatif_env *env, xf_exit *x);
    /* Counters for the report: one line, or nothing. */
    void (*report)(const void *state, FILE *f);
    /* A file the transform reads (pv:sites=FILE), or NULL (may be NULL):
     * no output of the command may replace it. */
    const char *(*input)(const void *state);
    void (*free)(void *state);
} xf_ops;

/* The parse of a transform without options: *state = NULL; anything given
 * after its name is a usage error naming it. */
SIM_MUST_CHECK sim_err xf_parse_none(const char *name, void **state,
                                     const char *opts);

/* The exit of `type` inserted into the predicted stream now, costed by the
 * predicting model (no guest instructions of its own: the guest run it
 * interrupts continues after it). rec->pc/addr/inst/flags describe it. */
void whatif_env_insert(whatif_env *env, const trace_rec *rec);
/* An exit that repeats a record of the trace (its guest run as the trace
 * gives it, priced by the predicting model like any trace record). */
void whatif_env_repeat(whatif_env *env, const trace_rec *rec);
/* Whether the predicting model's UTLB holds the page of a VIRT miss
 * record (ITLBVIRT/DTLBVIRT: its shadow entry), i.e. whether repeating or
 * inserting that miss now would not trap. */
bool whatif_env_holds(whatif_env *env, const trace_rec *rec);
/* A record of the trace that no longer traps when repeated (a patched
 * instruction): its guest run plus guest_extra cycles go to the guest,
 * and a magic-page access maps the page again (DTLBPV) when its shadow
 * entry is gone - what happens to a removed exit of the trace. */
void whatif_env_run_on(whatif_env *env, const trace_rec *rec,
                       uint64_t guest_extra, bool magic_access);
/* Guest instructions the transform adds where the prediction is now (the
 * kernel's own work between two exits, e.g. pv's scan of its text): the
 * run after the last exit grows by insns x guest_cpi cycles, plus the
 * refills the longer run needs (cost_refill_growth), as a removed exit's
 * run does. Returns the cycles added. Called from a transform's hook, the
 * time is kept off the guest ticks' clock (docs/whatif.md). */
uint64_t whatif_env_guest(whatif_env *env, uint64_t insns);
/* The predicting model (its soft TLB decides residency; its parameters). */
cost_model *whatif_env_model(whatif_env *env);
/* The predicted time in core cycles since the first exit. */
uint64_t whatif_env_now(const whatif_env *env);

/* ---- the chain ---- */

typedef struct whatif_chain whatif_chain;

/* Parses "pv,no-iccci,tlb-slots=48,pv:template-bytes=65536" (comma-
 * separated; a transform's own options after ':' are separated by ':').
 * Unknown names, repeated transforms and bad values: SIM_ERR_USAGE with the
 * valid names and options in the message. */
SIM_MUST_CHECK sim_err whatif_chain_parse(whatif_chain **c, const char *spec);
void whatif_chain_free(whatif_chain *c);
/* The canonical spelling ("pv,no-iccci"). */
const char *whatif_chain_name(const whatif_chain *c);
/* The k-th file the chain's transforms read (pv:sites=FILE), from k = 0;
 * NULL past the last. A command checks its outputs against each. */
const char *whatif_chain_input(const whatif_chain *c, unsigned k);
/* Every transform, one per line: "  name[:options]  summary". */
void whatif_list(FILE *f);

/* ---- a prediction ---- */

typedef struct whatif_opts {
    stats_unit unit;
    /* The SystemC timed platform prices the transformed stream (a temporary
     * trace file in tmp_dir) instead of the direct path. */
    bool systemc;
    const char *tmp_dir; /* NULL: $TMPDIR or /tmp */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    /* The guest's wall-time-driven exits (docs/whatif.md): per type, the
     * rates of this profile (exitprof.wall); NULL: the rule is off. */
    const exitprof *wall;
    /* Called once at the end of a successful prediction with the two
     * models that priced the baseline and the prediction (the direct
     * path's, or on the SystemC platform the platform's), before they are
     * freed: their stages (`sim whatif --stages`). NULL: not called. */
    void (*models)(void *ctx, const cost_model *base, const cost_model *pred);
    void *models_ctx;
    /* `sim whatif --by-insn`: each side's emulation exits by instruction
     * (insnprof.h), initialised here; NULL: not kept. Direct path only. */
    insnprof *by_insn_base, *by_insn_pred;
} whatif_opts;

typedef struct whatif_result {
    trace_header header;
    uint64_t records;
    uint64_t base_exits, pred_exits; /* exits accounted on each side */
    uint64_t removed;                /* workload exits removed */
    uint64_t inserted;               /* exits inserted (DTLBPV, HCALL ...) */
    uint64_t misses_rederived;       /* VIRT misses dropped: page still
                                        resident in the prediction */
    uint64_t misses_unexplained;     /* VIRT misses the baseline's own soft
                                        TLB held (kept as workload-driven) */
    uint64_t misses_lost_pred;       /* of those, the prediction's had lost
                                        the page: a miss owed */
    uint64_t misses_kept_owed;       /* VIRT misses the prediction's soft
                                        TLB holds, kept against one owed */
    uint64_t misses_owed_left;       /* owed at the end: misses the
                                        prediction would add, not added */
    uint64_t misses_pc_inserted;     /* ITLBVIRT misses inserted at an
                                        exit's pc whose page the
                                        prediction's soft TLB lost and the
                                        baseline's holds */
    uint64_t misses_pc_credit;       /* exits' pcs whose page the
                                        prediction's holds and the
                                        baseline's lost: credits */
    uint64_t misses_pc_credit_used;  /* insertions a credit stood for */
    uint64_t timed_trace, timed_pred; /* DEC+EXTINT: the trace's, the
                                         prediction's; on the SystemC
                                         platform DEC+EXTINT+SIGNAL made by
                                         the platform: baseline, predicted */
    /* the wall-time rule: exits of the trace dropped (the prediction ran
     * shorter: fewer guest ticks) or repeated (longer), per type; and how
     * much shorter the prediction ran at the end, in seconds, on the
     * ticks' clock (without the work the transforms inserted) */
    uint64_t wall_removed[EXIT__COUNT], wall_added[EXIT__COUNT];
    double wall_gain;
    /* the guest time of the removed exits (docs/whatif.md, "Run length"),
     * timebase ticks: what their entries took with them (the baseline's
     * interval after each, less what was handed on: stub, tail and the
     * refills the longer run does not need), what was handed on to the run
     * before (the removed run and the refills it still needs) and the
     * patched code added there (loads, stores, templates); gone_n: the
     * removed exits the baseline priced (those of the trace) */
    uint64_t guest_gone, guest_handed, guest_added, gone_n;
    /* the baseline's guest intervals and those shorter than one usec, which
     * 2.6.29's per-sample truncation books as 0 (docs/tables.md) */
    uint64_t base_intervals, base_sub_usec;
    stats_unit unit; /* the accounting the tables were made with */
} whatif_result;

/* Predicts the table of the trace at path after chain c, with parameters p
 * (the baseline uses p unchanged). base and pred are initialised here. The
 * chain's counters are reported by whatif_chain_report. */
SIM_MUST_CHECK sim_err whatif_run(const char *path, whatif_chain *c,
                                  const params *p, const whatif_opts *o,
                                  stats *base, stats *pred,
                                  whatif_result *res);
/* The guest time of the removed exits after whatif_run, one line without
 * its newline into buf (n bytes): what their entries took with them, what
 * went to the runs before, and the share of the baseline's guest intervals
 * under one usec (docs/whatif.md, "Run length"). */
void whatif_guest_line(char *buf, size_t n, const whatif_result *r);
/* The transforms' own counters after whatif_run, one line each. */
void whatif_chain_report(const whatif_chain *c, FILE *f);

#endif
