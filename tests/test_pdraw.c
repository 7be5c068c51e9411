/* Tests of parameter draws (model/pdraw): draws of a calibrated point have
 * the 1-sigmas and correlations its INI file states, stay in each
 * parameter's range with whole numbers where the parameter is one, a
 * correlation matrix that is not positive definite is still drawn from,
 * and malformed files are refused with file:line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pdraw.h"
#include "testlib.h"

static char ini[512];

static void write_ini(const char *text)
{
    snprintf(ini, sizeof ini, "%s/pdraw_test.ini", test_tmp_dir());
    FILE *f = fopen(ini, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* 20,000 draws around cpi = 2, qemu_mmio_usec = 100 with sigmas 0.1 and
 * 5 and correlation 0.8: the sample's sds and correlation are those. */
static void test_draws_have_the_stated_covariance(void)
{
    write_ini("; cpi: +- 0.1 cycles/insn (1 sigma), start 1.2, default 1.2\n"
              "cpi = 2\n"
              "; qemu_mmio_usec: +- 5 usec (1 sigma), start 40, default 40\n"
              "qemu_mmio_usec = 100\n"
              "; corr cpi qemu_mmio_usec 0.800\n");
    static pdraw d;
    CU_ASSERT_EQUAL_FATAL(pdraw_load(&d, ini), SIM_OK);
    CU_ASSERT_EQUAL(d.n, 2);
    CU_ASSERT_EQUAL(d.clipped, 0);
    static params at, p;
    CU_ASSERT_EQUAL_FATAL(params_load_file(&at, ini), SIM_OK);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    const int n = 20000;
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int k = 0; k < n; k++) {
        pdraw_sample(&d, r, &at, &p);
        double x = P(&p, cpi) - 2, y = P(&p, qemu_mmio_usec) - 100;
        sx += x;
        sy += y;
        sxx += x * x;
        syy += y * y;
        sxy += x * y;
        /* every other parameter is the point's */
        CU_ASSERT_EQUAL(P(&p, icache_miss_cycles), P(&at, icache_miss_cycles));
    }
    double mx = sx / n, my = sy / n;
    double vx = sxx / n - mx * mx, vy = syy / n - my * my;
    double rho = (sxy / n - mx * my) / sqrt(vx * vy);
    CU_ASSERT(fabs(mx) < 0.005);
    CU_ASSERT(fabs(sqrt(vx) - 0.1) < 0.003);
    CU_ASSERT(fabs(sqrt(vy) - 5) < 0.15);
    CU_ASSERT(fabs(rho - 0.8) < 0.02);
    gsl_rng_free(r);
    pdraw_free(&d);
}

/* A whole-number parameter's draws are whole; a value near its range's
 * end stays inside it (icache_miss_cycles is 0..1000 cycles). */
static void test_draws_stay_in_range_and_whole(void)
{
    write_ini("; icache_miss_cycles: +- 30 cycles (1 sigma), start 50, "
              "default 50\n"
              "icache_miss_cycles = 10\n");
    static pdraw d;
    CU_ASSERT_EQUAL_FATAL(pdraw_load(&d, ini), SIM_OK);
    static params at, p;
    CU_ASSERT_EQUAL_FATAL(params_load_file(&at, ini), SIM_OK);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 1);
    int at_zero = 0;
    for (int k = 0; k < 2000; k++) {
        pdraw_sample(&d, r, &at, &p);
        double v = P(&p, icache_miss_cycles);
        CU_ASSERT(v >= 0 && v <= 1000);
        CU_ASSERT_EQUAL(v, floor(v));
        at_zero += v == 0;
    }
    /* P(10 + 30 z < 0) = 37%: clamped, not redrawn */
    CU_ASSERT(at_zero > 600 && at_zero < 900);
    gsl_rng_free(r);
    pdraw_free(&d);
}

/* Correlations of three values that no covariance can have (two pairs at
 * +0.9, the third at -0.9): their negative eigenvalue is set to 0 and the
 * draws are finite. */
static void test_not_positive_definite_is_clipped(void)
{
    write_ini("; cpi: +- 0.1 x (1 sigma)\ncpi = 2\n"
              "; qemu_mmio_usec: +- 5 usec (1 sigma)\nqemu_mmio_usec = 100\n"
              "; gfn_to_page_cycles: +- 20 cycles (1 sigma)\n"
              "gfn_to_page_cycles = 300\n"
              "; corr cpi qemu_mmio_usec 0.9\n"
              "; corr cpi gfn_to_page_cycles 0.9\n"
              "; corr qemu_mmio_usec gfn_to_page_cycles -0.9\n");
    static pdraw d;
    CU_ASSERT_EQUAL_FATAL(pdraw_load(&d, ini), SIM_OK);
    CU_ASSERT(d.clipped >= 1);
    static params at, p;
    CU_ASSERT_EQUAL_FATAL(params_load_file(&at, ini), SIM_OK);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    pdraw_sample(&d, r, &at, &p);
    CU_ASSERT(isfinite(P(&p, cpi)) && isfinite(P(&p, qemu_mmio_usec)));
    gsl_rng_free(r);
    pdraw_free(&d);
}

static void refused(const char *text, sim_err want, const char *msg)
{
    write_ini(text);
    static pdraw d;
    sim_err e = pdraw_load(&d, ini);
    CU_ASSERT_EQUAL(e, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), msg));
    if (!strstr(sim_errmsg(), msg))
        fprintf(stderr, "message: %s (want %s)\n", sim_errmsg(), msg);
    sim_clear_error();
}

static void test_bad_files_are_refused(void)
{
    char where[600];
    refused("cpi = 2\n", SIM_ERR_FORMAT, "no fitted value with a 1-sigma");
    snprintf(where, sizeof where, "%s:3: corr cpi qemu_mmio_usec 1.5", ini);
    refused("; cpi: +- 0.1 x (1 sigma)\n; qemu_mmio_usec: +- 5 usec\n"
            "; corr cpi qemu_mmio_usec 1.5\n",
            SIM_ERR_RANGE, where);
    snprintf(where, sizeof where, "%s:2: corr cpi icache_miss_cycles", ini);
    refused("; cpi: +- 0.1 x (1 sigma)\n; corr cpi icache_miss_cycles 0.5\n",
            SIM_ERR_FORMAT, where);
    snprintf(where, sizeof where, "%s:2: expected '; corr NAME NAME r'", ini);
    refused("; cpi: +- 0.1 x (1 sigma)\n; corr cpi\n", SIM_ERR_FORMAT, where);
}

static CU_TestInfo tests[] = {
    {"draws have the stated sigmas and correlation",
     test_draws_have_the_stated_covariance},
    {"draws stay in range, whole where the parameter is",
     test_draws_stay_in_range_and_whole},
    {"a correlation matrix that is not positive definite is clipped",
     test_not_positive_definite_is_clipped},
    {"bad files are refused with file:line", test_bad_files_are_refused},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("pdraw", tests)
