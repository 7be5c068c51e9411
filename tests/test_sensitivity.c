/* Tests of model/sensitivity: a probe of a linear parameter equals two
 * replays; the --target value reaches the target and one unit less far
 * does not; powers of two are probed by halving and doubling; a parameter
 * at 0 is not probed; seed and core_hz are left out. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sensitivity.h"
#include "testlib.h"

static const char *trace(void)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/cost_mix.bin", test_data_dir());
    return p;
}

/* No host arrivals: the statistics equal replays. */
static void quiet(params *p)
{
    params_init(p);
    P(p, host_tick_hz) = 0;
    P(p, host_irq_hz) = 0;
    P(p, dcache_miss_cycles) = 0;
}

static const sens_entry *find(const sens_entry *e, size_t n, param_id id)
{
    for (size_t i = 0; i < n; i++)
        if (e[i].id == id)
            return &e[i];
    return NULL;
}

static uint64_t replay_total(const params *p)
{
    sweep_replay_opts ro = {.guest = COST_GUEST_TRACE};
    sweep_totals t;
    CU_ASSERT_FATAL(sweep_replay(trace(), p, &ro, NULL, &t) == SIM_OK);
    return t.total;
}

static void test_probes_equal_replays(void)
{
    params base;
    quiet(&base);
    sens_opts o = {.step = 0.10, .threads = 2, .target = -0.05};
    static sweep_base b;
    static sens_entry e[PARAM__COUNT];
    size_t n;
    CU_ASSERT_FATAL(sens_run(trace(), &base, &o, &b, e, &n) == SIM_OK);
    CU_ASSERT(find(e, n, PARAM_seed) == NULL);
    CU_ASSERT(find(e, n, PARAM_core_hz) == NULL);
    double t0 = (double)replay_total(&base);
    CU_ASSERT_EQUAL((double)b.at.total, t0);
    static const param_id ids[] = {PARAM_icache_miss_cycles, PARAM_cpi,
                                   PARAM_emul_mtmsr_insns};
    for (size_t k = 0; k < 3; k++) {
        const sens_entry *x = find(e, n, ids[k]);
        CU_ASSERT_FATAL(x != NULL);
        CU_ASSERT(x->linear && x->exact);
        params q = base;
        q.v[ids[k]] = x->lo;
        double want = 100.0 * ((double)replay_total(&q) - t0) / t0;
        CU_ASSERT_DOUBLE_EQUAL(x->lo_pct, want, 1e-9);
        CU_ASSERT(x->lo_pct < 0);
        CU_ASSERT(x->elasticity > 0);
    }
    /* the target: a whole parameter, found in range */
    const sens_entry *x = find(e, n, PARAM_icache_miss_cycles);
    CU_ASSERT_EQUAL_FATAL(x->target, SENS_T_FOUND);
    params q = base;
    q.v[x->id] = x->target_value;
    CU_ASSERT(100.0 * ((double)replay_total(&q) - t0) / t0 <= -5);
    q.v[x->id] = x->target_value + 1;
    CU_ASSERT(100.0 * ((double)replay_total(&q) - t0) / t0 > -5);
    /* a power of two: halved and doubled */
    const sens_entry *cl = find(e, n, PARAM_cache_line_bytes);
    CU_ASSERT_FATAL(cl != NULL);
    CU_ASSERT_EQUAL(cl->lo, 16);
    CU_ASSERT_EQUAL(cl->hi, 64);
    CU_ASSERT(!cl->linear);
    /* a parameter at 0 is not probed */
    const sens_entry *z = find(e, n, PARAM_host_irq_hz);
    CU_ASSERT(z && !z->probed);
}

static CU_TestInfo tests[] = {
    {"probes equal replays; target; kinds", test_probes_equal_replays},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"sensitivity", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};

int main(void)
{
    return test_run_suites(suites);
}
