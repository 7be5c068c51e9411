/* table_priv: helpers shared by table.c (model: finish, fold, check, diff)
 * and tableio.c (the five text forms); not part of the public interface. */
#ifndef TABLE_PRIV_H
#define TABLE_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "table.h"

/* Big enough for any double printed as an integer with digit grouping
 * (309 digits + 102 commas). */
#define TABLE_NUMBUF 448

/* x truncated toward zero (as the kernel's integer division), as decimal
 * digits, with 3-digit comma groups if `group`; "-" for NaN/inf. */
const char *table_num_int(char buf[TABLE_NUMBUF], double x, bool group);
/* x with `decimals` digits after the point; "-" for NaN/inf. */
const char *table_num_fixed(char buf[TABLE_NUMBUF], double x, int decimals);

/* A row that has data: listed in the table with a count (or a nonzero sum
 * that table_check will flag). */
bool table_row_has_data(const table_row *r);
/* Display values: the stored one, else derived (sum/count, sum_sq, traced). */
double table_row_avg(const table_row *r);
double table_row_stddev(const table_row *r);
double table_row_time_pct(const table *t, const table_row *r);
/* The row's longest exit (its max) as a share of its sum: over
 * TABLE_ONE_EXIT the sum is mostly that one exit (a host preemption or
 * stall lands where its tick falls) and a change of the row says little
 * about its mechanism (docs/validation.md, "One exit"); NAN when the
 * table gives no max or no sum, and for a row of fewer than 3 exits (its
 * max is half its sum or more by count alone). */
double table_row_top_share(const table_row *r);
#define TABLE_ONE_EXIT 0.5
/* "  (one exit is 78% of the SIDE sum)" for the larger of two shares when
 * it is over TABLE_ONE_EXIT (either may be NAN), else "" */
const char *table_one_exit_mark(char *buf, size_t n, double top_a,
                                const char *side_a, double top_b,
                                const char *side_b);
/* The line explaining that mark, after a table that shows it. */
void table_one_exit_legend(FILE *f);
/* The table distinguishes EMUL_* subtypes (one has data or is listed as
 * never hit). If not, it is in the seed's folded layout and EMUL_* types
 * are neither rows nor "never hit". */
bool table_has_emul_subtypes(const table *t);
/* Indices of rows with data, sorted by sum descending (= time% descending),
 * ties in enum order. Returns how many. */
int table_rows_by_sum(const table *t, int idx[EXIT__COUNT], bool with_guest);
/* Population stddev from count/sum/sum_sq, negative variance clamped. */
double table_stddev_of(uint64_t count, double sum, double sum_sq);

/* table_parse with the debugfs 3.1+ form when tb_per_usec > 0 (tableio.c). */
SIM_MUST_CHECK sim_err table_parse_any(table *t, const char *text, size_t len,
                                       table_fmt fmt, const char *name,
                                       double tb_per_usec);

#endif
