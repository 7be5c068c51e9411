/* cli_plot: gnuplot (Debian gnuplot-nox) draws sweeps and sensitivity
 * tornados. The data go to a temporary file, gnuplot writes the picture
 * under a temporary name, and it is renamed into place when complete. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_sweep.h"
#include "outfile.h"

static int is_svg(const char *path)
{
    size_t l = strlen(path);
    return l > 4 && !strcmp(path + l - 4, ".svg");
}

sim_err plot_check_name(const char *path)
{
    size_t l = strlen(path);
    if (l > 4 && (!strcmp(path + l - 4, ".png") || is_svg(path)))
        return SIM_OK;
    return sim_fail(SIM_ERR_USAGE, "plot: %s: expected a .png or .svg name",
                    path);
}

/* Runs gnuplot on script, its picture written to path through outfile (a
 * temporary name renamed when gnuplot succeeded). */
static sim_err run_gnuplot(const char *path, const char *script)
{
    outfile of;
    sim_err e = outfile_open_named(&of, path);
    if (e)
        return e;
    FILE *g = popen("gnuplot 2>&1", "w");
    if (!g) {
        outfile_abort(&of);
        return sim_fail(SIM_ERR_IO, "plot: cannot run gnuplot (Debian package "
                                    "gnuplot-nox)");
    }
    if (is_svg(path))
        fprintf(g, "set terminal svg size 900,600 dynamic background rgb "
                   "'white' noenhanced\n");
    else
        fprintf(g, "set terminal pngcairo size 900,600 noenhanced\n");
    fprintf(g, "set output '%s'\n%s\nset output\n", of.tmp, script);
    int st = pclose(g);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        outfile_abort(&of);
        return sim_fail(SIM_ERR_IO, "plot: gnuplot failed (is gnuplot-nox "
                                    "installed?)");
    }
    return outfile_commit(&of);
}

sim_err sweep_plot(const char *path, const sweep_plan *pl,
                   const sweep_totals *res, const unsigned char *done)
{
    sim_err e = plot_check_name(path);
    if (e != SIM_OK)
        return e;
    if (pl->naxes > 2)
        return sim_fail(SIM_ERR_USAGE, "plot: %d swept parameters; a plot "
                        "shows one (a line) or two (a heat map)", pl->naxes);
    outfile data; /* gnuplot reads it by name; removed even on a signal */
    if ((e = outfile_scratch(&data, "plot")))
        return e;
    FILE *d = data.f;
    const char *dname = data.tmp;
    double prev = NAN;
    for (size_t i = 0; i < pl->npoints; i++) {
        if (!done[i])
            continue;
        const double *v = &pl->values[i * (size_t)pl->naxes];
        /* gnuplot's pm3d wants a blank line between scans of the first axis */
        if (pl->naxes == 2 && !isnan(prev) && v[0] != prev)
            fputc('\n', d);
        prev = v[0];
        double tot = (double)res[i].total / 1e6 /
                     (double)(res[i].tb_per_usec ? res[i].tb_per_usec : 1);
        if (pl->naxes == 1)
            fprintf(d, "%.10g %.9g\n", v[0], tot);
        else
            fprintf(d, "%.10g %.10g %.9g\n", v[0], v[1], tot);
    }
    if (fflush(d) != 0) {
        outfile_abort(&data);
        return sim_fail(SIM_ERR_IO, "plot: cannot write the data file");
    }
    char script[2048];
    const char *x = param_name(pl->axes[0].id);
    if (pl->naxes == 1)
        snprintf(script, sizeof script,
                 "set title 'sim sweep: predicted run time vs %s'\n"
                 "set xlabel '%s (%s)'\nset ylabel 'traced duration (s)'\n"
                 "set grid\nunset key\n"
                 "plot '%s' using 1:2 with linespoints lw 2 pt 7\n",
                 x, x, param_unit(pl->axes[0].id), dname);
    else
        snprintf(script, sizeof script,
                 "set title 'sim sweep: predicted run time (s)'\n"
                 "set xlabel '%s (%s)'\nset ylabel '%s (%s)'\n"
                 "set view map\nset pm3d map corners2color c1\n"
                 "set palette rgbformulae 33,13,10\nunset key\n"
                 "splot '%s' using 1:2:3 with pm3d\n",
                 x, param_unit(pl->axes[0].id), param_name(pl->axes[1].id),
                 param_unit(pl->axes[1].id), dname);
    e = run_gnuplot(path, script);
    outfile_abort(&data);
    return e;
}

sim_err tornado_plot(const char *path, const char *title,
                     const char *const *labels, const double *lo,
                     const double *hi, size_t n)
{
    sim_err e = plot_check_name(path);
    if (e != SIM_OK)
        return e;
    outfile data; /* gnuplot reads it by name; removed even on a signal */
    if ((e = outfile_scratch(&data, "plot")))
        return e;
    FILE *d = data.f;
    const char *dname = data.tmp;
    /* largest bar on top: gnuplot draws row 0 at y = 0 (the bottom) */
    for (size_t k = n; k-- > 0;)
        fprintf(d, "%zu \"%s\" %.9g %.9g\n", n - 1 - k, labels[k], lo[k],
                hi[k]);
    if (fflush(d) != 0) {
        outfile_abort(&data);
        return sim_fail(SIM_ERR_IO, "plot: cannot write the data file");
    }
    char script[2048];
    snprintf(script, sizeof script,
             "set title '%s'\nset xlabel 'change of the run (%%)'\n"
             "set style fill solid 0.8\nset grid x\nset key bottom right\n"
             "set yrange [-0.8:%zu-0.2]\nset ytics font ',8'\n"
             "plot '%s' using (0):1:(0):3:($1-0.35):($1+0.35):ytic(2) "
             "with boxxyerror lc rgb '#2a9d8f' title 'lower', "
             "'' using (0):1:(0):4:($1-0.35):($1+0.35) with boxxyerror "
             "lc rgb '#e76f51' title 'higher'\n",
             title, n, dname);
    e = run_gnuplot(path, script);
    outfile_abort(&data);
    return e;
}
