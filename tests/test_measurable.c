/* Tests of model/measurable: the data file reader (times, errors naming
 * file:line), the Welch test against numbers computed independently (the
 * seed's ARM64 MAIR runs: Python's statistics module and a numerical
 * integral of the t density), the prediction bounds, and the verdicts
 * both ways. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measurable.h"
#include "testlib.h"

static const char *data(const char *name)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/measurable/%s", test_data_dir(), name);
    return p;
}

static const char *seed(void)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/../../validation/hw/arm64-mair-kernel-compile.txt",
             test_data_dir());
    return p;
}

static void test_reads_the_seed(void)
{
    meas_data d;
    CU_ASSERT_FATAL(meas_load(&d, seed()) == SIM_OK);
    CU_ASSERT_EQUAL(d.nk, 2);
    CU_ASSERT_STRING_EQUAL(d.k[0].name, "base");
    CU_ASSERT_EQUAL(d.k[0].n, 3);
    CU_ASSERT_DOUBLE_EQUAL(d.k[0].wall[0], 186.11, 1e-9); /* 3:06.11 */
    CU_ASSERT_DOUBLE_EQUAL(d.k[1].wall[2], 184.76, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(d.k[0].traps, 50, 0);
    CU_ASSERT_DOUBLE_EQUAL(d.k[1].traps, 62873, 0);
    CU_ASSERT_STRING_EQUAL(d.k[1].event, "kvm_toggle_cache");
}

static void test_welch_on_the_seed(void)
{
    meas_data d;
    CU_ASSERT_FATAL(meas_load(&d, seed()) == SIM_OK);
    meas_opts o = {.extra_traps = -1, .vcpus = 1, .alpha = 0.05,
                   .power = 0.8};
    meas_result r;
    CU_ASSERT_FATAL(meas_judge(&d, 1, &o, &r) == SIM_OK);
    /* independently: statistics.mean/stdev and a numerical integral */
    CU_ASSERT_DOUBLE_EQUAL(r.mean_base, 188.013333333, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r.sd_changed, 1.856636744, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r.se_s, 1.828053002, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r.df, 3.644497144, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r.t, -0.740314056, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.503948, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(r.extra_traps, 62823, 0);
    /* 62823 x 6500 cycles at 2.4 GHz */
    CU_ASSERT_DOUBLE_EQUAL(r.pred_hi_s, 62823 * 6500 / 2.4e9, 1e-12);
    CU_ASSERT(r.mde_s > 5 && r.mde_s < 10);
    CU_ASSERT(!r.predicted_visible);
    CU_ASSERT(!r.measured_visible);
    CU_ASSERT(r.agree);
    /* 8 vCPUs divide only the low bound */
    o.vcpus = 8;
    meas_result r8;
    CU_ASSERT_FATAL(meas_judge(&d, 1, &o, &r8) == SIM_OK);
    CU_ASSERT_DOUBLE_EQUAL(r8.pred_lo_s, r.pred_lo_s / 8, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r8.pred_hi_s, r.pred_hi_s, 0);
}

/* 800,000 extra traps at 2.7 us = 2.2 s against 0.25 s noise: both see
 * it; with a cost range that predicts nothing they disagree. */
static void test_visible_change_and_disagreement(void)
{
    meas_data d;
    CU_ASSERT_FATAL(meas_load(&d, data("visible.txt")) == SIM_OK);
    meas_opts o = {.extra_traps = -1, .vcpus = 1, .alpha = 0.05,
                   .power = 0.8};
    meas_result r;
    CU_ASSERT_FATAL(meas_judge(&d, 1, &o, &r) == SIM_OK);
    CU_ASSERT(r.predicted_visible);
    CU_ASSERT(r.measured_visible);
    CU_ASSERT(r.p < 1e-4);
    CU_ASSERT(r.agree);
    o.cost_lo_ns = 1;
    o.cost_hi_ns = 2; /* 1.6 ms: not visible, yet the runs moved */
    CU_ASSERT_FATAL(meas_judge(&d, 1, &o, &r) == SIM_OK);
    CU_ASSERT(!r.predicted_visible);
    CU_ASSERT(!r.agree);
}

static void test_bad_files(void)
{
    meas_data d;
    CU_ASSERT_EQUAL(meas_load(&d, data("bad_time.txt")), SIM_ERR_FORMAT);
    CU_ASSERT(strstr(sim_errmsg(), "bad_time.txt:2: 'x:06' is not a wall "
                                   "time") != NULL);
    CU_ASSERT_EQUAL(meas_load(&d, data("bad_line.txt")), SIM_ERR_FORMAT);
    CU_ASSERT(strstr(sim_errmsg(), "bad_line.txt:2: unknown line") != NULL);
    CU_ASSERT_EQUAL(meas_load(&d, data("one_kernel.txt")), SIM_ERR_FORMAT);
    CU_ASSERT(strstr(sim_errmsg(), "needs two kernels") != NULL);
    CU_ASSERT_EQUAL(meas_load(&d, data("missing.txt")), SIM_ERR_IO);
    /* numbers as written: strtod took 0x10 as 16 s and 100.5 traps; a
     * run of 0 s is no measurement */
    CU_ASSERT_EQUAL(meas_load(&d, data("hex_wall.txt")), SIM_ERR_FORMAT);
    CU_ASSERT(strstr(sim_errmsg(), "hex_wall.txt:2: '0x10' is not a wall "
                                   "time") != NULL);
    CU_ASSERT_EQUAL(meas_load(&d, data("zero_wall.txt")), SIM_ERR_FORMAT);
    CU_ASSERT(strstr(sim_errmsg(), "zero_wall.txt:2: '0:00'") != NULL);
    CU_ASSERT_EQUAL(meas_load(&d, data("frac_traps.txt")), SIM_ERR_FORMAT);
    CU_ASSERT(strstr(sim_errmsg(), "frac_traps.txt:4: expected 'traps") !=
              NULL);
    /* absurd values are refused where they are read, not carried into
     * GSL (1e308 s aborted in gsl_cdf_tdist_Pinv) or printed as 300
     * digits */
    CU_ASSERT_EQUAL(meas_load(&d, data("huge_wall.txt")), SIM_ERR_RANGE);
    CU_ASSERT(strstr(sim_errmsg(), "huge_wall.txt:3: wall time '1e308'")
              != NULL);
    CU_ASSERT_EQUAL(meas_load(&d, data("huge_traps.txt")), SIM_ERR_RANGE);
    CU_ASSERT(strstr(sim_errmsg(), "huge_traps.txt:4: ") != NULL);
    CU_ASSERT_FATAL(meas_load(&d, seed()) == SIM_OK);
    meas_opts o = {.extra_traps = 1e300, .vcpus = 1, .alpha = 0.05,
                   .power = 0.8};
    meas_result r;
    CU_ASSERT_EQUAL(meas_judge(&d, 1, &o, &r), SIM_ERR_RANGE);
    o.extra_traps = -1;
    o.cost_lo_ns = 1;
    o.cost_hi_ns = 1e300;
    CU_ASSERT_EQUAL(meas_judge(&d, 1, &o, &r), SIM_ERR_RANGE);
}

/* Runs that do not vary (wall times rounded to whole seconds, say) leave
 * the Welch test without a variance: a clear refusal, not a GSL abort
 * (NaN degrees of freedom reached gsl_cdf_tdist_Pinv). */
static void test_runs_without_spread(void)
{
    meas_data d;
    memset(&d, 0, sizeof d);
    d.nk = 2;
    for (size_t k = 0; k < 2; k++) {
        snprintf(d.k[k].name, sizeof d.k[k].name, "%s", k ? "new" : "old");
        d.k[k].n = 3;
        for (size_t i = 0; i < 3; i++)
            d.k[k].wall[i] = 100;
        d.k[k].traps = k ? 5000 : 0;
    }
    meas_opts o = {.extra_traps = -1, .vcpus = 1, .alpha = 0.05,
                   .power = 0.8};
    meas_result r;
    CU_ASSERT_EQUAL(meas_judge(&d, 1, &o, &r), SIM_ERR_RANGE);
    CU_ASSERT(strstr(sim_errmsg(), "old and new") != NULL);
    CU_ASSERT(strstr(sim_errmsg(), "measurable: measurable") == NULL);
    /* a missing count is named, not the one given */
    d.k[1].traps = -1;
    CU_ASSERT_EQUAL(meas_judge(&d, 1, &o, &r), SIM_ERR_USAGE);
    CU_ASSERT(strstr(sim_errmsg(), "no trap count for new (old has one)")
              != NULL);
    d.k[1].traps = 5000;
    /* one kernel with spread is enough: the other's variance is 0 */
    d.k[1].wall[2] = 101;
    CU_ASSERT_EQUAL_FATAL(meas_judge(&d, 1, &o, &r), SIM_OK);
    CU_ASSERT(isfinite(r.df) && isfinite(r.mde_s));
}

/* Two kernels counting different events: their difference is no count
 * of extra traps (it was taken, and printed under the second event's
 * name). */
static void test_two_events_refused(void)
{
    meas_data d;
    CU_ASSERT_FATAL(meas_load(&d, data("two_events.txt")) == SIM_OK);
    meas_opts o = {.extra_traps = -1, .vcpus = 1, .alpha = 0.05,
                   .power = 0.8};
    meas_result r;
    CU_ASSERT_EQUAL(meas_judge(&d, 1, &o, &r), SIM_ERR_USAGE);
    CU_ASSERT(strstr(sim_errmsg(), "two_events.txt:4,5: old counts "
                                   "kvm_exit, new counts kvm_toggle_cache")
              != NULL);
    o.extra_traps = 4900; /* --traps decides */
    CU_ASSERT_EQUAL(meas_judge(&d, 1, &o, &r), SIM_OK);
}

/* Fewer traps predict a decrease: a visible one agrees with runs that got
 * faster, not with runs that got slower (the verdicts compared a negative
 * prediction with the detectable change as if it were none). */
static void test_fewer_traps(void)
{
    meas_data d;
    CU_ASSERT_FATAL(meas_load(&d, data("visible.txt")) == SIM_OK);
    meas_opts o = {.extra_traps = -1, .vcpus = 1, .alpha = 0.05,
                   .power = 0.8};
    meas_result r;
    /* slow has 800,000 traps more and runs 2 s longer: swap the counts */
    double t = d.k[0].traps;
    d.k[0].traps = d.k[1].traps;
    d.k[1].traps = t;
    CU_ASSERT_EQUAL_FATAL(meas_judge(&d, 1, &o, &r), SIM_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.extra_traps, -800000, 0);
    CU_ASSERT(r.pred_hi_s < 0);
    CU_ASSERT(r.predicted_visible); /* 800,000 x 2.7 us = 2.2 s */
    CU_ASSERT(r.measured_visible);
    CU_ASSERT(!r.agree); /* predicted faster, measured slower */
    CU_ASSERT(isfinite(r.runs_needed));
    /* the runs the other way round: faster, as predicted */
    for (size_t i = 0; i < d.k[1].n; i++)
        d.k[1].wall[i] -= 4;
    CU_ASSERT_EQUAL_FATAL(meas_judge(&d, 1, &o, &r), SIM_OK);
    CU_ASSERT(r.predicted_visible && r.measured_visible && r.agree);
}

static CU_TestInfo tests[] = {
    {"reads the seed data", test_reads_the_seed},
    {"Welch test on the seed's runs", test_welch_on_the_seed},
    {"a visible change; a disagreement", test_visible_change_and_disagreement},
    {"bad files", test_bad_files},
    {"runs without spread", test_runs_without_spread},
    {"two events refused", test_two_events_refused},
    {"fewer traps predict a decrease", test_fewer_traps},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"measurable", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};

int main(void)
{
    return test_run_suites(suites);
}
