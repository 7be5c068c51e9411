/* stats: invariant checks and table conversion for the kernel's exit-timing
 * accounting (hot path inline in stats.h; see arch/powerpc/kvm/timing.c). */
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

const char *stats_unit_name(stats_unit u)
{
    return u == STATS_USEC ? "usec" : "ticks";
}

void stats_init(stats *s, stats_unit unit, uint64_t tb_hz)
{
    memset(s, 0, sizeof *s);
    s->unit = unit;
    s->tb_hz = tb_hz;
    s->tb_per_usec = tb_hz / 1000000u;
    if (s->tb_per_usec == 0)
        s->tb_per_usec = 1;
    s->inv_tb_per_usec = 1.0 / (double)s->tb_per_usec;
    for (int i = 0; i < EXIT__COUNT; i++)
        s->rows[i].min = UINT64_MAX;
    s->last_type = -1; /* the kernel's 0xDEAD: first cycle is incomplete */
}

uint64_t stats_traced_ticks(const stats *s)
{
    if (s->exits < 2 || s->last_exit_tb < s->first_exit)
        return 0;
    return s->last_exit_tb - s->first_exit;
}

static uint64_t charged_exits(const stats *s)
{
    uint64_t n = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (i != EXIT_TIMEINGUEST)
            n += s->rows[i].count;
    return n;
}

static uint64_t rows_sum(const stats *s)
{
    uint64_t n = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        n += s->rows[i].sum;
    return n;
}

static void line(FILE *f, bool ok, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void line(FILE *f, bool ok, const char *what, const char *fmt, ...)
{
    if (!f)
        return;
    va_list ap;
    fprintf(f, "check %-40s %s", what, ok ? "ok  " : "FAIL");
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

sim_err stats_check(const stats *s, FILE *report)
{
    bool all = true;
    uint64_t charged = charged_exits(s);
    uint64_t expect = s->exits ? s->exits - 1 : 0;
    uint64_t guest = s->rows[EXIT_TIMEINGUEST].count;

    bool ok = s->order_errors == 0;
    all &= ok;
    if (ok)
        line(report, ok, "events in time order", " (%llu exits)",
             (unsigned long long)s->exits);
    else
        line(report, ok, "events in time order",
             " (%llu out of order, first at exit %llu)",
             (unsigned long long)s->order_errors,
             (unsigned long long)s->first_order_error_index);

    ok = charged == expect;
    all &= ok;
    line(report, ok, "every exit charged once",
         " (%llu of %llu exits charged; the last is charged only by a "
         "following exit)",
         (unsigned long long)charged, (unsigned long long)s->exits);

    ok = guest == charged && s->entries + 1 >= s->exits;
    all &= ok;
    line(report, ok, "guest entries = exits",
         " (TIMEINGUEST count %llu, charged exits %llu, entries %llu)",
         (unsigned long long)guest, (unsigned long long)charged,
         (unsigned long long)s->entries);

    uint64_t traced = stats_traced_ticks(s);
    uint64_t sum = rows_sum(s);
    if (s->unit == STATS_TICKS) {
        ok = sum == traced;
        line(report, ok, "sum of rows = traced duration",
             " (%llu of %llu ticks)", (unsigned long long)sum,
             (unsigned long long)traced);
    } else {
        /* each sample is truncated to whole usec: it loses < 1 usec */
        uint64_t traced_us = traced / s->tb_per_usec;
        uint64_t samples = charged + guest;
        ok = sum <= traced_us + 1 && traced_us <= sum + samples;
        line(report, ok, "sum of rows = traced duration",
             " (%llu of %llu usec; %llu samples each truncated by < 1 usec)",
             (unsigned long long)sum, (unsigned long long)traced_us,
             (unsigned long long)samples);
    }
    all &= ok;
    if (!all)
        return sim_fail(SIM_ERR_CHECK, "accounting invariants failed");
    return SIM_OK;
}

void stats_to_table(const stats *s, table *t)
{
    table_init(t);
    /* usec mode samples are already whole usec; ticks are divided at print
     * time, as the 3.1+ kernel does */
    double div = s->unit == STATS_USEC ? 1.0 : (double)s->tb_per_usec;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const stats_row *r = &s->rows[i];
        table_row *o = &t->rows[i];
        if (r->count == 0)
            continue;
        o->present = true;
        o->count = r->count;
        o->min = (double)r->min / div;
        o->max = (double)r->max / div;
        o->sum = (double)r->sum / div;
        o->sum_sq = (double)r->sum_sq / (div * div);
    }
    /* The traced duration of a kvm table is the sum of its rows (in the seed
     * tables the two agree to the usec), so time% adds up to 100 also when
     * per-sample truncation has lost time; stats_check compares that sum
     * with the real span. */
    t->traced_usec = (double)rows_sum(s) / div;
    table_finish(t);
}
