/* cli_sweep: what `sim sweep` and `sim sensitivity` share: the checks
 * before their work (cli_sweep.c) and their pictures drawn by gnuplot
 * (Debian gnuplot-nox, cli_plot.c). */
#ifndef CLI_SWEEP_H
#define CLI_SWEEP_H

#include <stddef.h>

#include "sim_err.h"
#include "sweep.h"

/* The checks before the work, in this order: the table output and the
 * --plot (cli_check_out_and_plot; a plot a .png or .svg), the parameters
 * (*p from the defaults, pfile and the sets) and the --transform's names
 * (may be NULL): a bad one stops before any replay. 0, or the exit code
 * after the message. */
int cli_sweep_check_run(params *p, const char *trace, const char *out,
                        const char *plot, const char *pfile, char *const *sets,
                        int nsets, const char *transform);
/* The worker threads for --threads N: N, or for 0 the online CPUs (at
 * most 64). */
unsigned cli_sweep_threads(unsigned long long n);

/* SIM_ERR_USAGE unless path names a picture gnuplot draws here (.png or
 * .svg): checked before the work, as every output is. */
SIM_MUST_CHECK sim_err plot_check_name(const char *path);

/* The sweep's finished points drawn into path (.png or .svg by its
 * extension): total run time vs the parameter for one axis (a line), a
 * heat map for two; more axes are an error. */
SIM_MUST_CHECK sim_err sweep_plot(const char *path, const sweep_plan *pl,
                                  const sweep_totals *res,
                                  const unsigned char *done);

/* A tornado chart: one bar per label, the change in % of the run for a
 * lower (lo[i]) and a higher (hi[i]) value of each parameter. */
SIM_MUST_CHECK sim_err tornado_plot(const char *path, const char *title,
                                    const char *const *labels,
                                    const double *lo, const double *hi,
                                    size_t n);

#endif
