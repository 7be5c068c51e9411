/* replay: trace -> (cost) -> account. Streams a trace.bin chunk by chunk
 * through the kernel's exit-timing accounting. Ticks the trace does not
 * carry are asked of a cost model; the cycle model plugs in here without
 * changing the caller. */
#ifndef REPLAY_H
#define REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_err.h"
#include "stats.h"
#include "trace.h"

/* A cost model predicts the ticks of an exit (handler: exit -> entry; guest:
 * entry -> next exit). It sees every record, state events included, in
 * trace order, so it can follow TLB and cache state. */
typedef struct replay_cost_model {
    const char *name;
    void *ctx;
    /* Called once with the trace header before the first record. */
    sim_err (*begin)(void *ctx, const trace_header *h);
    /* For exit records: fill *handler and *guest. For state records: update
     * state; the outputs are ignored. */
    sim_err (*cost)(void *ctx, const trace_rec *r, uint32_t *handler,
                    uint32_t *guest);
    /* Optional (NULL: cost is called per record): what n calls of cost
     * would do, for r[0..n), into handler[i] and guest[i]; *done gets the
     * number of records costed (n unless an error stopped it). One call per
     * batch instead of one per record keeps replay's accounting loop free
     * of calls. */
    sim_err (*cost_many)(void *ctx, const trace_rec *r, size_t n,
                         uint32_t *handler, uint32_t *guest, size_t *done);
} replay_cost_model;

typedef enum replay_ticks {
    REPLAY_MEASURED, /* use the trace's ticks; fail if a record lacks them */
    REPLAY_MODEL,    /* predict every exit with the cost model */
} replay_ticks;

typedef struct replay_opts {
    stats_unit unit;
    replay_ticks ticks;
    const replay_cost_model *model; /* required for REPLAY_MODEL */
    /* The rows of a 3.0+ kernel (classify_row_3x): an EMULINST mfspr or
     * mtspr is accounted as EMUL_MFSPR/EMUL_MTSPR; the trace's own rows
     * are 2.6.29-2.6.37's (cpu440's, an import's). */
    bool rows_3x;
    /* Called about every chunk with records done / total (total from the
     * footer, 0 if unknown); may be NULL. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} replay_opts;

typedef struct replay_result {
    trace_header header;
    uint64_t records;
    uint64_t exits;
    uint64_t state_events;
    /* records whose tb disagrees with the previous exit's tb + handler +
     * guest ticks (measured traces only): the trace contradicts itself */
    uint64_t tb_mismatches;
    uint64_t first_tb_mismatch; /* record index */
} replay_result;

/* Replays the trace at path into s (initialised here with the trace's
 * timebase). Errors name the file and record/byte position. */
SIM_MUST_CHECK sim_err replay_file(const char *path, const replay_opts *o,
                                   stats *s, replay_result *res);

#endif
