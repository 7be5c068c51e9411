/* Tests of model/sweep: every LINEAR parameter of model/params.h evaluated
 * from one replay's sufficient statistics equals a full replay at several
 * points (so a parameter wrongly listed as linear fails here); the
 * exactness flag when costs feed back into the trajectory; plans (grid,
 * lists, Latin hypercube, bad input); the same results whatever the thread
 * count and however the points are split over ranks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ppc_enc.h"
#include "sweep.h"
#include "testlib.h"
#include "trace.h"
#include "tlbword.h"

/* A trace that runs every feature: each emulated class incl. mtspr PID
 * and the timer SPRs, tlbsx, tlbwe, guest TLB writes, ITLB/DTLB misses
 * virtual and real, MMIO/DCR (vcpu_put/load), DEC/EXTINT host work,
 * reflected interrupts; guest ticks only on some exits. */
static const char *rich_trace(void)
{
    static char path[512];
    if (path[0])
        return path;
    snprintf(path, sizeof path, "%s/sweep_rich.bin", test_tmp_dir());
    trace_header h = {.source = TSRC_TEXT, .tb_hz = 667000000,
                      .core_hz = 667000000};
    snprintf(h.workload, sizeof h.workload, "sweep-rich");
    trace_writer *w;
    CU_ASSERT_FATAL(trace_writer_open(&w, path, &h) == SIM_OK);
    static const struct {
        exit_type t;
        uint32_t inst;
    } mix[] = {
        {EXIT_EMUL_MTSPR, E_MTSPR(48, 3)},  /* PID: TID-0 release scan */
        {EXIT_EMUL_MTSPR, E_MTSPR(22, 3)},  /* DEC: timer group */
        {EXIT_EMUL_MFSPR, E_MFSPR(3, 26)},  /* SRR0: generic */
        {EXIT_EMUL_MFSPR, E_MFSPR(3, 61)},  /* DEAR: booke */
        {EXIT_EMUL_MTMSR, E_MTMSR(3)},
        {EXIT_EMUL_MFMSR, E_MFMSR(3)},
        {EXIT_EMUL_WRTEE, E_WRTEEI(1)},
        {EXIT_EMUL_RFI, E_RFI},
        {EXIT_EMUL_TLBSX, E_TLBSX(3, 0, 4)},
        {EXIT_EMUL_TLBWE, E_TLBWE(3, 4, 0)},
        {EXIT_EMULINST, E_ICCCI},
        {EXIT_DCR, E_MFDCR(3, 12)},
        {EXIT_MMIO, E_LWZ(3, 0, 4)},
        {EXIT_ITLBVIRT, 0},
        {EXIT_DTLBVIRT, 0},
        {EXIT_DTLBREAL, 0},
        {EXIT_ITLBREAL, 0},
        {EXIT_SYSCALL, E_SC},
        {EXIT_DSI, 0},
        {EXIT_DEC, 0},
        {EXIT_EXTINT, 0},
    };
    size_t nmix = sizeof mix / sizeof mix[0];
    uint64_t tb = 1000000;
    for (unsigned i = 0; i < 4000; i++) {
        if (i % 97 == 0) { /* a guest tlbwe of a 4 KB kernel page */
            uint32_t epn = 0xc0000000u + (i % 7) * 0x1000u;
            trace_rec g = {.kind = TREC_GTLB_WRITE,
                           .type = (uint8_t)(i % 60),
                           .pc = tlbw_make_w0(epn, TLBSZ_4K, true, 0),
                           .inst = tlbw_make_w1(epn - 0xc0000000u),
                           .addr = TLBW2_S_PERMS};
            CU_ASSERT_FATAL(trace_writer_put(w, &g) == SIM_OK);
        }
        exit_type t = mix[(i * 5) % nmix].t;
        trace_rec r = {.kind = TREC_EXIT, .type = (uint8_t)t,
                       .irq = (uint8_t)exit_default_irq(t),
                       .pc = 0xc0001000u + (i % 13) * 4,
                       .inst = mix[(i * 5) % nmix].inst,
                       .addr = 0xc0000000u + ((i * 2654435761u) % 64) * 0x1000u,
                       .tb = tb};
        if (i % 3 == 0) { /* some exits carry a measured guest time */
            r.flags |= TRF_GUEST_KNOWN;
            r.guest = 500 + i % 211;
        }
        if (i % 5 == 0)
            r.flags |= TRF_GUEST_PR;
        CU_ASSERT_FATAL(trace_writer_put(w, &r) == SIM_OK);
        tb += 3000;
    }
    CU_ASSERT_FATAL(trace_writer_close(w) == SIM_OK);
    return path;
}

/* No feedback from costs into the trajectory: no host arrivals in
 * simulated time, no D-cache decay by modelled guest time. */
static void no_feedback(params *p)
{
    params_init(p);
    P(p, host_tick_hz) = 0;
    P(p, host_irq_hz) = 0;
    P(p, dcache_miss_cycles) = 0;
}

static void assert_same(const sweep_totals *a, const sweep_totals *b,
                        const char *what)
{
    bool same = a->total == b->total;
    for (int t = 0; t < EXIT__COUNT; t++)
        same = same && a->count[t] == b->count[t] && a->sum[t] == b->sum[t];
    if (!same)
        fprintf(stderr, "\n  %s: eval total %llu, replay %llu\n", what,
                (unsigned long long)a->total, (unsigned long long)b->total);
    CU_ASSERT(same);
}

/* Two values of each linear parameter, well inside its range. */
static void probe_values(param_id id, double base, double *v)
{
    double lo = param_min(id), hi = param_max(id);
    v[0] = base > 0 ? base * 0.5 : 1;
    v[1] = base > 0 ? base * 1.7 + 1 : 7;
    for (int k = 0; k < 2; k++) {
        if (param_kind(id) == PK_INT)
            v[k] = round(v[k]);
        if (v[k] < lo)
            v[k] = lo;
        if (v[k] > hi)
            v[k] = hi;
    }
}

static void test_every_linear_param_equals_replay(void)
{
    const char *tr = rich_trace();
    params base;
    no_feedback(&base);
    sweep_replay_opts ro = {.guest = COST_GUEST_TRACE};
    static sweep_base b;
    sweep_totals at;
    CU_ASSERT_FATAL(sweep_replay(tr, &base, &ro, &b, &at) == SIM_OK);
    CU_ASSERT(b.ticks_are_cycles);
    CU_ASSERT(!b.time_coupled);
    int tested = 0, moved = 0;
    for (int i = 0; i < PARAM__COUNT; i++) {
        if (!param_is_linear((param_id)i))
            continue;
        double v[2];
        probe_values((param_id)i, base.v[i], v);
        for (int k = 0; k < 2; k++) {
            params q = base;
            q.v[i] = v[k];
            sweep_totals ev, rp;
            CU_ASSERT_FATAL(sweep_eval(&b, &q, &ev) == SIM_OK);
            CU_ASSERT_FATAL(sweep_replay(tr, &q, &ro, NULL, &rp) == SIM_OK);
            CU_ASSERT(ev.exact);
            assert_same(&ev, &rp, param_name((param_id)i));
            moved += ev.total != at.total;
            if (ev.total == at.total)
                fprintf(stderr, " [%s=%g: no change]", param_name((param_id)i), v[k]);
            tested++;
        }
    }
    CU_ASSERT(tested >= 80);
    /* the trace exercises the parameters: most probes move the total */
    CU_ASSERT(moved >= tested * 3 / 4);
}

/* Several linear parameters moved at once, on the full guest model with
 * its D-cache decay switched off. */
static void test_joint_points_equal_replay(void)
{
    const char *tr = rich_trace();
    params base;
    no_feedback(&base);
    sweep_replay_opts ro = {.guest = COST_GUEST_MODEL};
    static sweep_base b;
    sweep_totals at;
    CU_ASSERT_FATAL(sweep_replay(tr, &base, &ro, &b, &at) == SIM_OK);
    static const double pts[][4] = {
        {0.8, 10, 3, 70}, {1.7, 90, 0, 12}, {2.5, 40, 11, 300}};
    for (size_t k = 0; k < 3; k++) {
        params q = base;
        P(&q, cpi) = pts[k][0];
        P(&q, icache_miss_cycles) = pts[k][1];
        P(&q, tlb_scan_cycles) = pts[k][2];
        P(&q, emul_spr_timer_insns) = pts[k][3];
        sweep_totals ev, rp;
        CU_ASSERT_FATAL(sweep_eval(&b, &q, &ev) == SIM_OK);
        CU_ASSERT_FATAL(sweep_replay(tr, &q, &ro, NULL, &rp) == SIM_OK);
        CU_ASSERT(ev.exact);
        assert_same(&ev, &rp, "joint point");
    }
}

/* Host interrupts in simulated time: a cost that changes the handler
 * windows is not exact from the statistics, and the flag says so; the
 * base point itself is. */
static void test_feedback_is_flagged(void)
{
    const char *tr = rich_trace();
    params base;
    params_init(&base);
    sweep_replay_opts ro = {.guest = COST_GUEST_TRACE};
    static sweep_base b;
    sweep_totals at, ev;
    CU_ASSERT_FATAL(sweep_replay(tr, &base, &ro, &b, &at) == SIM_OK);
    CU_ASSERT(b.time_coupled);
    CU_ASSERT_FATAL(sweep_eval(&b, &base, &ev) == SIM_OK);
    CU_ASSERT(ev.exact);
    assert_same(&ev, &at, "base point");
    params q = base;
    P(&q, dispatch_insns) = 400;
    CU_ASSERT_FATAL(sweep_eval(&b, &q, &ev) == SIM_OK);
    CU_ASSERT(!ev.exact);
    CU_ASSERT(ev.total > at.total);
    /* modelled guest time with D-cache decay: a guest-side cost is not
     * exact even without host arrivals */
    no_feedback(&base);
    P(&base, dcache_miss_cycles) = 50;
    ro.guest = COST_GUEST_MODEL;
    CU_ASSERT_FATAL(sweep_replay(tr, &base, &ro, &b, &at) == SIM_OK);
    CU_ASSERT(b.guest_coupled && !b.time_coupled);
    q = base;
    P(&q, stub_insns) = 50;
    CU_ASSERT_FATAL(sweep_eval(&b, &q, &ev) == SIM_OK);
    CU_ASSERT(!ev.exact);
    q = base; /* a handler-only cost stays exact */
    P(&q, emul_rfi_insns) = 90;
    sweep_totals rp;
    CU_ASSERT_FATAL(sweep_eval(&b, &q, &ev) == SIM_OK);
    CU_ASSERT_FATAL(sweep_replay(tr, &q, &ro, NULL, &rp) == SIM_OK);
    CU_ASSERT(ev.exact);
    assert_same(&ev, &rp, "handler-only cost with D-cache decay");
    /* UTLB misses are rounded per exit (n x host_tlb_miss_cycles): exact
     * only between whole units; a fixed stage takes any real value */
    no_feedback(&base);
    P(&base, host_tlb_miss_cycles) = 40.5;
    ro.guest = COST_GUEST_TRACE;
    CU_ASSERT_FATAL(sweep_replay(tr, &base, &ro, &b, &at) == SIM_OK);
    q = base;
    P(&q, host_tlb_miss_cycles) = 41.25;
    CU_ASSERT_FATAL(sweep_eval(&b, &q, &ev) == SIM_OK);
    CU_ASSERT(!ev.exact);
    q = base;
    P(&q, gfn_to_page_cycles) = 310.7;
    P(&q, cpi) = 1.337;
    CU_ASSERT_FATAL(sweep_eval(&b, &q, &ev) == SIM_OK);
    CU_ASSERT_FATAL(sweep_replay(tr, &q, &ro, NULL, &rp) == SIM_OK);
    CU_ASSERT(ev.exact);
    assert_same(&ev, &rp, "real-valued fixed stages");
    /* a stateful parameter cannot be evaluated */
    q = base;
    P(&q, utlb_pinned) = 2;
    CU_ASSERT_EQUAL(sweep_eval(&b, &q, &ev), SIM_ERR_USAGE);
}

static void test_plan_grid_and_lists(void)
{
    sweep_plan pl;
    memset(&pl, 0, sizeof pl);
    CU_ASSERT_FATAL(sweep_plan_axis(&pl, "cpi=1:1.5:0.25") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_axis(&pl, "decode_insns=10,20") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_points(&pl, 0, 1, 100) == SIM_OK);
    CU_ASSERT_EQUAL(pl.npoints, 6);
    static const double want[6][2] = {{1, 10},   {1, 20},   {1.25, 10},
                                      {1.25, 20}, {1.5, 10}, {1.5, 20}};
    for (size_t i = 0; i < 6; i++) {
        CU_ASSERT_DOUBLE_EQUAL(pl.values[i * 2], want[i][0], 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(pl.values[i * 2 + 1], want[i][1], 1e-12);
    }
    sweep_plan_free(&pl);
}

static void test_plan_bad_input(void)
{
    static const struct {
        const char *spec, *msg;
    } bad[] = {
        {"cpii=1:2:0.1", "did you mean 'cpi'"},
        {"cpi=2:1:0.1", "LO 2 > HI 1"},
        {"cpi=1:2:0", "STEP must be > 0"},
        {"cpi=1:2:-1", "STEP must be > 0"},
        {"cpi=0.1:2:0.1", "outside its range"},
        {"decode_insns=1.5,2", "whole numbers"},
        {"decode_insns=1:2:0.5", "whole numbers"},
        {"cpi=1:x:1", "expected numbers"},
        {"cpi", "expected NAME="},
        /* an axis is refused before its values are allocated (this one
         * took 1.5 GB to be refused by --max-points) */
        {"cpi=0.3:20:1e-7", "197000001 values, more than 10000000 on one axis"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sweep_plan pl;
        memset(&pl, 0, sizeof pl);
        CU_ASSERT_EQUAL(sweep_plan_axis(&pl, bad[i].spec), SIM_ERR_USAGE);
        if (!strstr(sim_errmsg(), bad[i].msg))
            fprintf(stderr, "\n  %s: got '%s'\n", bad[i].spec, sim_errmsg());
        CU_ASSERT(strstr(sim_errmsg(), bad[i].msg) != NULL);
        sweep_plan_free(&pl);
    }
    sweep_plan pl;
    memset(&pl, 0, sizeof pl);
    CU_ASSERT_FATAL(sweep_plan_axis(&pl, "cpi=1:2:0.001") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_axis(&pl, "decode_insns=0:100:1") == SIM_OK);
    CU_ASSERT_EQUAL(sweep_plan_points(&pl, 0, 1, 10000), SIM_ERR_USAGE);
    CU_ASSERT(strstr(sim_errmsg(), "--yes") != NULL);
    sweep_plan_free(&pl);
    /* Audit: --samples 2^61 --yes wrapped the values' size to 8 bytes and
     * drawing them overflowed the heap: refused whatever --yes says */
    memset(&pl, 0, sizeof pl);
    CU_ASSERT_FATAL(sweep_plan_axis(&pl, "cpi=1:2") == SIM_OK);
    CU_ASSERT_EQUAL(sweep_plan_points(&pl, 1ull << 61, 1, UINT64_MAX),
                    SIM_ERR_USAGE);
    CU_ASSERT(strstr(sim_errmsg(), "whatever --yes says") != NULL);
    sweep_plan_free(&pl);
    /* --samples draws over LO:HI: a STEP would be silently ignored */
    memset(&pl, 0, sizeof pl);
    CU_ASSERT_FATAL(sweep_plan_axis(&pl, "cpi=1:2:0.5") == SIM_OK);
    CU_ASSERT_EQUAL(sweep_plan_points(&pl, 5, 1, 10000), SIM_ERR_USAGE);
    CU_ASSERT(strstr(sim_errmsg(), "cpi=1:2:0.5 has a STEP") != NULL);
    sweep_plan_free(&pl);
}

static void test_latin_hypercube(void)
{
    sweep_plan a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CU_ASSERT_FATAL(sweep_plan_axis(&a, "cpi=1:2") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_axis(&a, "icache_miss_cycles=0:100") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_points(&a, 50, 7, 1000) == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_axis(&b, "cpi=1:2") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_axis(&b, "icache_miss_cycles=0:100") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_points(&b, 50, 7, 1000) == SIM_OK);
    CU_ASSERT_EQUAL(a.npoints, 50);
    CU_ASSERT(!memcmp(a.values, b.values, 100 * sizeof(double)));
    /* one point in each of the 50 strata of the real axis */
    int hit[50] = {0};
    for (size_t i = 0; i < 50; i++) {
        double x = a.values[i * 2];
        CU_ASSERT(x >= 1 && x <= 2);
        int s = (int)((x - 1) * 50);
        if (s == 50)
            s = 49;
        hit[s]++;
        CU_ASSERT(a.values[i * 2 + 1] == round(a.values[i * 2 + 1]));
    }
    for (int s = 0; s < 50; s++)
        CU_ASSERT_EQUAL(hit[s], 1);
    sweep_plan_free(&a);
    sweep_plan_free(&b);
}

/* A mixed plan (a stateful and a linear axis) run with 1 and 2 threads,
 * and as two ranks whose halves are merged: identical results. */
static void test_threads_and_ranks_agree(void)
{
    const char *tr = rich_trace();
    params base;
    params_init(&base);
    sweep_plan pl;
    memset(&pl, 0, sizeof pl);
    CU_ASSERT_FATAL(sweep_plan_axis(&pl, "utlb_pinned=1,2") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_axis(&pl, "emul_msr_insns=10:14:2") == SIM_OK);
    CU_ASSERT_FATAL(sweep_plan_points(&pl, 0, 1, 100) == SIM_OK);
    size_t n = pl.npoints;
    sweep_totals r1[6], r2[6], rr[6];
    unsigned char d1[6], d2[6], dr[6];
    sweep_run_opts o = {.method = SWEEP_AUTO, .threads = 1};
    CU_ASSERT_FATAL(sweep_run(tr, &base, &pl, &o, r1, d1) == SIM_OK);
    o.threads = 2;
    CU_ASSERT_FATAL(sweep_run(tr, &base, &pl, &o, r2, d2) == SIM_OK);
    o.nranks = 2;
    memset(rr, 0, sizeof rr);
    for (unsigned rank = 0; rank < 2; rank++) {
        sweep_totals part[6];
        unsigned char dp[6];
        o.rank = rank;
        CU_ASSERT_FATAL(sweep_run(tr, &base, &pl, &o, part, dp) == SIM_OK);
        for (size_t i = 0; i < n; i++)
            if (dp[i]) {
                rr[i] = part[i];
                dr[i] = 1;
            }
    }
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT(d1[i] && d2[i] && dr[i]);
        CU_ASSERT(!memcmp(&r1[i], &r2[i], sizeof r1[i]));
        CU_ASSERT(!memcmp(&r1[i], &rr[i], sizeof r1[i]));
        /* auto: every point equals its replay */
        sweep_totals rp;
        params q;
        sweep_plan_params(&pl, i, &base, &q);
        sweep_replay_opts ro = {.guest = COST_GUEST_TRACE};
        CU_ASSERT_FATAL(sweep_replay(tr, &q, &ro, NULL, &rp) == SIM_OK);
        CU_ASSERT(r1[i].exact);
        assert_same(&r1[i], &rp, "auto point");
    }
    sweep_plan_free(&pl);
}

static CU_TestInfo tests[] = {
    {"every linear parameter equals a replay",
     test_every_linear_param_equals_replay},
    {"joint points equal a replay", test_joint_points_equal_replay},
    {"feedback into the trajectory is flagged", test_feedback_is_flagged},
    {"grid and lists", test_plan_grid_and_lists},
    {"bad plans", test_plan_bad_input},
    {"Latin hypercube", test_latin_hypercube},
    {"threads and ranks agree", test_threads_and_ranks_agree},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"sweep", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};

int main(void)
{
    return test_run_suites(suites);
}
