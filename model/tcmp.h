/* tcmp: two exit-timing tables row by row - a reference (the untransformed
 * prediction for `sim whatif`, the measured table for `sim validate`) and
 * another (the prediction): per row count, sum, avg and time% with their
 * differences and relative errors, the traced duration's, and the mean
 * absolute / signed percentage errors of the sums over the rows holding at
 * least a given share of the reference's time. Printed as text or as a
 * jansson object. */
#ifndef TCMP_H
#define TCMP_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "sim_err.h"
#include "table.h"

typedef struct tcmp_row {
    bool in_ref, in_other;
    double count_ref, count, sum_ref, sum, avg_ref, avg, pct_ref, pct;
    double err_count, err_sum, err_avg; /* (other - ref) / ref, NAN if ref 0 */
    /* the row's part of the total's change: (sum - sum_ref) / total_ref
     * (NAN when the ref's total is 0, and for TIMEINGUEST in the handled
     * form, which has no guest time in its total) */
    double pts;
    bool major; /* ref time% >= the threshold */
    /* the row's longest exit (its max) as a share of its sum, each side;
     * NAN where a table gives no max or no sum. Over TABLE_ONE_EXIT the
     * row's sum is mostly one exit (a host preemption or stall lands where
     * its tick falls), and its change says little about the row's
     * mechanism: the text marks it (docs/validation.md, "One exit") */
    double top_ref, top;
} tcmp_row;

/* The row's sum is mostly one exit on either side (top over
 * TABLE_ONE_EXIT): what the text marks "one exit is N% of a sum". */
bool tcmp_row_one_exit(const tcmp_row *r);


typedef struct tcmp {
    tcmp_row rows[EXIT__COUNT];
    int order[EXIT__COUNT]; /* rows by the reference's time, then the rest */
    int n;
    double total_ref, total, err_total; /* traced usec, or handled usec */
    /* a table has no guest time (perf: neither a traced duration nor a
     * TIMEINGUEST row): the totals are both tables' exit rows (the handled
     * time), time% are of them, and TIMEINGUEST is no major row */
    bool handled;
    double mape, mpe;  /* over major rows, of the sums, in % */
    /* sum over the rows of |pts| (the error the total's change balances),
     * and the part of err_total no row holds (a traced duration that is
     * not the sum of its rows) */
    double pts_abs, pts_rest;
    int n_major;
    double threshold_pct;
} tcmp;

/* Compares; both tables are folded to the seed's layout first when fold
 * is set (one EMULINST row). */
void tcmp_make(tcmp *c, const table *ref, const table *other, bool fold,
               double threshold_pct);

/* Text: one line per row ("type count_ref count diff sum_ref sum diff ...")
 * headed by the two labels; then total, MAPE, MPE, and the total's change
 * by row (each row's pts, largest first, and their absolute sum). */
void tcmp_write_text(FILE *f, const tcmp *c, const char *ref_label,
                     const char *label);
/* {"rows": [{type, count_ref, count, err_count, ...}], "total_ref", ...} */
json_t *tcmp_to_json(const tcmp *c);

/* The columns of tcmp_write's csv, one row per type in the exit enum's
 * order: sums and averages in usec, err_* relative ((new - ref) / ref,
 * empty when ref is 0), share_* the type's percent of all exits of its
 * table (empty for TIMEINGUEST, which is no exit). */
#define TCMP_CSV_HEADER                                                        \
    "type,count_ref,count,err_count,share_ref,share,sum_ref,sum,err_sum,"     \
    "avg_ref,avg,err_avg,time_percent_ref,time_percent"
/* The comparison as one machine document (`sim table diff`, `sim replay
 * --compare`): TFMT_CSV as above, TFMT_JSON {"ref": ref_label, "new":
 * label, "unit": "usec", then tcmp_to_json's keys}. */
SIM_MUST_CHECK sim_err tcmp_write(FILE *f, const tcmp *c,
                                  const char *ref_label, const char *label,
                                  table_fmt fmt);

#endif
