/* table: an exit-timing table (per exit type: count, min, max, sum, sum of
 * squares, avg, stddev, time%) in usec, and its text forms: `kvm` (the seed's
 * layout), `debugfs` (arch/powerpc/kvm/timing.c), `perf` (perf kvm stat
 * report), `csv` and `json`. Parsers accept the seed tables exactly as
 * published, digit-grouping quirks included. */
#ifndef TABLE_H
#define TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exits.h"
#include "sim_err.h"

typedef enum table_fmt {
    TFMT_KVM,
    TFMT_DEBUGFS,
    TFMT_PERF,
    TFMT_CSV,
    TFMT_JSON,
    TFMT__COUNT,
    TFMT_AUTO = -1, /* parsers: guess from the content */
} table_fmt;
const char *table_fmt_name(table_fmt f); /* "kvm" ... */
int table_fmt_from_name(const char *name); /* -1 if unknown */

/* Values are in usec (sum_sq in usec^2). A value a format does not carry is
 * NAN (e.g. sum_sq in a kvm table, which prints stddev instead). */
typedef struct table_row {
    bool present; /* the row appears in the table */
    uint64_t count;
    double min, max, sum, sum_sq;
    double avg, stddev, time_pct;
    unsigned line; /* line it was parsed from, 0 if built */
} table_row;

typedef struct table {
    char title[128];     /* first line of a kvm table ("NO PV support"), or "" */
    double traced_usec;  /* traced duration; NAN if the format lacks it */
    table_row rows[EXIT__COUNT];
    bool never_hit[EXIT__COUNT]; /* listed on a "*never hit" line */
    /* the accounting the table states ("2.6.29" or "3.1": json's
     * "accounting", as sim replay writes it), "" when it does not say */
    char accounting[8];
} table;

void table_init(table *t);

/* Derives avg, stddev (population, as the kernel's exit timing) and time%
 * from count/sum/sum_sq/traced where those are known. */
void table_finish(table *t);

/* The table's number of exits: the counts of its rows but TIMEINGUEST. */
uint64_t table_exits(const table *t);
/* Traced duration, or when unknown the sum of all rows (the kernel's
 * accounting: every usec is charged to exactly one row). */
double table_traced_or_sum(const table *t);
/* The table's time is its exits' alone: it has no TIMEINGUEST row, and no
 * traced duration (perf kvm stat's form: "handled time") or one that is its
 * exit rows' sum (1 usec a row + 0.1%: perf's numbers in the kvm form). Its
 * total
 * compares only with another table's exit rows, never with a traced
 * duration that holds guest time. */
bool table_handled_only(const table *t);
/* The sum of the exit rows, TIMEINGUEST left out (the handled time). */
double table_handled_usec(const table *t);

/* A copy with every EMUL_* row folded into EMULINST (the seed's layout). */
void table_fold_emul(const table *in, table *out);

/* Adds t's rows and traced duration into acc (counts, sums and sums of
 * squares add, min/max extend): the table of the runs together, whose
 * avg and time% are those of the pooled samples. Call table_finish(acc)
 * after the last one. */
void table_accumulate(table *acc, const table *t);

/* Parses text of the given format (TFMT_AUTO guesses). `name` is used in
 * messages: "name:line: what was expected". */
SIM_MUST_CHECK sim_err table_parse(table *t, const char *text, size_t len,
                                   table_fmt fmt, const char *name);
SIM_MUST_CHECK sim_err table_read_file(table *t, const char *path,
                                       table_fmt fmt);

/* Internal consistency: avg ~ sum/count, time% ~ sum/traced, counts of the
 * exit rows add up to TIMEINGUEST's, min <= avg <= max. Writes one line per
 * problem (naming the row's line) to `report` (may be NULL) and returns
 * SIM_ERR_CHECK if any. */
SIM_MUST_CHECK sim_err table_check(const table *t, const char *name,
                                   FILE *report);

typedef struct table_write_opts {
    bool fold_emul;     /* one EMULINST row; kvm/json also print the EMUL_*
                           breakdown beneath it */
    double tb_per_usec; /* debugfs in 3.1+ form when > 0: sum_squared in
                           tick*usec, unused rows min = 0xFFFFFFFF/tb */
    const char *accounting; /* json: "accounting" (how samples were added
                               up: "2.6.29" or "3.1"); NULL: not known */
} table_write_opts;

SIM_MUST_CHECK sim_err table_write(FILE *f, const table *t, table_fmt fmt,
                                   const table_write_opts *o);

/* The json form as a jansson object (new reference) for a caller that puts
 * it into a larger document; NULL if out of memory. */
struct json_t *table_to_json(const table *t, const table_write_opts *o);
/* Writes a jansson document as every json output of sim: 2-space indent,
 * keys in insertion order, a final newline; takes the reference. */
SIM_MUST_CHECK sim_err table_json_dump(FILE *f, struct json_t *root);

/* Side by side with per-row relative differences ((b - a) / a). */
SIM_MUST_CHECK sim_err table_diff(FILE *f, const table *a, const char *name_a,
                                  const table *b, const char *name_b,
                                  bool proportions);

/* Reads the debugfs form of kernels 3.1+, which accumulate timebase ticks
 * and divide once when printing: sum_squared is then in tick*usec and is
 * divided by tb_per_usec (> 0) here to give usec^2. */
SIM_MUST_CHECK sim_err table_parse_debugfs_tb(table *t, const char *text,
                                              size_t len, const char *name,
                                              double tb_per_usec);
/* table_read_file, reading debugfs content (given or detected) in the 3.1+
 * form when tb_per_usec > 0. */
SIM_MUST_CHECK sim_err table_read_file_tb(table *t, const char *path,
                                          table_fmt fmt, double tb_per_usec);

#endif
