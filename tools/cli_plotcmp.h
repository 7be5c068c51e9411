/* cli_plotcmp: pictures of a table comparison with gnuplot (Debian
 * gnuplot-nox): time share per row, reference vs other, as grouped bars,
 * and each row's relative error of its sum: the rows the comparison judges
 * (tcmp's major rows) in green, the others in grey, a bar beyond the
 * judged rows' range (and the budget's) cut at the edge and labelled with
 * its value, a row the reference lacks labelled instead of drawn as 0, a
 * row whose sum is mostly one exit starred, and the budget (percent, NAN:
 * none) as dashed lines. Writes BASE.png and BASE.svg (temporary names,
 * renamed when gnuplot succeeded). */
#ifndef CLI_PLOTCMP_H
#define CLI_PLOTCMP_H

#include "sim_err.h"
#include "tcmp.h"

SIM_MUST_CHECK sim_err cli_plot_compare(const char *base, const tcmp *c,
                                        const char *ref_label,
                                        const char *label, const char *title,
                                        double budget);

#endif
