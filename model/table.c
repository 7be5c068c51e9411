/* table: an exit-timing table as CONFIG_KVM_EXIT_TIMING reports it
 * (arch/powerpc/kvm/timing.c): derived columns, EMUL_* folding, the
 * consistency checks of the seed's accounting, and side-by-side diffs.
 * The text forms are in tableio.c; formats and tolerances in docs/tables.md. */
#include "table.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table_priv.h"

static const char *const fmt_names[TFMT__COUNT] = {
    [TFMT_KVM] = "kvm", [TFMT_DEBUGFS] = "debugfs", [TFMT_PERF] = "perf",
    [TFMT_CSV] = "csv", [TFMT_JSON] = "json",
};

const char *table_fmt_name(table_fmt f)
{
    if (f == TFMT_AUTO)
        return "auto";
    return (unsigned)f < TFMT__COUNT ? fmt_names[f] : NULL;
}

int table_fmt_from_name(const char *name)
{
    for (int i = 0; i < TFMT__COUNT; i++)
        if (name && strcmp(name, fmt_names[i]) == 0)
            return i;
    return -1;
}

void table_init(table *t)
{
    memset(t, 0, sizeof *t);
    t->traced_usec = NAN;
    for (int i = 0; i < EXIT__COUNT; i++) {
        table_row *r = &t->rows[i];
        r->sum_sq = r->avg = r->stddev = r->time_pct = NAN;
    }
}

double table_stddev_of(uint64_t count, double sum, double sum_sq)
{
    if (count == 0 || !isfinite(sum) || !isfinite(sum_sq))
        return NAN;
    double n = (double)count, avg = sum / n;
    double var = sum_sq / n - avg * avg;
    /* rounding of sum_sq (printed as an integer) can push a tiny variance
     * below zero; the kernel's samples cannot */
    return var > 0 ? sqrt(var) : 0.0;
}

void table_finish(table *t)
{
    for (int i = 0; i < EXIT__COUNT; i++) {
        table_row *r = &t->rows[i];
        if (!r->present || r->count == 0)
            continue;
        double n = (double)r->count;
        if (!isnan(r->sum_sq)) {
            r->avg = r->sum / n;
            r->stddev = table_stddev_of(r->count, r->sum, r->sum_sq);
        } else if (isnan(r->avg)) {
            /* a parsed avg/stddev (kvm, csv, perf) is kept: table_check
             * compares it with sum/count */
            r->avg = r->sum / n;
        }
        if (isfinite(t->traced_usec) && t->traced_usec > 0)
            r->time_pct = 100.0 * r->sum / t->traced_usec;
    }
}

/* sum_sq of a row, reconstructed from avg and stddev when not carried. */
static double row_sum_sq(const table_row *r)
{
    if (!isnan(r->sum_sq))
        return r->sum_sq;
    double avg = table_row_avg(r), sd = r->stddev;
    if (!isfinite(avg) || !isfinite(sd))
        return NAN;
    return (double)r->count * (sd * sd + avg * avg);
}

void table_accumulate(table *acc, const table *t)
{
    acc->traced_usec = (isnan(acc->traced_usec) ? 0 : acc->traced_usec) +
                       t->traced_usec;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const table_row *r = &t->rows[i];
        table_row *a = &acc->rows[i];
        if (!table_row_has_data(r))
            continue;
        if (!a->present)
            *a = (table_row){.present = true, .min = INFINITY,
                             .max = -INFINITY, .avg = NAN, .stddev = NAN,
                             .time_pct = NAN};
        a->count += r->count;
        a->sum += r->sum;
        a->sum_sq += row_sum_sq(r);
        a->min = fmin(a->min, r->min);
        a->max = fmax(a->max, r->max);
        acc->never_hit[i] = false;
    }
}

uint64_t table_exits(const table *t)
{
    uint64_t n = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (i != EXIT_TIMEINGUEST && t->rows[i].present)
            n += t->rows[i].count;
    return n;
}

void table_fold_emul(const table *in, table *out)
{
    /* in == out is allowed: everything read from `in` after a row is reset
     * is computed here first */
    double traced = table_traced_or_sum(in);
    table_row acc = in->rows[EXIT_EMULINST];
    bool any = table_row_has_data(&acc);
    double sum_sq_eff = 0;
    if (any) {
        sum_sq_eff = row_sum_sq(&acc);
        if (isnan(acc.time_pct) && traced > 0)
            acc.time_pct = 100.0 * acc.sum / traced;
    } else {
        acc = (table_row){.min = INFINITY, .max = -INFINITY};
    }
    if (out != in)
        *out = *in;
    bool folded = false;
    for (int i = 0; i < EXIT__COUNT; i++) {
        if (!exit_is_emul((exit_type)i))
            continue;
        const table_row r = in->rows[i];
        if (table_row_has_data(&r)) {
            if (!any) {
                acc.line = r.line;
                any = true;
            }
            acc.count += r.count;
            acc.sum += r.sum;
            acc.sum_sq += r.sum_sq; /* NAN if any part lacks it */
            sum_sq_eff += row_sum_sq(&r);
            acc.min = fmin(acc.min, r.min);
            acc.max = fmax(acc.max, r.max);
            acc.time_pct += isnan(r.time_pct) && traced > 0
                                ? 100.0 * r.sum / traced
                                : r.time_pct;
            folded = true;
        }
        out->rows[i] = (table_row){
            .sum_sq = NAN, .avg = NAN, .stddev = NAN, .time_pct = NAN};
        out->never_hit[i] = false;
    }
    if (!folded)
        return;
    acc.present = true;
    acc.avg = acc.count ? acc.sum / (double)acc.count : NAN;
    acc.stddev = table_stddev_of(acc.count, acc.sum, sum_sq_eff);
    if (isfinite(in->traced_usec) && in->traced_usec > 0)
        acc.time_pct = 100.0 * acc.sum / in->traced_usec;
    out->rows[EXIT_EMULINST] = acc;
    out->never_hit[EXIT_EMULINST] = false;
}

/* ---- shared display helpers (table_priv.h) ---- */

const char *table_num_int(char buf[TABLE_NUMBUF], double x, bool group)
{
    if (!isfinite(x))
        return "-";
    char raw[TABLE_NUMBUF];
    int n = snprintf(raw, sizeof raw, "%.0f", trunc(x));
    if (n <= 0 || (size_t)n >= sizeof raw)
        return "-";
    if (strcmp(raw, "-0") == 0)
        n = snprintf(raw, sizeof raw, "0");
    const char *d = raw;
    char *o = buf;
    if (*d == '-')
        *o++ = *d++;
    size_t nd = strlen(d);
    for (size_t i = 0; i < nd; i++) {
        if (group && i > 0 && (nd - i) % 3 == 0)
            *o++ = ',';
        *o++ = d[i];
    }
    *o = '\0';
    return buf;
}

const char *table_num_fixed(char buf[TABLE_NUMBUF], double x, int decimals)
{
    if (!isfinite(x))
        return "-";
    int n = snprintf(buf, TABLE_NUMBUF, "%.*f", decimals, x);
    if (n <= 0 || n >= TABLE_NUMBUF)
        return "-";
    return buf;
}

bool table_row_has_data(const table_row *r)
{
    return r->present && (r->count > 0 || (isfinite(r->sum) && r->sum != 0));
}

double table_row_avg(const table_row *r)
{
    if (!isnan(r->avg))
        return r->avg;
    return r->count ? r->sum / (double)r->count : NAN;
}

double table_row_top_share(const table_row *r)
{
    /* with 1 or 2 exits the max is half the sum or more by count alone */
    return r->count >= 3 && isfinite(r->max) && isfinite(r->sum) &&
                   r->sum > 0 && r->max >= 0
               ? r->max / r->sum
               : NAN;
}

const char *table_one_exit_mark(char *buf, size_t n, double top_a,
                                const char *side_a, double top_b,
                                const char *side_b)
{
    double t = isfinite(top_a) ? top_a : 0;
    const char *side = side_a;
    if (isfinite(top_b) && top_b > t) {
        t = top_b;
        side = side_b;
    }
    if (!(t > TABLE_ONE_EXIT))
        buf[0] = '\0';
    else
        snprintf(buf, n, "  (one exit is %.0f%% of the %s sum)",
                 100.0 * fmin(t, 1.0), side);
    return buf;
}

void table_one_exit_legend(FILE *f)
{
    fprintf(f, "a row marked 'one exit is N%% of a sum' has more than half "
               "of that sum in its longest exit (its max): its change is "
               "mostly where that one exit fell, not the row's mechanism\n");
}

double table_row_stddev(const table_row *r)
{
    if (!isnan(r->stddev))
        return r->stddev;
    return table_stddev_of(r->count, r->sum, r->sum_sq);
}

double table_traced_or_sum(const table *t)
{
    if (isfinite(t->traced_usec))
        return t->traced_usec;
    double s = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (table_row_has_data(&t->rows[i]) && isfinite(t->rows[i].sum))
            s += t->rows[i].sum;
    return s;
}

bool table_handled_only(const table *t)
{
    if (table_row_has_data(&t->rows[EXIT_TIMEINGUEST]))
        return false;
    if (!isfinite(t->traced_usec))
        return true;
    /* a traced duration that is its exit rows' sum (perf's handled time
     * written into the kvm form): no guest time in it either */
    int rows = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        rows += table_row_has_data(&t->rows[i]);
    double h = table_handled_usec(t);
    return fabs(t->traced_usec - h) <= rows + 1e-3 * h;
}

double table_handled_usec(const table *t)
{
    double s = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (i != EXIT_TIMEINGUEST && table_row_has_data(&t->rows[i]) &&
            isfinite(t->rows[i].sum))
            s += t->rows[i].sum;
    return s;
}

double table_row_time_pct(const table *t, const table_row *r)
{
    if (!isnan(r->time_pct))
        return r->time_pct;
    double tr = table_traced_or_sum(t);
    return tr > 0 ? 100.0 * r->sum / tr : NAN;
}

bool table_has_emul_subtypes(const table *t)
{
    for (int i = 0; i < EXIT__COUNT; i++)
        if (exit_is_emul((exit_type)i) &&
            (table_row_has_data(&t->rows[i]) || t->never_hit[i]))
            return true;
    return false;
}

/* Sort key: sum (time% of one table is sum / traced, so the same order); a
 * row without a sum goes by its time%. */
static double sort_key(const table *t, int i)
{
    const table_row *r = &t->rows[i];
    if (isfinite(r->sum))
        return r->sum;
    double tp = table_row_time_pct(t, r);
    return isfinite(tp) ? tp * table_traced_or_sum(t) / 100.0 : -1.0;
}

int table_rows_by_sum(const table *t, int idx[EXIT__COUNT], bool with_guest)
{
    int n = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        if (!table_row_has_data(&t->rows[i]))
            continue;
        if (!with_guest && i == EXIT_TIMEINGUEST)
            continue;
        /* insertion sort, stable: equal keys keep enum order */
        double k = sort_key(t, i);
        int j = n++;
        while (j > 0 && sort_key(t, idx[j - 1]) < k) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    return n;
}

/* ---- consistency ---- */

/* Tolerances (docs/tables.md): the kvm layout prints avg with 4 decimals,
 * stddev with 3 and time% with 2. */
#define AVG_REL_TOL 1e-3
#define AVG_ABS_TOL 0.00005
#define TIME_TOL    (0.01 + 0.005)
#define SD_REL_TOL  2e-3

typedef struct checker {
    const char *name;
    FILE *report;
    unsigned problems;
} checker;

static void problem(checker *c, unsigned line, const char *type,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void problem(checker *c, unsigned line, const char *type,
                    const char *fmt, ...)
{
    c->problems++;
    if (!c->report)
        return;
    if (line)
        fprintf(c->report, "%s:%u: ", c->name, line);
    else
        fprintf(c->report, "%s: ", c->name);
    if (type)
        fprintf(c->report, "%s: ", type);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(c->report, fmt, ap);
    va_end(ap);
    fputc('\n', c->report);
}

static void check_row(checker *c, const table *t, int i)
{
    const table_row *r = &t->rows[i];
    const char *ty = exit_name((exit_type)i);
    if (r->count == 0) {
        if (r->sum != 0 || r->max != 0)
            problem(c, r->line, ty, "count 0 but sum %g and max %g", r->sum,
                    r->max);
        return;
    }
    double n = (double)r->count, mean = r->sum / n;
    if (!(r->min <= r->max))
        problem(c, r->line, ty, "min %g > max %g", r->min, r->max);
    if (isfinite(r->avg)) {
        double tol = fmax(AVG_REL_TOL * fabs(mean), AVG_ABS_TOL);
        /* a sum printed as a whole usec is truncated (a 3.1+ table's, of
         * its ticks): the true sum, whose avg is printed, may exceed it by
         * up to 1 usec - with one exit, 10 and 10.4543 agree */
        double up = r->sum == floor(r->sum) ? 1.0 / n : 0;
        if (r->avg < mean - tol || r->avg > mean + up + tol)
            problem(c, r->line, ty, "avg %.4f but sum/count = %.4f", r->avg,
                    mean);
        /* a max printed as a whole usec is truncated: the true max (and the
         * avg) may exceed it by up to 1 usec */
        double hi = r->max == floor(r->max) ? 1.0 : 1e-9 * fabs(r->max);
        if (r->avg < r->min - AVG_ABS_TOL || r->avg > r->max + hi)
            problem(c, r->line, ty, "avg %.4f outside [min %g, max %g]", r->avg,
                    r->min, r->max);
    }
    if (isfinite(r->stddev) && r->stddev < 0)
        problem(c, r->line, ty, "stddev %.3f is negative", r->stddev);
    double var = isfinite(r->sum_sq) ? r->sum_sq / n - mean * mean : NAN;
    /* sum(x^2) >= sum(x)^2 / n for any samples (sum_squared printed as an
     * integer: +-0.5) */
    if (var < -(0.5 + 1e-12 * r->sum_sq) / n)
        problem(c, r->line, ty,
                "sum_squared %.0f below sum^2/count = %.0f (impossible for "
                "real samples; debugfs read with the wrong tb_per_usec?)",
                r->sum_sq, r->sum * mean);
    else if (isfinite(r->stddev) && isfinite(r->sum_sq)) {
        /* sum_squared printed as an integer (+-0.5), stddev with 3 decimals,
         * and the cancellation in sum_sq/n - avg^2 */
        double tol = SD_REL_TOL * fabs(var) + 0.5 / n + 2 * r->stddev * 0.0005 +
                     0.0005 * 0.0005 + 1e-12 * fabs(r->sum_sq / n);
        if (fabs(r->stddev * r->stddev - var) > tol)
            problem(c, r->line, ty,
                    "stddev %.3f but sqrt(sum_squared/count - avg^2) = %.3f",
                    r->stddev, var > 0 ? sqrt(var) : 0.0);
    }
    if (isfinite(r->time_pct) && isfinite(t->traced_usec) &&
        t->traced_usec > 0) {
        double tp = 100.0 * r->sum / t->traced_usec;
        if (fabs(r->time_pct - tp) > TIME_TOL)
            problem(c, r->line, ty, "time%% %.2f but 100*sum/traced = %.4f",
                    r->time_pct, tp);
    }
}

sim_err table_check(const table *t, const char *name, FILE *report)
{
    checker c = {name ? name : "table", report, 0};
    unsigned __int128 exits = 0;
    unsigned nrows = 0;
    double tp_sum = 0;
    bool tp_known = true;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const table_row *r = &t->rows[i];
        if (!r->present)
            continue;
        check_row(&c, t, i);
        if (r->count == 0)
            continue;
        nrows++;
        if (i != EXIT_TIMEINGUEST)
            exits += r->count;
        if (isfinite(r->time_pct))
            tp_sum += r->time_pct;
        else
            tp_known = false;
    }
    const table_row *g = &t->rows[EXIT_TIMEINGUEST];
    if (g->present && g->count > 0) {
        /* every guest entry follows one charged exit */
        if (exits != g->count) {
            char b1[TABLE_NUMBUF], b2[TABLE_NUMBUF];
            problem(&c, g->line, "TIMEINGUEST",
                    "count %s but the exit rows add up to %s",
                    table_num_int(b1, (double)g->count, true),
                    table_num_int(b2, (double)exits, true));
        }
        /* every usec is charged to one row: time% adds up to 100, each row
         * rounded by up to 0.005 */
        double tol = 0.01 + 0.005 * nrows;
        if (tp_known && isfinite(t->traced_usec) && fabs(tp_sum - 100) > tol)
            problem(&c, 0, NULL,
                    "time%% of all rows adds up to %.2f, expected 100 "
                    "(within %.2f)",
                    tp_sum, tol);
    }
    if (c.problems)
        return sim_fail(SIM_ERR_CHECK, "%s: %u consistency problem%s", c.name,
                        c.problems, c.problems == 1 ? "" : "s");
    return SIM_OK;
}

/* ---- diff ---- */

static const char *rel_diff(char buf[32], double a, double b)
{
    if (!isfinite(a) || !isfinite(b))
        return "-";
    if (a == 0)
        return b == 0 ? "0.0%" : "new";
    snprintf(buf, 32, "%+.1f%%", 100.0 * (b - a) / a);
    return buf;
}

static double exit_total(const table *t)
{
    double n = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (i != EXIT_TIMEINGUEST && table_row_has_data(&t->rows[i]))
            n += (double)t->rows[i].count;
    return n;
}

static const char *or_unnamed(const char *p)
{
    return p ? p : "(unnamed)";
}

/* Whether every row has the same count in both (a replay of one trace
 * through two cost models): the count columns would be all zero diffs. */
static bool same_counts(const table *a, const table *b)
{
    for (int i = 0; i < EXIT__COUNT; i++) {
        bool ha = table_row_has_data(&a->rows[i]),
             hb = table_row_has_data(&b->rows[i]);
        if (ha != hb || (ha && a->rows[i].count != b->rows[i].count))
            return false;
    }
    return true;
}

sim_err table_diff(FILE *f, const table *a, const char *name_a, const table *b,
                   const char *name_b, bool proportions)
{
    /* a's rows by its time%, then rows only b has, by b's */
    int ia[EXIT__COUNT], ib[EXIT__COUNT], order[EXIT__COUNT];
    int na = table_rows_by_sum(a, ia, true),
        nb = table_rows_by_sum(b, ib, true);
    int n = 0;
    for (int k = 0; k < na; k++)
        order[n++] = ia[k];
    for (int k = 0; k < nb; k++)
        if (!table_row_has_data(&a->rows[ib[k]]))
            order[n++] = ib[k];
    double ea = exit_total(a), eb = exit_total(b);
    bool one_count = !proportions && same_counts(a, b);
    /* a table without guest time (perf) against one with it: the exit
     * rows of both, never its handled time against a traced duration; and
     * time% of that handled time on both sides, as csv and json (tcmp):
     * one table's share of its traced time beside the other's share of
     * its handled time read EMULINST 46.89 -> 100.00 where it was 50.12 */
    bool h = table_handled_only(a) || table_handled_only(b);
    double ta = h ? table_handled_usec(a) : table_traced_or_sum(a),
           tb = h ? table_handled_usec(b) : table_traced_or_sum(b);

    fprintf(f, "a: %s", or_unnamed(name_a));
    if (a->title[0])
        fprintf(f, " (%s)", a->title);
    fprintf(f, "\nb: %s", or_unnamed(name_b));
    if (b->title[0])
        fprintf(f, " (%s)", b->title);
    fprintf(f, "\ndiff = (b - a) / a; sum and avg in usec%s%s\n\n",
            proportions ? "; share = count / all exits of its table "
                          "(TIMEINGUEST is not an exit)"
                        : "",
            one_count ? "; the counts are the same in both" : "");
    if (one_count)
        fprintf(f, "%-12s %13s", "type", "count");
    else
        fprintf(f, "%-12s %13s %13s %8s", "type",
                proportions ? "share a" : "count a",
                proportions ? "share b" : "count b", "diff");
    fprintf(f, " %15s %15s %8s %11s %11s %8s %8s %8s\n", "sum a usec",
            "sum b usec", "diff", "avg a usec", "avg b usec", "diff", "time% a",
            "time% b");
    char c1[TABLE_NUMBUF], c2[TABLE_NUMBUF], d1[32], d2[32], d3[32];
    char v1[TABLE_NUMBUF], v2[TABLE_NUMBUF], t1[TABLE_NUMBUF], t2[TABLE_NUMBUF];
    char s1b[TABLE_NUMBUF], s2b[TABLE_NUMBUF], om[64];
    int flagged = 0;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        const table_row *ra = &a->rows[i], *rb = &b->rows[i];
        bool ha = table_row_has_data(ra), hb = table_row_has_data(rb);
        double ca = ha ? (double)ra->count : 0, cb = hb ? (double)rb->count : 0;
        double aa = ha ? table_row_avg(ra) : NAN,
               ab = hb ? table_row_avg(rb) : NAN;
        double sa_ = ha ? ra->sum : 0, sb_ = hb ? rb->sum : 0;
        double pa = ha ? table_row_time_pct(a, ra) : 0,
               pb = hb ? table_row_time_pct(b, rb) : 0;
        if (h) {
            bool g = i == EXIT_TIMEINGUEST;
            pa = g || !(ta > 0) ? NAN : ha ? 100.0 * sa_ / ta : 0;
            pb = g || !(tb > 0) ? NAN : hb ? 100.0 * sb_ / tb : 0;
        }
        const char *s1, *s2, *dc;
        if (proportions) {
            bool pseudo = i == EXIT_TIMEINGUEST;
            double sa = !pseudo && ea > 0 ? 100.0 * ca / ea : NAN;
            double sb = !pseudo && eb > 0 ? 100.0 * cb / eb : NAN;
            s1 = isfinite(sa) ? (snprintf(c1, sizeof c1, "%.3f%%", sa), c1)
                              : "-";
            s2 = isfinite(sb) ? (snprintf(c2, sizeof c2, "%.3f%%", sb), c2)
                              : "-";
            dc = rel_diff(d1, sa, sb);
        } else {
            s1 = table_num_int(c1, ca, true);
            s2 = table_num_int(c2, cb, true);
            dc = rel_diff(d1, ca, cb);
        }
        if (one_count)
            fprintf(f, "%-12s %13s", exit_name((exit_type)i), s1);
        else
            fprintf(f, "%-12s %13s %13s %8s", exit_name((exit_type)i), s1, s2,
                    dc);
        fprintf(f, " %15s %15s %8s %11s %11s %8s %8s %8s%s\n",
                table_num_int(s1b, sa_, true), table_num_int(s2b, sb_, true),
                rel_diff(d3, sa_, sb_), table_num_fixed(v1, aa, 4),
                table_num_fixed(v2, ab, 4), rel_diff(d2, aa, ab),
                table_num_fixed(t1, pa, 2), table_num_fixed(t2, pb, 2),
                table_one_exit_mark(
                    om, sizeof om, ha ? table_row_top_share(ra) : NAN, "a",
                    hb ? table_row_top_share(rb) : NAN, "b"));
        flagged += om[0] != '\0';
    }
    if (one_count)
        fprintf(f, "\n%-12s %13s\n", "exits", table_num_int(c1, ea, true));
    else
        fprintf(f, "\n%-12s %13s %13s %8s\n", "exits",
                table_num_int(c1, ea, true), table_num_int(c2, eb, true),
                rel_diff(d1, ea, eb));
    fprintf(f, "%-12s %13s %13s %8s%s\n", h ? "handled usec" : "traced usec",
            table_num_int(c1, ta, true), table_num_int(c2, tb, true),
            rel_diff(d1, ta, tb),
            h ? "  (exit rows only: a table without guest time, no "
                "TIMEINGUEST row; time% of the exit rows)"
            : isfinite(a->traced_usec) && isfinite(b->traced_usec)
                ? ""
                : "  (sum of the rows where a table lacks it)");
    if (flagged)
        table_one_exit_legend(f);
    if (ferror(f))
        return sim_fail(SIM_ERR_IO, "writing the diff: %s", strerror(errno));
    return SIM_OK;
}

/* ---- files ---- */

/* A table is a few kB; anything this large is not one. */
#define TABLE_MAX_FILE (16u << 20)

sim_err table_read_file(table *t, const char *path, table_fmt fmt)
{
    return table_read_file_tb(t, path, fmt, 0.0);
}

sim_err table_read_file_tb(table *t, const char *path, table_fmt fmt,
                           double tb_per_usec)
{
    bool std = strcmp(path, "-") == 0;
    const char *name = std ? "<stdin>" : path;
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f)
        return sim_fail(SIM_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
    /* read one byte past the cap to tell "exactly the cap" from "more" */
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    sim_err e = SIM_OK;
    if (!buf)
        e = sim_fail(SIM_ERR_NOMEM, "%s: out of memory", name);
    while (e == SIM_OK && len <= TABLE_MAX_FILE) {
        if (len == cap) {
            size_t ncap =
                cap * 2 > TABLE_MAX_FILE + 1 ? TABLE_MAX_FILE + 1 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                e = sim_fail(SIM_ERR_NOMEM, "%s: out of memory", name);
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f))
                e = sim_fail(SIM_ERR_IO, "%s: read failed: %s", name,
                             strerror(errno));
            break;
        }
    }
    if (e == SIM_OK && len > TABLE_MAX_FILE)
        e = sim_fail(SIM_ERR_RANGE,
                     "%s: larger than %u MiB; an exit-timing table is a few "
                     "kB (is this the right file?)",
                     name, TABLE_MAX_FILE >> 20);
    if (!std)
        fclose(f);
    if (e == SIM_OK)
        e = table_parse_any(t, buf, len, fmt, name, tb_per_usec);
    free(buf);
    return e;
}
