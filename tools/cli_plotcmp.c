/* cli_plotcmp: grouped bars of two tables' time shares and the per-row error,
 * drawn by gnuplot into PNG and SVG (cli_plotcmp.h). */
#include "cli_plotcmp.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"

/* gnuplot strings are in double quotes: keep the label printable. */
static void quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        if (*s != '"' && *s != '\\' && (unsigned char)*s >= 0x20)
            fputc(*s, f);
    fputc('"', f);
}

static sim_err run_gnuplot(const char *script)
{
    pid_t pid = fork();
    if (pid < 0)
        return sim_fail(SIM_ERR_IO, "plot: fork: %s", strerror(errno));
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return sim_fail(SIM_ERR_IO, "plot: waitpid: %s", strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st) == 127)
        return sim_fail(SIM_ERR_UNSUPP, "plot: gnuplot not found (Debian "
                                        "package gnuplot-nox; "
                                        "tools/install-deps.sh)");
    if (WEXITSTATUS(st) != 0)
        return sim_fail(SIM_ERR_IO, "plot: gnuplot failed on %s", script);
    return SIM_OK;
}

static bool budget_shown(double budget, double mn, double mx)
{
    return isfinite(budget) && budget <= 4 * fmax(fmax(-mn, mx), 1);
}

/* The error panel's y range: every judged row's error (every row's when
 * none is judged) and the budget, with room for the labels. Rows outside
 * it are drawn to its edge and labelled with their value: one small row's
 * +128% must not flatten the rows the verdict is about. */
static void error_range(const tcmp *c, const int *shown, int rows,
                        double budget, double *lo, double *hi, bool *bshown)
{
    double mn = 0, mx = 0;
    bool any_major = false;
    for (int k = 0; k < rows; k++)
        any_major |= c->rows[shown[k]].major;
    for (int k = 0; k < rows; k++) {
        const tcmp_row *r = &c->rows[shown[k]];
        if ((any_major && !r->major) || !isfinite(r->err_sum))
            continue;
        mn = fmin(mn, 100.0 * r->err_sum);
        mx = fmax(mx, 100.0 * r->err_sum);
    }
    /* a budget far wider than the errors would flatten them: it is then
     * left out of the range and named in the title instead */
    *bshown = budget_shown(budget, mn, mx);
    if (*bshown) {
        mn = fmin(mn, -budget);
        mx = fmax(mx, budget);
    }
    double span = mx - mn > 0 ? mx - mn : 1;
    *lo = mn - 0.15 * span;
    *hi = mx + 0.15 * span;
}

sim_err cli_plot_compare(const char *base, const tcmp *c,
                         const char *ref_label, const char *label,
                         const char *title, double budget)
{
    /* the data and the script are scratch files; the PNG and SVG go
     * through outfile (temporary names, renamed when gnuplot succeeded) */
    size_t n = strlen(base) + 8;
    char *png = malloc(n), *svg = malloc(n);
    outfile dat = {0}, gp = {0}, opng = {0}, osvg = {0};
    sim_err e = SIM_OK;
    if (!png || !svg) {
        e = sim_fail(SIM_ERR_NOMEM, "plot: out of memory");
        goto out;
    }
    snprintf(png, n, "%s.png", base);
    snprintf(svg, n, "%s.svg", base);
    if ((e = outfile_open_named(&opng, png)) ||
        (e = outfile_open_named(&osvg, svg)) ||
        (e = outfile_scratch(&dat, "plotcmp-data")) ||
        (e = outfile_scratch(&gp, "plotcmp-gp")))
        goto out;
    FILE *d = dat.f;
    /* rows holding >= 0.1% of either side's time, by the reference's */
    int shown[EXIT__COUNT], rows = 0;
    for (int j = 0; j < c->n; j++) {
        const tcmp_row *r = &c->rows[c->order[j]];
        if (r->pct_ref < 0.1 && r->pct < 0.1)
            continue;
        shown[rows++] = c->order[j];
    }
    double lo, hi;
    bool bshown;
    error_range(c, shown, rows, budget, &lo, &hi, &bshown);
    bool marked = false;
    /* columns: name ('*': one exit is most of its sum), the two time
     * shares, the error of a judged row, of another row (NaN: not that
     * kind, or no error - a row the reference lacks is never drawn as 0),
     * where a clipped bar's value goes and the value, where "none in" the
     * reference goes and those words */
    for (int k = 0; k < rows; k++) {
        const tcmp_row *r = &c->rows[shown[k]];
        bool one = tcmp_row_one_exit(r);
        marked |= one;
        double err = 100.0 * r->err_sum;
        bool fin = isfinite(err);
        char text[64] = "", none[64] = "";
        double ty = NAN, ny = NAN;
        if (!fin) { /* an empty column: the words upright in its middle */
            snprintf(none, sizeof none, "none in %s", ref_label);
            ny = 0.5 * (lo + hi);
        } else if (err > hi || err < lo) {
            snprintf(text, sizeof text, "%+.0f%%", err);
            ty = err > hi ? hi - 0.07 * (hi - lo) : lo + 0.07 * (hi - lo);
        }
        fprintf(d, "%s%s %.4f %.4f %.3f %.3f %.3f \"%s\" %.3f \"%s\"\n",
                exit_name((exit_type)shown[k]), one ? "*" : "", r->pct_ref,
                r->pct, fin && r->major ? err : NAN,
                fin && !r->major ? err : NAN, ty, text, ny, none);
    }
    FILE *g = gp.f;
    for (int k = 0; k < 2; k++) {
        if (k == 0)
            fprintf(g, "set terminal pngcairo size 1200,800 font 'sans,11'\n");
        else
            fprintf(g, "set terminal svg size 1200,800 font 'sans,11'\n");
        fprintf(g, "set termoption noenhanced\nset output ");
        quoted(g, k == 0 ? opng.tmp : osvg.tmp);
        fprintf(g, "\nset multiplot layout 2,1 title ");
        quoted(g, title);
        fprintf(g,
                "\nset style data histogram\n"
                "set style histogram clustered gap 1\n"
                "set style fill solid 0.8 border -1\n"
                "set boxwidth 0.9\n"
                "set xtics rotate by -35 nomirror\n"
                "set grid ytics\n"
                "set key top right\n"
                "set ylabel 'time share (%%)'\n"
                "set xrange [*:*]\nset yrange [0:*]\n"
                "set title 'time share per row'\n"
                "plot ");
        quoted(g, dat.tmp);
        fprintf(g, " using 2:xtic(1) title ");
        quoted(g, ref_label);
        fprintf(g, " lc rgb '#4477aa', '' using 3 title ");
        quoted(g, label);
        fprintf(g, " lc rgb '#ee6677'\nset ylabel ");
        char lab[320];
        snprintf(lab, sizeof lab, "sum: (%s - %s) / %s (%%)", label,
                 ref_label, ref_label);
        quoted(g, lab);
        char off[64] = "";
        if (isfinite(budget) && !bshown)
            snprintf(off, sizeof off, " (budget +-%g%%: off the scale)",
                     budget);
        snprintf(lab, sizeof lab, "each row's sum, %s against %s%s%s", label,
                 ref_label, off,
                 marked ? " (*: one exit is over half of the row's sum, "
                          "docs/validation.md 'One exit')"
                        : "");
        fprintf(g, "\nset title ");
        quoted(g, lab);
        fprintf(g,
                "\nset boxwidth 0.6\n"
                "set xrange [-0.6:%d.4]\nset yrange [%.4f:%.4f]\n"
                "set key outside top center horizontal\nplot ",
                rows - 1, lo, hi);
        /* the zero line carries every row's tic */
        quoted(g, dat.tmp);
        fprintf(g, " using 0:(0):xtic(1) with lines lc rgb 'black' "
                   "notitle, '' using 0:4 with boxes lc rgb '#228833' "
                   "title ");
        snprintf(lab, sizeof lab, "rows with >= %g%% of the %s time",
                 c->threshold_pct, ref_label);
        quoted(g, lab);
        fprintf(g, ", '' using 0:5 with boxes lc rgb '#bbbbbb' title ");
        snprintf(lab, sizeof lab, "rows below %g%%", c->threshold_pct);
        quoted(g, lab);
        fprintf(g, ", '' using 0:6:7 with labels font ',10' notitle"
                   ", '' using 0:8:9 with labels rotate by 90 font ',10' "
                   "notitle");
        if (bshown) {
            fprintf(g, ", %g with lines dt 2 lc rgb '#aa3377' title ",
                    budget);
            snprintf(lab, sizeof lab, "budget +-%g%%", budget);
            quoted(g, lab);
            fprintf(g, ", %g with lines dt 2 lc rgb '#aa3377' notitle",
                    -budget);
        }
        fprintf(g, "\nunset multiplot\nset output\n");
    }
    if (fflush(d) != 0 || fflush(g) != 0) {
        e = sim_fail(SIM_ERR_IO, "plot: cannot write the scratch files: %s",
                     strerror(errno));
        goto out;
    }
    if (rows == 0) {
        e = sim_fail(SIM_ERR_RANGE, "plot: no row to draw");
        goto out;
    }
    e = run_gnuplot(gp.tmp);
    if (e == SIM_OK && (e = outfile_commit(&opng)) == SIM_OK)
        e = outfile_commit(&osvg);
out:
    outfile_abort(&opng); /* nothing left to remove after a commit */
    outfile_abort(&osvg);
    outfile_abort(&dat);
    outfile_abort(&gp);
    free(png);
    free(svg);
    return e;
}
