/* test_table: exit-timing tables - the seed tables read exactly as
 * published, each text form round-tripped, the consistency checks, folding,
 * and every parse error path with its status and line number. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "tcmp.h"
#include "testlib.h"

#define NOPV "../../validation/hw/ppc440-ubuntu-boot-nopv.txt"
#define PV   "../../validation/hw/ppc440-ubuntu-boot-pv.txt"

static char *data_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", test_data_dir(), rel);
    return buf;
}

/* Reads a committed table; a failure is reported with its message. */
static void load(table *t, const char *rel)
{
    sim_err e = table_read_file(t, data_path(rel), TFMT_AUTO);
    if (e != SIM_OK)
        fprintf(stderr, "\n%s\n", sim_errmsg());
    CU_ASSERT_EQUAL_FATAL(e, SIM_OK);
}

static sim_err parse(table *t, const char *text, table_fmt fmt)
{
    return table_parse(t, text, strlen(text), fmt, "t");
}

/* Writes t as fmt into a malloc'd string. */
static char *write_str(const table *t, table_fmt fmt, bool fold)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    table_write_opts o = {.fold_emul = fold};
    CU_ASSERT_EQUAL(table_write(f, t, fmt, &o), SIM_OK);
    fclose(f);
    return buf;
}

static char *check_report(const table *t, sim_err *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    *e = table_check(t, "t", f);
    fclose(f);
    return buf;
}

/* Writes a as fmt, reads it back into b. */
static void round_trip(const table *a, table *b, table_fmt fmt)
{
    char *s = write_str(a, fmt, false);
    sim_err e = table_parse(b, s, strlen(s), fmt, "rt");
    if (e != SIM_OK)
        fprintf(stderr, "\n%s\n%s\n", sim_errmsg(), s);
    CU_ASSERT_EQUAL_FATAL(e, SIM_OK);
    free(s);
}

#define CU_ASSERT_NEAR(a, b, tol)                                              \
    CU_ASSERT(fabs((double)(a) - (double)(b)) <= (tol))

/* ---- the seed tables ---- */

static void test_seed_nopv_exact(void)
{
    table t;
    load(&t, NOPV);
    CU_ASSERT_STRING_EQUAL(t.title, "NO PV support");
    CU_ASSERT_EQUAL(t.traced_usec, 202244233.0);
    const table_row *r = &t.rows[EXIT_EMULINST];
    CU_ASSERT(r->present);
    CU_ASSERT_EQUAL(r->count, 6423699);
    CU_ASSERT_EQUAL(r->min, 12.0);
    CU_ASSERT_EQUAL(r->max, 247582.0);
    CU_ASSERT_EQUAL(r->sum, 91732705.0);
    CU_ASSERT_EQUAL(r->avg, 14.2804);
    CU_ASSERT_EQUAL(r->stddev, 241.2);
    CU_ASSERT_EQUAL(r->time_pct, 45.36);
    CU_ASSERT(isnan(r->sum_sq)); /* the kvm layout does not carry it */
    CU_ASSERT_EQUAL(r->line, 10);
    CU_ASSERT_EQUAL(t.rows[EXIT_TIMEINGUEST].sum, 10861792.0);
    CU_ASSERT_EQUAL(t.rows[EXIT_TIMEINGUEST].count, 10000000);
    CU_ASSERT(t.never_hit[EXIT_HCALL] && t.never_hit[EXIT_DTLBPV]);
    CU_ASSERT(!t.rows[EXIT_HCALL].present);
}

static void test_seed_pv_irregular_grouping(void)
{
    table t;
    load(&t, PV);
    CU_ASSERT_EQUAL(t.rows[EXIT_TIMEINGUEST].sum, 7259180.0); /* "7259,180" */
    CU_ASSERT_EQUAL(t.rows[EXIT_MMIO].sum, 3570654.0);        /* "3570,654" */
    CU_ASSERT_EQUAL(t.rows[EXIT_HCALL].count, 1);
    CU_ASSERT_EQUAL(t.traced_usec, 136640181.0);
}

static uint64_t exit_count(const table *t)
{
    uint64_t n = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (i != EXIT_TIMEINGUEST && t->rows[i].present)
            n += t->rows[i].count;
    return n;
}

static void test_seeds_pass_check(void)
{
    table a, b;
    load(&a, NOPV);
    load(&b, PV);
    CU_ASSERT_EQUAL(exit_count(&a), 10000000);
    CU_ASSERT_EQUAL(exit_count(&b), 6000000);
    CU_ASSERT_EQUAL(table_check(&a, "nopv", stderr), SIM_OK);
    CU_ASSERT_EQUAL(table_check(&b, "pv", stderr), SIM_OK);
}

/* ---- consistency ---- */

static void test_broken_avg_fails_check_with_line(void)
{
    table t;
    load(&t, "table_bad_avg.txt");
    sim_err e;
    char *rep = check_report(&t, &e);
    CU_ASSERT_EQUAL(e, SIM_ERR_CHECK);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(rep, "t:7: EMULINST: avg 14.3000 but sum/count = 14.2804"));
    free(rep);
}

static void test_counts_must_add_up(void)
{
    table t;
    load(&t, NOPV);
    t.rows[EXIT_DSI].count -= 1;
    t.rows[EXIT_DSI].avg =
        t.rows[EXIT_DSI].sum / (double)t.rows[EXIT_DSI].count;
    sim_err e;
    char *rep = check_report(&t, &e);
    CU_ASSERT_EQUAL(e, SIM_ERR_CHECK);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep, "TIMEINGUEST: count 10,000,000 but the "
                                       "exit rows add up to 9,999,999"));
    free(rep);
}

static void test_time_pct_must_match_traced(void)
{
    table t;
    load(&t, NOPV);
    t.rows[EXIT_DEC].time_pct = 0.75; /* 100*sum/traced = 0.7125 */
    sim_err e;
    char *rep = check_report(&t, &e);
    CU_ASSERT_EQUAL(e, SIM_ERR_CHECK);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep, "DEC: time% 0.75 but"));
    free(rep);
}

static void test_stddev_from_sum_squared(void)
{
    /* the seed's FP_UNAVAIL: 303 exits of 11 usec and 5 of 12 */
    table t;
    table_init(&t);
    t.rows[EXIT_FP_UNAVAIL] = (table_row){.present = true,
                                          .count = 308,
                                          .min = 11,
                                          .max = 12,
                                          .sum = 303 * 11 + 5 * 12,
                                          .sum_sq = 303 * 121 + 5 * 144,
                                          .avg = NAN,
                                          .stddev = NAN,
                                          .time_pct = NAN};
    table_finish(&t);
    CU_ASSERT_NEAR(t.rows[EXIT_FP_UNAVAIL].avg, 11.0162, 0.00005);
    CU_ASSERT_NEAR(t.rows[EXIT_FP_UNAVAIL].stddev, 0.126, 0.0005);
}

static void test_finish_keeps_parsed_avg_without_sum_sq(void)
{
    table t;
    load(&t, "table_bad_avg.txt");
    table_finish(&t);
    CU_ASSERT_EQUAL(t.rows[EXIT_EMULINST].avg, 14.30);
    CU_ASSERT_NEAR(t.rows[EXIT_EMULINST].time_pct, 45.3574, 0.0001);
}

/* ---- round trips ---- */

static void assert_same_rows(const table *a, const table *b, double avg_tol)
{
    for (int i = 0; i < EXIT__COUNT; i++) {
        const table_row *x = &a->rows[i], *y = &b->rows[i];
        CU_ASSERT_EQUAL(x->present, y->present);
        if (!x->present)
            continue;
        CU_ASSERT_EQUAL(x->count, y->count);
        CU_ASSERT_EQUAL(x->min, y->min);
        CU_ASSERT_EQUAL(x->max, y->max);
        CU_ASSERT_EQUAL(x->sum, y->sum);
        CU_ASSERT_NEAR(x->avg, y->avg, avg_tol);
        CU_ASSERT_NEAR(x->stddev, y->stddev, 0.0005);
        CU_ASSERT_NEAR(x->time_pct, y->time_pct, 0.005);
    }
}

static void test_round_trip_kvm_csv_kvm(void)
{
    table a, b, c;
    load(&a, PV);
    round_trip(&a, &b, TFMT_CSV);
    round_trip(&b, &c, TFMT_KVM);
    assert_same_rows(&a, &c, 0.00005);
    /* csv has no traced line: the sum of all rows, TIMEINGUEST included */
    CU_ASSERT_EQUAL(c.traced_usec, a.traced_usec);
    CU_ASSERT_EQUAL(table_check(&c, "c", stderr), SIM_OK);
}

static void test_round_trip_kvm_json_kvm(void)
{
    table a, b, c;
    load(&a, NOPV);
    round_trip(&a, &b, TFMT_JSON);
    round_trip(&b, &c, TFMT_KVM);
    assert_same_rows(&a, &c, 0.00005);
    CU_ASSERT_STRING_EQUAL(c.title, "NO PV support");
    CU_ASSERT_EQUAL(c.traced_usec, a.traced_usec);
    CU_ASSERT(c.never_hit[EXIT_HCALL]);
}

static void test_round_trip_debugfs(void)
{
    table a, b;
    load(&a, NOPV);
    round_trip(&a, &b, TFMT_DEBUGFS);
    for (int i = 0; i < EXIT__COUNT; i++) {
        CU_ASSERT_EQUAL(a.rows[i].present, b.rows[i].present);
        if (!a.rows[i].present)
            continue;
        CU_ASSERT_EQUAL(a.rows[i].count, b.rows[i].count);
        CU_ASSERT_EQUAL(a.rows[i].min, b.rows[i].min);
        CU_ASSERT_EQUAL(a.rows[i].max, b.rows[i].max);
        CU_ASSERT_EQUAL(a.rows[i].sum, b.rows[i].sum);
        /* sum_squared rebuilt from the 3-decimal stddev */
        CU_ASSERT_NEAR(a.rows[i].stddev, b.rows[i].stddev,
                       0.0005 + 1e-4 * a.rows[i].stddev);
    }
    CU_ASSERT_EQUAL(b.traced_usec, a.traced_usec); /* sum of all rows */
    CU_ASSERT_EQUAL(b.rows[EXIT_FP_UNAVAIL].sum_sq, 303 * 121 + 5 * 144);
}

static void test_round_trip_debugfs_3_1_form(void)
{
    table a, b;
    load(&a, "table_emul_debugfs.txt");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    table_write_opts o = {.tb_per_usec = 667};
    CU_ASSERT_EQUAL(table_write(f, &a, TFMT_DEBUGFS, &o), SIM_OK);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "6439231")); /* 0xFFFFFFFF / 667 */
    CU_ASSERT_EQUAL(table_parse_debugfs_tb(&b, buf, len, "tb", 667), SIM_OK);
    for (int i = 0; i < EXIT__COUNT; i++)
        if (a.rows[i].present)
            CU_ASSERT_NEAR(b.rows[i].sum_sq, a.rows[i].sum_sq, 0.5 / 667);
    free(buf);
}

static void test_round_trip_perf(void)
{
    table a, b;
    load(&a, NOPV);
    round_trip(&a, &b, TFMT_PERF);
    CU_ASSERT(!b.rows[EXIT_TIMEINGUEST].present); /* perf has no guest row */
    CU_ASSERT(isnan(b.traced_usec));
    for (int i = 0; i < EXIT__COUNT; i++) {
        if (i == EXIT_TIMEINGUEST || !a.rows[i].present)
            continue;
        CU_ASSERT_EQUAL(a.rows[i].count, b.rows[i].count);
        CU_ASSERT_NEAR(a.rows[i].min, b.rows[i].min, 0.005);
        CU_ASSERT_NEAR(a.rows[i].max, b.rows[i].max, 0.005);
        CU_ASSERT_NEAR(a.rows[i].avg, b.rows[i].avg, 0.005);
    }
    CU_ASSERT_EQUAL(table_check(&b, "perf", stderr), SIM_OK);
}

static void test_round_trip_fold_breakdown(void)
{
    /* a folded kvm table keeps its EMUL_* rows in the breakdown block */
    table a, b;
    load(&a, "table_emul.txt");
    char *s = write_str(&a, TFMT_KVM, true);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\nEMULINST breakdown\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n(other) 310 "));
    CU_ASSERT_EQUAL(table_parse(&b, s, strlen(s), TFMT_KVM, "f"), SIM_OK);
    assert_same_rows(&a, &b, 0.00005);
    free(s);
}

/* ---- folding and writers ---- */

static void test_fold_emul_sums(void)
{
    table a, f;
    load(&a, "table_emul_debugfs.txt");
    table_fold_emul(&a, &f);
    uint64_t n = 0;
    double sum = 0, sq = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (i == EXIT_EMULINST || exit_is_emul((exit_type)i)) {
            if (exit_is_emul((exit_type)i))
                CU_ASSERT(!f.rows[i].present);
            if (!a.rows[i].present)
                continue;
            n += a.rows[i].count;
            sum += a.rows[i].sum;
            sq += a.rows[i].sum_sq;
        }
    const table_row *r = &f.rows[EXIT_EMULINST];
    CU_ASSERT_EQUAL(r->count, 2110);
    CU_ASSERT_EQUAL(r->count, n);
    CU_ASSERT_EQUAL(r->sum, sum);
    CU_ASSERT_EQUAL(r->sum_sq, sq);
    CU_ASSERT_EQUAL(r->min, 11); /* EMUL_WRTEE's */
    CU_ASSERT_EQUAL(r->max, 73); /* EMUL_TLBWE's */
    CU_ASSERT_NEAR(r->avg, sum / (double)n, 1e-12);
    CU_ASSERT_EQUAL(table_check(&f, "folded", stderr), SIM_OK);
}

static void test_fold_emul_in_place(void)
{
    table a, f;
    load(&a, "table_emul.txt");
    table_fold_emul(&a, &f);
    table_fold_emul(&a, &a);
    const table_row *x = &a.rows[EXIT_EMULINST], *y = &f.rows[EXIT_EMULINST];
    CU_ASSERT_EQUAL(x->count, y->count);
    CU_ASSERT_EQUAL(x->sum, y->sum);
    CU_ASSERT_EQUAL(x->min, y->min);
    CU_ASSERT_EQUAL(x->max, y->max);
    CU_ASSERT_EQUAL(x->stddev, y->stddev);
    CU_ASSERT_EQUAL(x->time_pct, y->time_pct);
    CU_ASSERT(!a.rows[EXIT_EMUL_RFI].present);
    /* without sum_squared, the folded stddev comes from each part's avg
     * and stddev: the exact value from table_emul_debugfs.txt is 6.421 */
    CU_ASSERT_NEAR(a.rows[EXIT_EMULINST].stddev, 6.421, 0.0005);
}

static void test_kvm_never_hit_in_enum_order(void)
{
    table t;
    load(&t, NOPV);
    char *s = write_str(&t, TFMT_KVM, false);
    /* the seed's table is folded: EMUL_* are not "never hit" */
    CU_ASSERT_PTR_NOT_NULL(
        strstr(s, "\n*never hit HALT, USR_PR_INST, DEBUG, DTLBPV, HCALL\n"));
    free(s);
}

static void test_kvm_writer_groups_digits(void)
{
    table t;
    load(&t, PV);
    char *s = write_str(&t, TFMT_KVM, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(
        s, "\nTIMEINGUEST 6,000,000 0 3,846 7,259,180 1.2099 9.317 5.31\n"));
    free(s);
}

static void test_csv_has_exact_header(void)
{
    table t;
    load(&t, NOPV);
    char *s = write_str(&t, TFMT_CSV, false);
    const char *want = "type,count,min,max,sum,avg,stddev,time_percent\n"
                       "MMIO,9318,47,10686,3544934,380.4394,507.292,1.75\n";
    CU_ASSERT_EQUAL(strncmp(s, want, strlen(want)), 0);
    free(s);
}

static void test_auto_detects_each_format(void)
{
    table a, b;
    load(&a, NOPV);
    for (int f = 0; f < TFMT__COUNT; f++) {
        char *s = write_str(&a, (table_fmt)f, false);
        CU_ASSERT_EQUAL(table_parse(&b, s, strlen(s), TFMT_AUTO, "auto"),
                        SIM_OK);
        CU_ASSERT_EQUAL(b.rows[EXIT_EMULINST].count, 6423699);
        free(s);
    }
}

static void test_diff_side_by_side(void)
{
    table a, b;
    load(&a, NOPV);
    load(&b, PV);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(table_diff(f, &a, "nopv", &b, "pv", false), SIM_OK);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "EMULINST         6,423,699     "
                                       "3,160,786   -50.8%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "DTLBPV                   0        "
                                       "46,941      new"));
    free(buf);
}

/* ---- parse errors: status and line ---- */

#define HEAD_AFTER_TITLE                                                       \
    "unit is usec\ntraced duration 100 usec\n"                                 \
    "type count min max sum avg stddev time%\n"
#define HEAD "NO PV support\n" HEAD_AFTER_TITLE

static void expect_error(const char *text, table_fmt fmt, sim_err want,
                         const char *msg)
{
    table t;
    sim_err e = parse(&t, text, fmt);
    CU_ASSERT_EQUAL(e, want);
    if (!strstr(sim_errmsg(), msg))
        fprintf(stderr, "\nwant '%s' in '%s'\n", msg, sim_errmsg());
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), msg));
}

static void test_error_unknown_type(void)
{
    expect_error(HEAD "EMULINS 1 2 2 2 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: unknown exit type 'EMULINS' (did you mean EMULINST?)");
}

static void test_error_duplicate_row(void)
{
    expect_error(HEAD "DEC 1 2 2 2 2.0 0 2.00\nDEC 1 2 2 2 2.0 0 2.00\n",
                 TFMT_KVM, SIM_ERR_FORMAT,
                 "t:6: expected one row per type (the first DEC is at line "
                 "5), found a second 'DEC' row");
}

static void test_error_missing_columns(void)
{
    expect_error(HEAD "DEC 1 2 2 2 2.0 0\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: expected 8 columns");
}

/* A table copied from a web page or an HTML mail: no-break spaces (UTF-8
 * C2 A0) between its columns and words read as blanks (they made
 * "unknown exit type 'DEC\xc2\xa016,937'"); digits grouped by a blank
 * are named as the likely cause of a ninth column. */
static void test_nbsp_is_blank(void)
{
    table t;
#define NBSP "\xc2\xa0"
    const char *nb = "NO PV support\nunit" NBSP "is usec\n"
                     "type count min max sum avg stddev time%\n"
                     "DEC" NBSP "16,937" NBSP NBSP "50 4,866 1,441,084 "
                     "85.0850 203.856 0.71" NBSP "\n"
                     "*never hit" NBSP "HALT," NBSP "DEBUG\n";
#undef NBSP
    CU_ASSERT_EQUAL_FATAL(parse(&t, nb, TFMT_KVM), SIM_OK);
    CU_ASSERT_EQUAL(t.rows[EXIT_DEC].count, 16937);
    CU_ASSERT_EQUAL(t.rows[EXIT_DEC].min, 50);
    CU_ASSERT(t.never_hit[EXIT_HALT] && t.never_hit[EXIT_DEBUG]);
    expect_error(HEAD "DEC 16 937 50 4,866 1,441,084 85.0850 203.856 0.71\n",
                 TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: expected end of line after 8 columns (digits grouped "
                 "by a blank? only ',' groups digits), found '0.71'");
}

/* A title in Latin-1 (a mail's "R\xe9sultats") is written to JSON as
 * UTF-8: jansson refused the bytes and the writer failed, "out of
 * memory". */
static void test_latin1_title_to_json(void)
{
    table t;
    CU_ASSERT_EQUAL_FATAL(parse(&t, "R\xe9sultats\n" HEAD_AFTER_TITLE
                                    "DEC 1 2 2 2 2.0 0 2.00\n",
                                TFMT_KVM),
                          SIM_OK);
    char *j = write_str(&t, TFMT_JSON, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"title\": \"R\xc3\xa9sultats\""));
    free(j);
}

/* A spreadsheet's csv: names quoted, numbers formatted with digit
 * groups (then quoted, as they hold commas), CRLF line ends; the header
 * quoted too, and detected. Refused before: "unknown exit type
 * '"MMIO"'". A quote left open is named. */
static void test_csv_quoted_fields(void)
{
    table t;
    const char *q = "\"type\",\"count\",\"min\",\"max\",\"sum\",\"avg\","
                    "\"stddev\",\"time_percent\"\r\n"
                    "\"MMIO\",\"9,318\",47,\"10,686\",\"3,544,934\",380.4394,"
                    "507.292,1.75\r\n";
    CU_ASSERT_EQUAL_FATAL(parse(&t, q, TFMT_AUTO), SIM_OK);
    CU_ASSERT_EQUAL(t.rows[EXIT_MMIO].count, 9318);
    CU_ASSERT_EQUAL(t.rows[EXIT_MMIO].max, 10686);
    CU_ASSERT_EQUAL(t.rows[EXIT_MMIO].sum, 3544934);
    expect_error("type,count,min,max,sum,avg,stddev,time_percent\n"
                 "\"MMIO,9318,47,10686,3544934,380.4394,507.292,1.75\n",
                 TFMT_CSV, SIM_ERR_FORMAT, "t:2: expected a closing '\"'");
    /* digit groups only inside quotes: unquoted, the comma ends a field */
    expect_error("type,count,min,max,sum,avg,stddev,time_percent\n"
                 "MMIO,9,318,47,10686,3544934,380.4394,507.292,1.75\n",
                 TFMT_CSV, SIM_ERR_FORMAT,
                 "t:2: expected end of line after 8 fields");
}

/* 3.5+'s unnamed rows ("(null)": RFCI, DBELL, GDBELL) as the debugfs
 * file prints them, in a table made from it (kvm, csv): unused, they are
 * skipped as in debugfs (they were "unknown exit type '(null)' (did you
 * mean HCALL?)"); with exits, refused. */
static void test_null_rows(void)
{
    table t;
    CU_ASSERT_EQUAL(parse(&t, HEAD "DEC 1 2 2 2 2.0 0 2.00\n"
                                   "(null) 0 0 0 0 0.0000 0.000 0.00\n",
                          TFMT_KVM),
                    SIM_OK);
    CU_ASSERT_EQUAL(t.rows[EXIT_DEC].count, 1);
    CU_ASSERT_EQUAL(parse(&t, "type,count,min,max,sum,avg,stddev,"
                              "time_percent\nDEC,1,2,2,2,2.0,0,2.00\n"
                              "(null),0,0,0,0,,,\n",
                          TFMT_CSV),
                    SIM_OK);
    expect_error(HEAD "(null) 3 2 2 6 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: expected count 0 in an unnamed '(null)' row");
}

/* A decimal comma (a European table: "14,2804", "45,36") was read as a
 * digit group, the avg 10^4 times itself; the column with decimals names
 * it. A grouped value with its point ("10,304.0000") stays fine. */
static void test_decimal_comma(void)
{
    expect_error(HEAD "DEC 1 2 2 2 2,0000 0 2.00\n", TFMT_KVM,
                 SIM_ERR_FORMAT,
                 "t:5: expected a number for avg with '.' as its decimal "
                 "point (',' groups digits: a decimal comma?), found "
                 "'2,0000'");
    expect_error(HEAD "DEC 1 2 2 2 2.0000 0 2,00\n", TFMT_KVM,
                 SIM_ERR_FORMAT, "found '2,00'");
    table t;
    CU_ASSERT_EQUAL(parse(&t, "x\nunit is usec\ntraced duration 10,304 usec\n"
                              "type count min max sum avg stddev time%\n"
                              "SIGNAL 1 10,304 10,304 10,304 10,304.0000 "
                              "0.000 100.00\n",
                          TFMT_KVM),
                    SIM_OK);
    CU_ASSERT_EQUAL(t.rows[EXIT_SIGNAL].avg, 10304);
}

static void test_error_non_numeric(void)
{
    expect_error(HEAD "DEC 1 2 x2 2 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: expected a number for max, found 'x2'");
}

static void test_error_negative(void)
{
    expect_error(HEAD "DEC 1 -2 2 2 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: expected a non-negative min, found '-2'");
    expect_error(HEAD "DEC -1 2 2 2 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: expected a non-negative count, found '-1'");
}

static void test_error_count_overflow(void)
{
    expect_error(HEAD "DEC 18,446,744,073,709,551,616 2 2 2 2.0 0 2.00\n",
                 TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: expected a count below "
                 "2^64, found '18,446,744,073,709,551,616' (count overflow)");
}

static void test_error_missing_header(void)
{
    expect_error("NO PV support\nunit is usec\ntraced duration 100 usec\n"
                 "DEC 1 2 2 2 2.0 0 2.00\n",
                 TFMT_KVM, SIM_ERR_FORMAT,
                 "t:4: expected header 'type count min max sum avg stddev "
                 "time%', found 'DEC 1 2 2 2 2.0 0 2.00'");
    expect_error("DEC 1 2 2 2 0\n", TFMT_DEBUGFS, SIM_ERR_FORMAT,
                 "t:1: expected header 'type count min max sum sum_squared'");
}

static void test_error_empty_file(void)
{
    expect_error("", TFMT_AUTO, SIM_ERR_FORMAT, "t: empty file");
    expect_error("# only a comment\n\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t: empty file");
}

static void test_error_nan_is_range(void)
{
    expect_error(HEAD "DEC 1 2 2 nan 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_RANGE,
                 "t:5: sum is not a finite number: 'nan'");
    expect_error(HEAD "DEC 1 2 2 1e999 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_RANGE,
                 "t:5: sum is not a finite number");
}

static void test_error_min_above_max_is_range(void)
{
    expect_error(HEAD "DEC 1 3 2 2 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_RANGE,
                 "t:5: DEC: min 3 > max 2");
}

static void test_error_bad_grouping(void)
{
    expect_error(HEAD "DEC 1 2 2 2,,0 2.0 0 2.00\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t:5: expected a number for sum, found '2,,0'");
}

static void test_error_never_hit_with_row(void)
{
    expect_error(HEAD "DEC 1 2 2 2 2.0 0 2.00\n*never hit HALT, DEC\n",
                 TFMT_KVM, SIM_ERR_FORMAT,
                 "t:6: expected a type without a row (DEC has one at line "
                 "5), found 'DEC'");
}

/* "*never  hit" with blanks between the words as between columns: the
 * never-hit line, not a row of an exit type "*never" */
static void test_never_hit_any_blanks(void)
{
    table t;
    sim_err e = parse(&t, HEAD "DEC 1 2 2 2 2.0 0 2.00\n*never  \thit HALT,  "
                               "DEBUG\n", TFMT_KVM);
    if (e != SIM_OK)
        fprintf(stderr, "\n%s\n", sim_errmsg());
    CU_ASSERT_EQUAL_FATAL(e, SIM_OK);
    CU_ASSERT(t.never_hit[EXIT_HALT]);
    CU_ASSERT(t.never_hit[EXIT_DEBUG]);
    CU_ASSERT(!t.never_hit[EXIT_DEC]);
}

static void test_error_wrong_unit(void)
{
    expect_error("x\nunit is tb\n", TFMT_KVM, SIM_ERR_FORMAT,
                 "t:2: expected unit 'usec', found 'tb'");
}

static void test_error_csv_fields(void)
{
    expect_error("type,count,min,max,sum,avg,stddev,time_percent\n"
                 "DEC,1,2,2,2,2.0\n",
                 TFMT_CSV, SIM_ERR_FORMAT, "t:2: expected 8 fields");
}

static void test_error_json_line_column(void)
{
    expect_error("{\n  \"rows\": [\n    {\"type\": \"DEC\",}\n  ]\n}\n",
                 TFMT_JSON, SIM_ERR_FORMAT, "t:3:");
    expect_error("{\"rows\": [{\"type\": \"DECC\", \"count\": 1, \"min\": 1, "
                 "\"max\": 1, \"sum\": 1}]}",
                 TFMT_JSON, SIM_ERR_FORMAT,
                 "t: rows[0]: unknown exit type 'DECC' (did you mean DEC?)");
}

static void test_error_json_unknown_keys(void)
{
    /* the first unknown key is named, at the top level and in a row; known
     * ones before it pass */
    expect_error("{\"title\": \"x\", \"unit\": \"usec\", \"colour\": 1, "
                 "\"size\": 2, \"rows\": []}",
                 TFMT_JSON, SIM_ERR_FORMAT,
                 "t: expected a key (title unit accounting traced_duration "
                 "rows never_hit emulinst_breakdown), found 'colour'");
    expect_error("{\"rows\": [{\"type\": \"DEC\", \"count\": 1, \"min\": 1, "
                 "\"max\": 1, \"sum\": 1}, {\"type\": \"MMIO\", "
                 "\"count\": 1, \"mean\": 1}]}",
                 TFMT_JSON, SIM_ERR_FORMAT,
                 "t: rows[1]: expected a row key (type count min max sum "
                 "sum_squared avg stddev time_percent), found 'mean'");
}

static void test_error_perf_total_mismatch(void)
{
    expect_error("             VM-EXIT    Samples  Samples%     Time%    Min "
                 "Time    Max Time         Avg time\n\n"
                 "                 DEC         10   100.00%   100.00%     "
                 "50.00us     60.00us     55.00us ( +-   1.00% )\n\n"
                 "Total Samples:11, Total events handled time:550.00us.\n",
                 TFMT_PERF, SIM_ERR_FORMAT,
                 "t:5: expected Total Samples to be the rows' sum 10, found "
                 "11");
}

static void test_error_debugfs_null_row_used(void)
{
    expect_error("type count min max sum sum_squared\n"
                 "(null) 3 1 1 3 3\n",
                 TFMT_DEBUGFS, SIM_ERR_FORMAT,
                 "t:2: expected count 0 in an unnamed '(null)' row");
}

static void test_read_file_size_cap(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/table_too_big.txt", test_tmp_dir());
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char block[1 << 16];
    memset(block, '#', sizeof block);
    for (int i = 0; i < 257; i++) /* 16 MiB + 64 kB */
        fwrite(block, 1, sizeof block, f);
    fclose(f);
    table t;
    CU_ASSERT_EQUAL(table_read_file(&t, path, TFMT_AUTO), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "larger than 16 MiB"));
    remove(path);
}

static void test_read_file_missing(void)
{
    table t;
    CU_ASSERT_EQUAL(
        table_read_file(&t, data_path("no-such-table.txt"), TFMT_AUTO),
        SIM_ERR_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "no-such-table.txt"));
}

/* Pooled runs (sim validate's seeds): counts, sums and sums of squares
 * add, min/max extend, the traced durations add; avg and time% are the
 * pooled samples'. */
static void test_accumulate_pools_runs(void)
{
    static const char a[] = "type,count,min,max,sum,avg,stddev,time_percent\n"
                            "MMIO,2,10,30,40,20,10,40\n"
                            "SYSCALL,3,1,3,6,2,0.816497,6\n";
    static const char b[] = "type,count,min,max,sum,avg,stddev,time_percent\n"
                            "MMIO,1,50,50,50,50,0,25\n"
                            "DEC,1,4,4,4,4,0,2\n";
    table ta, tb, acc;
    CU_ASSERT_EQUAL_FATAL(table_parse(&ta, a, strlen(a), TFMT_CSV, "a"), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(table_parse(&tb, b, strlen(b), TFMT_CSV, "b"), SIM_OK);
    ta.traced_usec = 100;
    tb.traced_usec = 200;
    table_init(&acc);
    table_accumulate(&acc, &ta);
    table_accumulate(&acc, &tb);
    table_finish(&acc);
    CU_ASSERT_DOUBLE_EQUAL(acc.traced_usec, 300, 1e-9);
    const table_row *m = &acc.rows[EXIT_MMIO];
    CU_ASSERT_EQUAL(m->count, 3);
    CU_ASSERT_DOUBLE_EQUAL(m->sum, 90, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m->min, 10, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m->max, 50, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m->avg, 30, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m->time_pct, 30, 1e-9);
    /* samples 10, 30, 50: population stddev sqrt(800/3) */
    CU_ASSERT_DOUBLE_EQUAL(m->stddev, sqrt(800.0 / 3), 1e-6);
    CU_ASSERT_EQUAL(acc.rows[EXIT_SYSCALL].count, 3);
    CU_ASSERT_EQUAL(acc.rows[EXIT_DEC].count, 1);
    CU_ASSERT_FALSE(acc.rows[EXIT_DTLBVIRT].present);
}

/* tcmp_write_text's text of a comparison (malloc'd) */
static char *tcmp_text(const tcmp *c, const char *ref, const char *label)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    tcmp_write_text(f, c, ref, label);
    fclose(f);
    return buf;
}

/* Whether the line of row `name` in text carries the one-exit mark. */
static bool row_marked(const char *text, const char *name, const char *mark)
{
    char key[32];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *row = strstr(text, key);
    CU_ASSERT_PTR_NOT_NULL_FATAL(row);
    const char *eol = strchr(row + 1, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(eol);
    const char *m = strstr(row, mark);
    return m && m < eol;
}

/* sim validate's and sim whatif's comparison: each row's part of the
 * total's change, in points of the ref's total, adds up with what no row
 * holds to the total's change; the text says it, largest row first. */
static void test_tcmp_points_add_up(void)
{
    table a, b;
    load(&a, NOPV);
    load(&b, PV);
    tcmp c;
    tcmp_make(&c, &a, &b, true, 1.0);
    double sum = 0, abs_sum = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (isfinite(c.rows[i].pts)) {
            sum += c.rows[i].pts;
            abs_sum += fabs(c.rows[i].pts);
        }
    CU_ASSERT_DOUBLE_EQUAL(sum + c.pts_rest, c.err_total, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(abs_sum, c.pts_abs, 1e-12);
    /* EMULINST: 91,732,705 -> 50,808,972 usec of 202,244,233 */
    CU_ASSERT_DOUBLE_EQUAL(c.rows[EXIT_EMULINST].pts,
                           (50808972.0 - 91732705.0) / 202244233.0, 1e-9);
    /* the seed's traced durations are their rows' sums to a few usec */
    CU_ASSERT(fabs(c.pts_rest) < 1e-6);
    char *buf = tcmp_text(&c, "no-PV", "PV");
    CU_ASSERT_PTR_NOT_NULL(strstr(
        buf, "the total's -32.4% by row, in points of the ref's total: "
             "EMULINST -20.2, ITLBVIRT -5.9, DTLBVIRT -4.6, TIMEINGUEST -1.8"));
    free(buf);
    /* no ref total: no points, no line */
    table e;
    table_init(&e);
    table_finish(&e);
    tcmp_make(&c, &e, &b, true, 1.0);
    CU_ASSERT_FALSE(isfinite(c.rows[EXIT_EMULINST].pts));
}

/* A row whose sum is mostly one exit is marked in the comparison (its
 * change is where that exit fell): the seed PV table's SIGNAL, 264,544 of
 * 339,911 usec; HCALL's one exit is not (a row of 1 or 2 exits is half
 * its max by count alone), nor is EMULINST (247,587 of 50.8 s). */
static void test_tcmp_marks_one_exit_rows(void)
{
    table a, b;
    load(&a, NOPV);
    load(&b, PV);
    tcmp c;
    tcmp_make(&c, &a, &b, true, 1.0);
    CU_ASSERT_DOUBLE_EQUAL(c.rows[EXIT_SIGNAL].top, 264544.0 / 339911.0,
                           1e-12);
    CU_ASSERT_DOUBLE_EQUAL(c.rows[EXIT_SIGNAL].top_ref, 6025.0 / 72438.0,
                           1e-12);
    CU_ASSERT_FALSE(isfinite(c.rows[EXIT_HCALL].top));
    CU_ASSERT(c.rows[EXIT_EMULINST].top < 0.01);
    char *buf = tcmp_text(&c, "no-PV", "PV");
    CU_ASSERT(row_marked(buf, "SIGNAL", "  (one exit is 78% of the new sum)"));
    CU_ASSERT_FALSE(row_marked(buf, "HCALL", "one exit is"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "a row marked 'one exit is N% of a "
                                       "sum' has more than half"));
    free(buf);
    /* the same tables the other way round: the ref side is named */
    tcmp_make(&c, &b, &a, true, 1.0);
    buf = tcmp_text(&c, "PV", "no-PV");
    CU_ASSERT(row_marked(buf, "SIGNAL", "  (one exit is 78% of the ref sum)"));
    free(buf);
    /* a comparison without such a row has no legend */
    tcmp_make(&c, &a, &a, true, 1.0);
    buf = tcmp_text(&c, "no-PV", "no-PV");
    CU_ASSERT_PTR_NULL(strstr(buf, "one exit is"));
    free(buf);
}

static CU_TestInfo tests[] = {
    {"accumulate pools runs", test_accumulate_pools_runs},
    {"tcmp: rows that are mostly one exit are marked",
     test_tcmp_marks_one_exit_rows},
    {"tcmp: the rows' points add up to the total", test_tcmp_points_add_up},
    {"seed no-PV parses with exact values", test_seed_nopv_exact},
    {"seed PV: 7259,180 is 7259180", test_seed_pv_irregular_grouping},
    {"both seeds pass table_check", test_seeds_pass_check},
    {"broken avg fails table_check naming the line",
     test_broken_avg_fails_check_with_line},
    {"exit counts must add up to TIMEINGUEST", test_counts_must_add_up},
    {"time% must match sum/traced", test_time_pct_must_match_traced},
    {"stddev from sum_squared (FP_UNAVAIL)", test_stddev_from_sum_squared},
    {"finish keeps a parsed avg without sum_sq",
     test_finish_keeps_parsed_avg_without_sum_sq},
    {"round trip kvm -> csv -> kvm", test_round_trip_kvm_csv_kvm},
    {"round trip kvm -> json -> kvm", test_round_trip_kvm_json_kvm},
    {"round trip debugfs", test_round_trip_debugfs},
    {"round trip debugfs 3.1+ form", test_round_trip_debugfs_3_1_form},
    {"round trip perf", test_round_trip_perf},
    {"round trip folded kvm with breakdown", test_round_trip_fold_breakdown},
    {"fold_emul sums the EMUL_* rows", test_fold_emul_sums},
    {"fold_emul in place", test_fold_emul_in_place},
    {"kvm never-hit line in enum order", test_kvm_never_hit_in_enum_order},
    {"kvm writer groups digits by 3", test_kvm_writer_groups_digits},
    {"csv header and rows", test_csv_has_exact_header},
    {"auto-detection of each format", test_auto_detects_each_format},
    {"diff side by side", test_diff_side_by_side},
    {"error: unknown type", test_error_unknown_type},
    {"error: duplicate row", test_error_duplicate_row},
    {"error: missing columns", test_error_missing_columns},
    {"no-break spaces are blanks", test_nbsp_is_blank},
    {"a Latin-1 title is UTF-8 in JSON", test_latin1_title_to_json},
    {"csv: quoted fields, digit groups inside", test_csv_quoted_fields},
    {"unused (null) rows in kvm and csv", test_null_rows},
    {"a decimal comma is named", test_decimal_comma},
    {"error: non-numeric", test_error_non_numeric},
    {"error: negative", test_error_negative},
    {"error: count overflow", test_error_count_overflow},
    {"error: missing header", test_error_missing_header},
    {"error: empty file", test_error_empty_file},
    {"error: NaN/inf are SIM_ERR_RANGE", test_error_nan_is_range},
    {"error: min > max is SIM_ERR_RANGE", test_error_min_above_max_is_range},
    {"error: bad digit grouping", test_error_bad_grouping},
    {"error: never hit but has a row", test_error_never_hit_with_row},
    {"never hit with any blanks between the words", test_never_hit_any_blanks},
    {"error: unit other than usec", test_error_wrong_unit},
    {"error: csv field count", test_error_csv_fields},
    {"error: json with line:column", test_error_json_line_column},
    {"error: json's first unknown key named", test_error_json_unknown_keys},
    {"error: perf total mismatch", test_error_perf_total_mismatch},
    {"error: debugfs (null) row in use", test_error_debugfs_null_row_used},
    {"read_file caps the size", test_read_file_size_cap},
    {"read_file names a missing file", test_read_file_missing},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("table", tests)
