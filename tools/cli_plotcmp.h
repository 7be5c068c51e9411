/* cli_plotcmp: pictures of a table comparison with gnuplot (Debian
 * gnuplot-nox): time share per row, reference vs other, as grouped bars,
 * and each row's relative error of its sum. Writes BASE.png and BASE.svg
 * (temporary names, renamed when gnuplot succeeded). */
#ifndef CLI_PLOTCMP_H
#define CLI_PLOTCMP_H

#include "sim_err.h"
#include "tcmp.h"

SIM_MUST_CHECK sim_err cli_plot_compare(const char *base, const tcmp *c,
                                        const char *ref_label,
                                        const char *label, const char *title);

#endif
