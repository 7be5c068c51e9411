/* tcmp: row-by-row comparison of two exit-timing tables (tcmp.h). */
#include "tcmp.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table_priv.h"

static double rel(double ref, double x)
{
    return ref != 0 && isfinite(ref) && isfinite(x) ? (x - ref) / ref : NAN;
}

void tcmp_make(tcmp *c, const table *ref_in, const table *other_in, bool fold,
               double threshold_pct)
{
    table *fr = NULL, *fo = NULL;
    const table *ref = ref_in, *other = other_in;
    if (fold) {
        fr = malloc(sizeof *fr);
        fo = malloc(sizeof *fo);
        if (fr && fo) {
            table_fold_emul(ref_in, fr);
            table_fold_emul(other_in, fo);
            ref = fr;
            other = fo;
        }
    }
    memset(c, 0, sizeof *c);
    c->threshold_pct = threshold_pct;
    /* a table without guest time against one with it: a traced duration
     * would hold guest time on one side only (perf's handled time against
     * a prediction's traced duration read -0.5% where the exits were -16%) */
    c->handled = table_handled_only(ref) || table_handled_only(other);
    if (c->handled) {
        c->total_ref = table_handled_usec(ref);
        c->total = table_handled_usec(other);
    } else {
        c->total_ref = table_traced_or_sum(ref);
        c->total = table_traced_or_sum(other);
    }
    int ir[EXIT__COUNT], io[EXIT__COUNT];
    int nr = table_rows_by_sum(ref, ir, true), no = table_rows_by_sum(other, io, true);
    for (int k = 0; k < nr; k++)
        c->order[c->n++] = ir[k];
    for (int k = 0; k < no; k++)
        if (!table_row_has_data(&ref->rows[io[k]]))
            c->order[c->n++] = io[k];
    double sa = 0, ss = 0;
    for (int k = 0; k < c->n; k++) {
        int i = c->order[k];
        const table_row *a = &ref->rows[i], *b = &other->rows[i];
        tcmp_row *r = &c->rows[i];
        r->in_ref = table_row_has_data(a);
        r->in_other = table_row_has_data(b);
        r->count_ref = r->in_ref ? (double)a->count : 0;
        r->count = r->in_other ? (double)b->count : 0;
        r->sum_ref = r->in_ref ? a->sum : 0;
        r->sum = r->in_other ? b->sum : 0;
        r->avg_ref = r->in_ref ? table_row_avg(a) : NAN;
        r->avg = r->in_other ? table_row_avg(b) : NAN;
        if (c->handled) { /* shares of the handled time, both sides */
            bool g = i == EXIT_TIMEINGUEST;
            r->pct_ref = g || !(c->total_ref > 0) ? NAN
                         : r->in_ref ? 100.0 * r->sum_ref / c->total_ref : 0;
            r->pct = g || !(c->total > 0) ? NAN
                     : r->in_other ? 100.0 * r->sum / c->total : 0;
        } else {
            r->pct_ref = r->in_ref ? table_row_time_pct(ref, a) : 0;
            r->pct = r->in_other ? table_row_time_pct(other, b) : 0;
        }
        r->top_ref = r->in_ref ? table_row_top_share(a) : NAN;
        r->top = r->in_other ? table_row_top_share(b) : NAN;
        r->err_count = rel(r->count_ref, r->count);
        r->err_sum = rel(r->sum_ref, r->sum);
        r->err_avg = rel(r->avg_ref, r->avg);
        r->major = r->in_ref && isfinite(r->pct_ref) &&
                   r->pct_ref >= threshold_pct;
        if (r->major && isfinite(r->err_sum)) {
            sa += fabs(r->err_sum);
            ss += r->err_sum;
            c->n_major++;
        }
    }
    c->err_total = rel(c->total_ref, c->total);
    /* the total's change row by row: a total within its budget can be a
     * balance of large row errors (docs/validation.md, "The total's change
     * by row") */
    double pa = 0, ps = 0;
    for (int k = 0; k < c->n; k++) {
        int i = c->order[k];
        tcmp_row *r = &c->rows[i];
        r->pts = NAN;
        if (!(c->total_ref > 0) || (c->handled && i == EXIT_TIMEINGUEST))
            continue;
        r->pts = (r->sum - r->sum_ref) / c->total_ref;
        if (isfinite(r->pts)) {
            pa += fabs(r->pts);
            ps += r->pts;
        }
    }
    c->pts_abs = c->total_ref > 0 ? pa : NAN;
    c->pts_rest = isfinite(c->err_total) ? c->err_total - ps : NAN;
    c->mape = c->n_major ? 100.0 * sa / c->n_major : NAN;
    c->mpe = c->n_major ? 100.0 * ss / c->n_major : NAN;
    free(fr);
    free(fo);
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

static const char *pct(char *buf, size_t n, double x)
{
    if (!isfinite(x))
        return "-";
    snprintf(buf, n, "%+.1f%%", 100.0 * x);
    return buf;
}

/* The total's change by row, in points of the ref's total, largest
 * first: rows under 0.05 points together, then what no row holds. */
static void write_points(FILE *f, const tcmp *c)
{
    if (!isfinite(c->pts_abs) || !isfinite(c->err_total))
        return;
    int idx[EXIT__COUNT], n = 0;
    for (int k = 0; k < c->n; k++)
        if (isfinite(c->rows[c->order[k]].pts))
            idx[n++] = c->order[k];
    for (int a = 1; a < n; a++) /* by |pts|, stable: few rows */
        for (int b = a; b > 0 && fabs(c->rows[idx[b]].pts) >
                                     fabs(c->rows[idx[b - 1]].pts);
             b--) {
            int t = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = t;
        }
    fprintf(f, "the total's %+.1f%% by row, in points of the ref's total:",
            100.0 * c->err_total);
    double small = 0;
    int shown = 0;
    for (int k = 0; k < n; k++) {
        double p = 100.0 * c->rows[idx[k]].pts;
        if (fabs(p) < 0.05) {
            small += p;
            continue;
        }
        fprintf(f, "%s %s %+.1f", shown++ ? "," : "",
                exit_name((exit_type)idx[k]), p);
    }
    if (!shown)
        fprintf(f, " none over 0.05");
    if (small != 0)
        fprintf(f, "; the other rows %+.2f", small);
    if (fabs(100.0 * c->pts_rest) >= 0.05)
        fprintf(f, "; not in any row %+.1f", 100.0 * c->pts_rest);
    fprintf(f, " (their sizes add to %.1f points)\n", 100.0 * c->pts_abs);
}

void tcmp_write_text(FILE *f, const tcmp *c, const char *ref_label,
                     const char *label)
{
    fprintf(f, "ref: %s\nnew: %s\nerr = (new - ref) / ref\n\n", ref_label,
            label);
    char a[TABLE_NUMBUF], b[TABLE_NUMBUF], d[TABLE_NUMBUF], e[TABLE_NUMBUF];
    /* the columns as wide as their widest number: a long run's billions
     * of exits and hours of usec ran into the next column */
    int wc = 11, ws = 13;
    for (int j = 0; j < c->n; j++) {
        const tcmp_row *r = &c->rows[c->order[j]];
        wc = imax(wc, (int)strlen(table_num_int(a, r->count_ref, true)));
        wc = imax(wc, (int)strlen(table_num_int(a, r->count, true)));
        ws = imax(ws, (int)strlen(table_num_int(a, r->sum_ref, true)));
        ws = imax(ws, (int)strlen(table_num_int(a, r->sum, true)));
    }
    int wt = imax(wc, imax((int)strlen(table_num_int(a, c->total_ref, true)),
                           (int)strlen(table_num_int(a, c->total, true))));
    fprintf(f, "%-12s %*s %*s %8s %*s %*s %8s %10s %10s %8s %7s %7s\n",
            "type", wc, "count ref", wc, "count new", "err", ws, "sum ref",
            ws, "sum new", "err", "avg ref", "avg new", "err", "time%ref",
            "time%new");
    char g[32], h[32], k[32], t1[TABLE_NUMBUF], t2[TABLE_NUMBUF];
    char p1[TABLE_NUMBUF], p2[TABLE_NUMBUF];
    int flagged = 0;
    for (int j = 0; j < c->n; j++) {
        int i = c->order[j];
        const tcmp_row *r = &c->rows[i];
        char o[64];
        fprintf(f, "%-12s %*s %*s %8s %*s %*s %8s %10s %10s %8s %7s %7s%s%s\n",
                exit_name((exit_type)i), wc,
                table_num_int(a, r->count_ref, true), wc,
                table_num_int(b, r->count, true),
                pct(g, sizeof g, r->err_count), ws,
                table_num_int(d, r->sum_ref, true), ws,
                table_num_int(e, r->sum, true), pct(h, sizeof h, r->err_sum),
                table_num_fixed(t1, r->avg_ref, 2),
                table_num_fixed(t2, r->avg, 2), pct(k, sizeof k, r->err_avg),
                table_num_fixed(p1, r->pct_ref, 2),
                table_num_fixed(p2, r->pct, 2),
                r->major ? "" : "  (< threshold)", table_one_exit_mark(o, sizeof o, r->top_ref, "ref", r->top, "new"));
        flagged += o[0] != '\0';
    }
    fprintf(f, "\n%-12s %*s %*s %8s%s\n",
            c->handled ? "handled usec" : "traced usec", wt,
            table_num_int(a, c->total_ref, true), wt,
            table_num_int(b, c->total, true), pct(g, sizeof g, c->err_total),
            c->handled ? "  (exit rows only: a table without guest time, "
                         "no TIMEINGUEST row; time% of the exit rows)"
                       : "");
    char m1[32], m2[32];
    fprintf(f, "rows with >= %g%% of the ref's time: %d; sums: MAPE %s, "
               "MPE %s\n",
            c->threshold_pct, c->n_major,
            pct(m1, sizeof m1, c->mape / 100.0) + (isfinite(c->mape) ? 1 : 0),
            pct(m2, sizeof m2, c->mpe / 100.0));
    write_points(f, c);
    if (flagged)
        table_one_exit_legend(f);
}

static json_t *num(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* A count: a JSON integer. */
static json_t *count(double x)
{
    return isfinite(x) && x == floor(x) && fabs(x) < 9e18
               ? json_integer((json_int_t)x)
               : num(x);
}

json_t *tcmp_to_json(const tcmp *c)
{
    json_t *o = json_object(), *rows = json_array();
    /* in the exit enum's order: the same rows in the same places whatever
     * the reference's ranking */
    for (int i = 0; i < EXIT__COUNT; i++) {
        const tcmp_row *r = &c->rows[i];
        if (!r->in_ref && !r->in_other)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "type", json_string(exit_name((exit_type)i)));
        json_object_set_new(x, "count_ref", count(r->count_ref));
        json_object_set_new(x, "count", count(r->count));
        json_object_set_new(x, "err_count", num(r->err_count));
        json_object_set_new(x, "sum_ref", num(r->sum_ref));
        json_object_set_new(x, "sum", num(r->sum));
        json_object_set_new(x, "err_sum", num(r->err_sum));
        json_object_set_new(x, "avg_ref", num(r->avg_ref));
        json_object_set_new(x, "avg", num(r->avg));
        json_object_set_new(x, "err_avg", num(r->err_avg));
        json_object_set_new(x, "time_percent_ref", num(r->pct_ref));
        json_object_set_new(x, "time_percent", num(r->pct));
        json_object_set_new(x, "major", json_boolean(r->major));
        json_object_set_new(x, "total_points", num(100.0 * r->pts));
        json_object_set_new(x, "max_share_ref", num(r->top_ref));
        json_object_set_new(x, "max_share", num(r->top));
        json_array_append_new(rows, x);
    }
    json_object_set_new(o, "rows", rows);
    json_object_set_new(o, "traced_usec_ref", num(c->total_ref));
    json_object_set_new(o, "traced_usec", num(c->total));
    json_object_set_new(o, "err_traced", num(c->err_total));
    json_object_set_new(o, "handled_only", json_boolean(c->handled));
    json_object_set_new(o, "threshold_percent", num(c->threshold_pct));
    json_object_set_new(o, "mape_percent", num(c->mape));
    json_object_set_new(o, "mpe_percent", num(c->mpe));
    json_object_set_new(o, "total_points_abs", num(100.0 * c->pts_abs));
    json_object_set_new(o, "total_points_rest", num(100.0 * c->pts_rest));
    return o;
}

static const char *csv_num(char buf[TABLE_NUMBUF], double x, int dec)
{
    return isfinite(x) ? table_num_fixed(buf, x, dec) : "";
}

static double exits_of(const tcmp *c, bool ref)
{
    double n = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (i != EXIT_TIMEINGUEST)
            n += ref ? c->rows[i].count_ref : c->rows[i].count;
    return n;
}

static double share_of(double count, double all, int type)
{
    return type == EXIT_TIMEINGUEST || !(all > 0) ? NAN : 100.0 * count / all;
}

static void write_csv(FILE *f, const tcmp *c)
{
    fprintf(f, TCMP_CSV_HEADER "\n");
    double er = exits_of(c, true), en = exits_of(c, false);
    char b[13][TABLE_NUMBUF];
    for (int i = 0; i < EXIT__COUNT; i++) {
        const tcmp_row *r = &c->rows[i];
        if (!r->in_ref && !r->in_other)
            continue;
        fprintf(f, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
                exit_name((exit_type)i), csv_num(b[0], r->count_ref, 0),
                csv_num(b[1], r->count, 0), csv_num(b[2], r->err_count, 6),
                csv_num(b[3], share_of(r->count_ref, er, i), 4),
                csv_num(b[4], share_of(r->count, en, i), 4),
                csv_num(b[5], r->sum_ref, 3), csv_num(b[6], r->sum, 3),
                csv_num(b[7], r->err_sum, 6), csv_num(b[8], r->avg_ref, 4),
                csv_num(b[9], r->avg, 4), csv_num(b[10], r->err_avg, 6),
                csv_num(b[11], r->pct_ref, 2), csv_num(b[12], r->pct, 2));
    }
}

sim_err tcmp_write(FILE *f, const tcmp *c, const char *ref_label,
                   const char *label, table_fmt fmt)
{
    if (fmt == TFMT_CSV) {
        write_csv(f, c);
        if (ferror(f))
            return sim_fail(SIM_ERR_IO, "writing the comparison: %s",
                            strerror(errno));
        return SIM_OK;
    }
    if (fmt != TFMT_JSON)
        return sim_fail(SIM_ERR_USAGE, "a comparison as %s: csv or json only",
                        table_fmt_name(fmt));
    json_t *o = json_object(), *body = tcmp_to_json(c);
    if (!o || !body || json_object_set_new(o, "ref", json_string(ref_label)) ||
        json_object_set_new(o, "new", json_string(label)) ||
        json_object_set_new(o, "unit", json_string("usec")) ||
        json_object_update(o, body)) {
        json_decref(o);
        json_decref(body);
        return sim_fail(SIM_ERR_NOMEM, "json: out of memory");
    }
    json_decref(body);
    return table_json_dump(f, o);
}

bool tcmp_row_one_exit(const tcmp_row *r)
{
    return (isfinite(r->top_ref) && r->top_ref > TABLE_ONE_EXIT) ||
           (isfinite(r->top) && r->top > TABLE_ONE_EXIT);
}
