/* stats: CONFIG_KVM_EXIT_TIMING reproduced (arch/powerpc/kvm/timing.c).
 * An exit's type is charged from that exit to the next guest entry, and
 * TIMEINGUEST from the entry to the next exit; both are booked at the next
 * exit, so the last exit of a run is never charged and the first incomplete
 * cycle is skipped (the kernel's 0xDEAD marker). Two unit conventions:
 *   STATS_USEC  2.6.29-2.6.37: each sample truncated to whole usec first;
 *   STATS_TICKS 3.1+: ticks accumulated, divided when printed. */
#ifndef STATS_H
#define STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exits.h"
#include "sim_err.h"
#include "table.h"

typedef enum stats_unit { STATS_USEC, STATS_TICKS } stats_unit;
const char *stats_unit_name(stats_unit u); /* "usec" / "ticks" */

typedef unsigned __int128 stats_u128;

typedef struct stats_row {
    uint64_t count;
    uint64_t min; /* UINT64_MAX when count == 0 */
    uint64_t max;
    uint64_t sum;
    stats_u128 sum_sq; /* 128 bits: no overflow for billions of exits */
} stats_row;

typedef struct stats {
    stats_unit unit;
    uint64_t tb_hz;
    uint64_t tb_per_usec; /* tb_hz / 1e6, >= 1 */
    double inv_tb_per_usec; /* 1.0 / tb_per_usec */
    stats_row rows[EXIT__COUNT];
    /* the kernel's bookkeeping */
    int last_type; /* -1 = 0xDEAD: nothing to charge yet */
    uint64_t last_exit, last_enter;
    /* invariants */
    uint64_t exits;        /* stats_exit calls */
    uint64_t entries;      /* stats_enter calls */
    uint64_t first_exit, last_exit_tb;
    uint64_t order_errors; /* an entry before its exit, time going back */
    uint64_t first_order_error_index;
    bool in_guest; /* last event was an entry */
} stats;

void stats_init(stats *s, stats_unit unit, uint64_t tb_hz);

/* ticks / tb_per_usec, exactly, without a 64-bit divide on the hot path:
 * a multiply by the reciprocal is off by at most one, then corrected. */
static inline uint64_t stats_ticks_to_usec(const stats *s, uint64_t ticks)
{
    uint64_t d = s->tb_per_usec;
    uint64_t q = (uint64_t)((double)ticks * s->inv_tb_per_usec);
    if (q * d > ticks)
        q--;
    else if ((q + 1) * d <= ticks)
        q++;
    return q;
}

/* One sample of `ticks` for row `type`, in the stats' unit. */
static inline void stats_row_add(stats_row *r, uint64_t v)
{
    r->count++;
    r->sum += v;
    r->sum_sq += (stats_u128)v * v;
    /* new extremes are rare: a branch, not a store every sample */
    if (__builtin_expect(v < r->min, 0))
        r->min = v;
    if (__builtin_expect(v > r->max, 0))
        r->max = v;
}

static inline void stats_add(stats *s, int type, uint64_t ticks)
{
    stats_row_add(&s->rows[type], s->unit == STATS_USEC
                                      ? stats_ticks_to_usec(s, ticks)
                                      : ticks);
}

/* A guest exit at timebase tb whose handler will be charged as `type`. */
static inline void stats_exit(stats *s, uint64_t tb, int type)
{
    if (s->exits == 0)
        s->first_exit = tb;
    else if (!s->in_guest || tb < s->last_enter) {
        if (s->order_errors++ == 0)
            s->first_order_error_index = s->exits;
    }
    if (s->last_type >= 0 && s->in_guest && tb >= s->last_enter) {
        stats_add(s, s->last_type, s->last_enter - s->last_exit);
        stats_add(s, EXIT_TIMEINGUEST, tb - s->last_enter);
    }
    s->last_exit = tb;
    s->last_exit_tb = tb;
    s->last_type = type;
    s->exits++;
    s->in_guest = false;
}

/* The guest entered at timebase tb (end of the current exit's handling). */
static inline void stats_enter(stats *s, uint64_t tb)
{
    if (s->in_guest || tb < s->last_exit) {
        if (s->order_errors++ == 0)
            s->first_order_error_index = s->exits;
    }
    s->last_enter = tb;
    s->entries++;
    s->in_guest = true;
}

/* Invariants of the seed's author: every exit charged once (charged exits =
 * exits - 1), guest entries counted = exits charged, sum of all rows =
 * traced duration (exactly in ticks; within one usec per sample in usec
 * mode), events in time order. Prints one line per check to `report` when it
 * is not NULL; SIM_ERR_CHECK if one fails. */
SIM_MUST_CHECK sim_err stats_check(const stats *s, FILE *report);

/* Traced duration covered by the charged samples, in ticks. */
uint64_t stats_traced_ticks(const stats *s);

/* The table as the kernel would print it (usec). */
void stats_to_table(const stats *s, table *t);

#endif
