/* replay: the trace -> cost -> account pipeline. The measured path is the
 * hot loop of `sim replay` (target: > 100 M exits/s), so it works on whole
 * chunks and calls nothing per record but the inline accounting. */
#include "replay.h"

#include <stdlib.h>
#include <string.h>

#include "classify.h"

#define ALL_KNOWN (TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN)

/* Banks of exit rows in the measured fast path: consecutive exits often
 * hit the same row (EMULINST is 64% of the seed's), and each update is a
 * read-modify-write of that row, so one bank serialises them on store-to-load
 * latency (TIMEINGUEST, updated by every exit, most of all). Exit i updates
 * bank i % REPLAY_BANKS; the banks are merged at the end of the chunk
 * (count, sums, min and max all merge exactly). */
#define REPLAY_BANKS 4

static void row_merge(stats_row *into, const stats_row *r)
{
    if (r->count == 0)
        return;
    into->count += r->count;
    into->sum += r->sum;
    into->sum_sq += r->sum_sq;
    if (r->min < into->min)
        into->min = r->min;
    if (r->max > into->max)
        into->max = r->max;
}

/* The kernel's bookkeeping of the stats (stats.h), held in locals while a
 * chunk is accounted: through the stats pointer every row update could
 * alias it and would force reloads (half the time of a 10M-exit replay). */
typedef struct book {
    int last_type;
    uint64_t last_exit, last_enter, exits, entries, order_errors;
    bool in_guest;
} book;

static inline book book_load(const stats *s)
{
    return (book){s->last_type, s->last_exit, s->last_enter, s->exits,
                  s->entries,   s->order_errors, s->in_guest};
}

static inline void book_store(stats *s, const book *b)
{
    s->last_type = b->last_type;
    s->last_exit = s->last_exit_tb = b->last_exit;
    s->last_enter = b->last_enter;
    s->exits = b->exits;
    s->entries = b->entries;
    s->order_errors = b->order_errors;
    s->in_guest = b->in_guest;
}

/* One chunk of a measured trace. Returns the index of the first exit that
 * lacks ticks, or n if all had them.
 *
 * This is stats_exit + stats_enter for a complete cycle, with the kernel's
 * bookkeeping in locals (book). test_replay pins that both paths give the
 * same rows. */
static inline __attribute__((always_inline)) size_t
measured_chunk(stats *s, const trace_rec *recs, size_t n, uint64_t *next_tb,
               replay_result *res, uint64_t base, const bool usec)
{
    stats_row bank[REPLAY_BANKS][EXIT__COUNT];
    for (int b = 0; b < REPLAY_BANKS; b++)
        for (int t = 0; t < EXIT__COUNT; t++)
            bank[b][t] = (stats_row){.min = UINT64_MAX};
    /* TIMEINGUEST, which every exit updates, in registers */
    stats_row guest = {.min = UINT64_MAX};
    book k = book_load(s);
    int last_type = k.last_type;
    uint64_t last_exit = k.last_exit, last_enter = k.last_enter;
    uint64_t exits = k.exits, order_errors = k.order_errors;
    uint64_t expect = *next_tb, nexit = res->exits;
    size_t i;
    for (i = 0; i < n; i++) {
        const trace_rec *r = &recs[i];
        if (r->kind != TREC_EXIT)
            continue;
        if (__builtin_expect((r->flags & ALL_KNOWN) != ALL_KNOWN, 0))
            break;
        uint64_t tb = r->tb;
        if (__builtin_expect(tb != expect, 0) && nexit != 0) {
            if (res->tb_mismatches++ == 0)
                res->first_tb_mismatch = base + i;
        }
        nexit++;
        /* one rare branch for the first exit (nothing to charge: the
         * kernel's 0xDEAD) and for time going back (an order error) */
        if (__builtin_expect(last_type < 0 || tb < last_enter, 0)) {
            if (exits == 0)
                s->first_exit = tb;
            else if (tb < last_enter && order_errors++ == 0)
                s->first_order_error_index = exits;
        } else {
            uint64_t h = last_enter - last_exit, g = tb - last_enter;
            if (usec) {
                h = stats_ticks_to_usec(s, h);
                g = stats_ticks_to_usec(s, g);
            }
            stats_row *b = bank[i % REPLAY_BANKS];
            stats_row_add(&b[last_type], h);
            stats_row_add(&guest, g);
        }
        last_exit = tb;
        last_type = r->type;
        exits++;
        last_enter = tb + r->handler;
        expect = last_enter + r->guest;
    }
    for (int b = 0; b < REPLAY_BANKS; b++)
        for (int t = 0; t < EXIT__COUNT; t++)
            row_merge(&s->rows[t], &bank[b][t]);
    row_merge(&s->rows[EXIT_TIMEINGUEST], &guest);
    uint64_t done = exits - k.exits;
    k = (book){last_type,          last_exit, last_enter, exits,
               k.entries + done,   order_errors,
               k.in_guest || done > 0};
    book_store(s, &k);
    res->exits = nexit;
    *next_tb = expect;
    return i;
}

/* The unit is a constant inside each instance: one test and register less
 * per exit in the hot loop. */
static size_t replay_measured_chunk(stats *s, const trace_rec *recs, size_t n,
                                    uint64_t *next_tb, replay_result *res,
                                    uint64_t base)
{
    if (s->unit == STATS_USEC)
        return measured_chunk(s, recs, n, next_tb, res, base, true);
    return measured_chunk(s, recs, n, next_tb, res, base, false);
}

/* Records per cost_many call: the ticks of a batch fit in L1. */
#define COST_BATCH 256

/* One chunk through a cost model: the timeline is rebuilt from the
 * predicted ticks, starting at the first exit's timebase.
 *
 * stats_exit + stats_enter, with the bookkeeping in locals (book). A
 * rebuilt timeline never goes back, but the order checks stay. */
static sim_err replay_model_chunk(stats *s, const trace_rec *recs, size_t n,
                                  uint64_t *now, const replay_cost_model *m,
                                  replay_result *res)
{
    book k = book_load(s);
    int last_type = k.last_type;
    uint64_t last_exit = k.last_exit, last_enter = k.last_enter;
    uint64_t exits = k.exits, entries = k.entries;
    bool in_guest = k.in_guest;
    uint64_t t = *now, nexit = res->exits;
    sim_err e = SIM_OK;
    uint32_t hs[COST_BATCH], gs[COST_BATCH];
    for (size_t at = 0; at < n && e == SIM_OK; at += COST_BATCH) {
        size_t k = n - at < COST_BATCH ? n - at : COST_BATCH, done = 0;
        if (m->cost_many)
            e = m->cost_many(m->ctx, recs + at, k, hs, gs, &done);
        else
            for (; done < k; done++) {
                hs[done] = gs[done] = 0;
                e = m->cost(m->ctx, &recs[at + done], &hs[done], &gs[done]);
                if (e != SIM_OK)
                    break;
            }
        for (size_t i = 0; i < done; i++) {
            const trace_rec *r = &recs[at + i];
            if (r->kind != TREC_EXIT)
                continue;
            if (nexit == 0)
                t = r->tb;
            nexit++;
            /* stats_exit(s, t, r->type) */
            if (__builtin_expect(exits == 0 || !in_guest || t < last_enter,
                                 0)) {
                if (exits == 0)
                    s->first_exit = t;
                else if (s->order_errors++ == 0)
                    s->first_order_error_index = exits;
            }
            if (__builtin_expect(
                    last_type >= 0 && in_guest && t >= last_enter, 1)) {
                stats_add(s, last_type, last_enter - last_exit);
                stats_add(s, EXIT_TIMEINGUEST, t - last_enter);
            }
            last_exit = t;
            last_type = r->type;
            exits++;
            /* stats_enter(s, t + handler) */
            t += hs[i];
            if (__builtin_expect(t < last_exit, 0) &&
                s->order_errors++ == 0)
                s->first_order_error_index = exits;
            last_enter = t;
            entries++;
            in_guest = true;
            t += gs[i];
        }
    }
    /* (order errors, rare, were counted in s itself) */
    k = (book){last_type, last_exit, last_enter,     exits,
               entries,   s->order_errors, in_guest};
    book_store(s, &k);
    *now = t;
    res->exits = nexit;
    return e;
}

/* One replay_file pass: where the records go. */
typedef struct replay_pass {
    const char *path;
    const replay_opts *o;
    stats *s;
    replay_result *res;
    uint64_t tb; /* the last timebase seen */
    trace_rec *rows; /* rows_3x: the chunk with its rows remapped */
    size_t nrows;
} replay_pass;

static sim_err replay_header(void *ctx, const trace_header *h)
{
    replay_pass *p = ctx;
    p->res->header = *h;
    stats_init(p->s, p->o->unit, h->tb_hz);
    if (p->o->ticks == REPLAY_MODEL && p->o->model->begin)
        return p->o->model->begin(p->o->model->ctx, &p->res->header);
    return SIM_OK;
}

static sim_err replay_chunk(void *ctx, const trace_rec *recs, size_t n)
{
    replay_pass *p = ctx;
    replay_result *res = p->res;
    if (p->o->rows_3x) {
        if (n > p->nrows) {
            trace_rec *b = realloc(p->rows, n * sizeof *b);
            if (!b)
                return sim_fail(SIM_ERR_NOMEM, "replay: out of memory");
            p->rows = b;
            p->nrows = n;
        }
        for (size_t i = 0; i < n; i++) {
            p->rows[i] = recs[i];
            if (recs[i].kind == TREC_EXIT)
                p->rows[i].type = (uint8_t)classify_row_3x(
                    (exit_type)recs[i].type, recs[i].inst);
        }
        recs = p->rows;
    }
    if (p->o->ticks == REPLAY_MEASURED) {
        size_t stop =
            replay_measured_chunk(p->s, recs, n, &p->tb, res, res->records);
        if (stop != n)
            return sim_fail(SIM_ERR_UNSUPP,
                            "%s: record %llu: exit %s has no measured "
                            "handler/guest ticks; replay it through the "
                            "cycle model (sim replay without --compare "
                            "does so by itself)",
                            p->path, (unsigned long long)(res->records + stop),
                            exit_name(recs[stop].type));
    } else {
        sim_err e = replay_model_chunk(p->s, recs, n, &p->tb, p->o->model, res);
        if (e != SIM_OK)
            return e;
    }
    res->records += n;
    return SIM_OK;
}

sim_err replay_file(const char *path, const replay_opts *o, stats *s,
                    replay_result *res)
{
    memset(res, 0, sizeof *res);
    if (o->ticks == REPLAY_MODEL && (!o->model || !o->model->cost))
        return sim_fail(SIM_ERR_USAGE, "replay: no cost model given");
    replay_pass rp = {.path = path, .o = o, .s = s, .res = res};
    trace_pass p = {.ctx = &rp,
                    .header = replay_header,
                    .chunk = replay_chunk,
                    .progress = o->progress,
                    .progress_ctx = o->progress_ctx,
                    .total = trace_footer_hint(path).n_records};
    sim_err e = trace_pass_file(path, &p, NULL);
    free(rp.rows);
    res->state_events = res->records - res->exits;
    return e;
}
