/* cli_plotcmp: grouped bars of two tables' time shares and the per-row error,
 * drawn by gnuplot into PNG and SVG (cli_plotcmp.h). */
#include "cli_plotcmp.h"

#include <errno.h>
#include <math.h>
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

sim_err cli_plot_compare(const char *base, const tcmp *c,
                         const char *ref_label, const char *label,
                         const char *title)
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
    int rows = 0;
    for (int j = 0; j < c->n; j++) {
        const tcmp_row *r = &c->rows[c->order[j]];
        if (r->pct_ref < 0.1 && r->pct < 0.1)
            continue;
        double err = isfinite(r->err_sum) ? 100.0 * r->err_sum : 0;
        fprintf(d, "%s %.4f %.4f %.3f\n", exit_name((exit_type)c->order[j]),
                r->pct_ref, r->pct, err);
        rows++;
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
                "set yrange [0:*]\n"
                "set title 'time share per row'\n"
                "plot ");
        quoted(g, dat.tmp);
        fprintf(g, " using 2:xtic(1) title ");
        quoted(g, ref_label);
        fprintf(g, " lc rgb '#4477aa', '' using 3 title ");
        quoted(g, label);
        fprintf(g, " lc rgb '#ee6677'\nset ylabel ");
        char lab[256];
        snprintf(lab, sizeof lab, "sum: (%s - %s) / %s (%%)", label,
                 ref_label, ref_label);
        quoted(g, lab);
        snprintf(lab, sizeof lab, "each row's sum, %s against %s", label,
                 ref_label);
        fprintf(g, "\nset yrange [*:*]\nset title ");
        quoted(g, lab);
        fprintf(g, "\nunset key\nplot ");
        quoted(g, dat.tmp);
        fprintf(g, " using 4:xtic(1) lc rgb '#228833'\n"
                   "unset multiplot\nset output\n");
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
