/* Tests of the guest workloads on cpu440 (workloads/): the recorded default
 * scenario passes the accounting invariants when replayed and produces every
 * exit type of the seed's no-PV table but HALT/DEBUG/USR_PR_INST; the PV
 * flavour produces DTLBPV and HCALL and far fewer emulation exits; a stop
 * request (Ctrl-C) still leaves a complete trace; runs are deterministic;
 * the microbenchmark prints a positive cost per trap kind. */
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "cpu440.h"
#include "replay.h"
#include "testlib.h"
#include "trace.h"
#include "workloads.h"

typedef struct rec {
    trace_writer *w;
    uint64_t polls;
    bool stop_at_first_poll;
} rec;

static cost_model *g_model; /* non-NULL: record() prices with it */

static sim_err put(void *ctx, const trace_rec *r)
{
    return trace_writer_put(((rec *)ctx)->w, r);
}

static bool stop_cb(void *ctx)
{
    rec *r = ctx;
    r->polls++;
    return r->stop_at_first_poll;
}

/* Records workload `name` into path; returns the end reason. */
static cpu440_end record(const char *name, bool pv, const char *path, bool stop)
{
    const workload *wl = workload_find(name);
    CU_ASSERT_FATAL(wl != NULL);
    cpu440_config c;
    cpu440_config_default(&c);
    if (wl->think_s > 0)
        c.think_s = wl->think_s;
    cpu440 *cpu;
    CU_ASSERT_FATAL(cpu440_new(&cpu, &c) == SIM_OK);
    CU_ASSERT_FATAL(workload_load(wl, pv, cpu) == SIM_OK);
    rec r = {.stop_at_first_poll = stop};
    trace_header h = {
        .source = TSRC_CPU440, .tb_hz = c.tb_hz, .core_hz = c.tb_hz};
    snprintf(h.workload, sizeof h.workload, "%s", name);
    snprintf(h.cost_label, sizeof h.cost_label, "%s", CPU440_COST_LABEL);
    CU_ASSERT_FATAL(trace_writer_open(&r.w, path, &h) == SIM_OK);
    cpu440_sink s = {&r, put};
    cpu440_set_sink(cpu, &s);
    if (g_model) {
        cost_reset(g_model, c.tb_hz, c.tb_hz);
        cpu440_coster k;
        cpu440_model_coster(&k, g_model);
        cpu440_set_coster(cpu, &k);
        snprintf(h.cost_label, sizeof h.cost_label, "cycle model");
    }
    cpu440_limits lim = {.max_seconds = 30, .stop = stop_cb, .ctx = &r};
    cpu440_end end = CPU440_LIMIT;
    sim_err e = cpu440_run(cpu, &lim, &end);
    if (e != SIM_OK)
        fprintf(stderr, "%s\n", sim_errmsg());
    CU_ASSERT_FATAL(e == SIM_OK);
    CU_ASSERT_FATAL(trace_writer_close(r.w) == SIM_OK);
    cpu440_free(cpu);
    return end;
}

static void path_of(char *p, size_t n, const char *name)
{
    snprintf(p, n, "%s/wl_%s.bin", test_tmp_dir(), name);
}

static void replayed(const char *path, stats *s)
{
    replay_opts o = {.unit = STATS_TICKS, .ticks = REPLAY_MEASURED};
    replay_result res;
    sim_err e = replay_file(path, &o, s, &res);
    if (e != SIM_OK)
        fprintf(stderr, "%s\n", sim_errmsg());
    CU_ASSERT_FATAL(e == SIM_OK);
    CU_ASSERT_EQUAL(res.tb_mismatches, 0);
}

static void test_default_scenario_passes_the_invariants(void)
{
    char p[512];
    path_of(p, sizeof p, "boot");
    CU_ASSERT_EQUAL(record("boot", false, p, false), CPU440_POWEROFF);
    static stats s;
    replayed(p, &s);
    CU_ASSERT_EQUAL(stats_check(&s, stderr), SIM_OK);
}

static void test_default_scenario_has_the_seed_nopv_exit_types(void)
{
    char p[512];
    path_of(p, sizeof p, "boot");
    trace_header h;
    trace_footer f;
    if (trace_read_footer(p, &h, &f) != SIM_OK) /* order-independent */
        CU_ASSERT_EQUAL_FATAL(record("boot", false, p, false), CPU440_POWEROFF);
    CU_ASSERT_FATAL(trace_read_footer(p, &h, &f) == SIM_OK);
    static const exit_type k_seed[] = {
        EXIT_EMULINST, EXIT_ITLBVIRT,   EXIT_DTLBVIRT, EXIT_MMIO,
        EXIT_EXTINT,   EXIT_DEC,        EXIT_DTLBREAL, EXIT_ITLBREAL,
        EXIT_DSI,      EXIT_DCR,        EXIT_ISI,      EXIT_SYSCALL,
        EXIT_SIGNAL,   EXIT_FP_UNAVAIL,
    };
    for (size_t i = 0; i < sizeof k_seed / sizeof k_seed[0]; i++) {
        if (f.type_counts[k_seed[i]] == 0)
            fprintf(stderr, "no %s exit\n", exit_name(k_seed[i]));
        CU_ASSERT_TRUE(f.type_counts[k_seed[i]] > 0);
    }
    CU_ASSERT_EQUAL(f.type_counts[EXIT_DTLBPV], 0);
    CU_ASSERT_EQUAL(f.type_counts[EXIT_HCALL], 0);
}

static uint64_t emulation_exits(const trace_footer *f)
{
    uint64_t n = 0;
    for (int t = 0; t < EXIT__COUNT; t++)
        if (exit_fold((exit_type)t) == EXIT_EMULINST && t != EXIT_EMUL_WAIT)
            n += f->type_counts[t];
    return n;
}

static void test_pv_has_dtlbpv_hcall_and_far_fewer_emulinst(void)
{
    char p[512], q[512];
    path_of(p, sizeof p, "boot");
    path_of(q, sizeof q, "boot_pv");
    trace_header h;
    trace_footer f, g;
    if (trace_read_footer(p, &h, &f) != SIM_OK)
        record("boot", false, p, false);
    CU_ASSERT_EQUAL(record("boot", true, q, false), CPU440_POWEROFF);
    CU_ASSERT_FATAL(trace_read_footer(p, &h, &f) == SIM_OK);
    CU_ASSERT_FATAL(trace_read_footer(q, &h, &g) == SIM_OK);
    CU_ASSERT_TRUE(g.type_counts[EXIT_DTLBPV] > 0);
    CU_ASSERT_EQUAL(g.type_counts[EXIT_HCALL], 1);
    CU_ASSERT_TRUE(emulation_exits(&g) * 3 < emulation_exits(&f));
    static stats s;
    replayed(q, &s);
    CU_ASSERT_EQUAL(stats_check(&s, stderr), SIM_OK);
}

static void test_stop_request_leaves_a_complete_trace(void)
{
    char p[512];
    path_of(p, sizeof p, "stopped");
    CU_ASSERT_EQUAL(record("boot", false, p, true), CPU440_STOPPED);
    trace_header h;
    trace_footer f;
    CU_ASSERT_FATAL(trace_read_footer(p, &h, &f) == SIM_OK);
    CU_ASSERT_EQUAL(f.n_exits, CPU440_POLL_EXITS); /* the first poll */
    static stats s;
    replayed(p, &s);
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_OK);
}

static void test_runs_are_deterministic(void)
{
    char a[512], b[512];
    path_of(a, sizeof a, "det_a");
    path_of(b, sizeof b, "det_b");
    record("boot", true, a, false);
    record("boot", true, b, false);
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    CU_ASSERT_FATAL(x && y);
    int same = 1, cx, cy;
    do {
        cx = fgetc(x);
        cy = fgetc(y);
        same &= cx == cy;
    } while (same && cx != EOF);
    CU_ASSERT_TRUE(same);
    fclose(x);
    fclose(y);
}

static unsigned g_lines, g_positive, g_refused;
static char g_line[256];
static size_t g_len;

static void mb_console(void *ctx, int ch)
{
    (void)ctx;
    if (ch == '\r')
        return;
    if (ch != '\n') {
        if (g_len < sizeof g_line - 1)
            g_line[g_len++] = (char)ch;
        return;
    }
    g_line[g_len] = 0;
    g_len = 0;
    char name[64];
    unsigned long cyc, it;
    const char *p = strchr(g_line, ']');
    if (p && sscanf(p + 2, "%63s %lu %lu", name, &cyc, &it) == 3) {
        g_lines++;
        g_positive += cyc > 0 && it > 0;
    }
    if (p && strstr(p, " refused: timebase delta"))
        g_refused++;
}

static void test_microbench_reports_each_trap_kind(void)
{
    const workload *wl = workload_find("microbench");
    CU_ASSERT_FATAL(wl != NULL);
    cpu440_config c;
    cpu440_config_default(&c);
    cpu440 *cpu;
    CU_ASSERT_FATAL(cpu440_new(&cpu, &c) == SIM_OK);
    CU_ASSERT_FATAL(workload_load(wl, false, cpu) == SIM_OK);
    cpu440_set_console(cpu, mb_console, NULL);
    cpu440_limits lim = {.max_seconds = 60};
    cpu440_end end;
    CU_ASSERT_FATAL(cpu440_run(cpu, &lim, &end) == SIM_OK);
    CU_ASSERT_EQUAL(end, CPU440_POWEROFF);
    cpu440_free(cpu);
    CU_ASSERT_EQUAL(g_lines, 13);
    CU_ASSERT_EQUAL(g_positive, g_lines);
}

static void test_microbench_refuses_a_zero_delta(void)
{
    const workload *wl = workload_find("microbench");
    cpu440_config c;
    cpu440_config_default(&c);
    c.tb_frozen = true; /* every timebase read returns the same value */
    cpu440 *cpu;
    CU_ASSERT_FATAL(cpu440_new(&cpu, &c) == SIM_OK);
    CU_ASSERT_FATAL(workload_load(wl, false, cpu) == SIM_OK);
    g_lines = g_positive = g_refused = 0;
    cpu440_set_console(cpu, mb_console, NULL);
    cpu440_limits lim = {.max_seconds = 60};
    cpu440_end end;
    CU_ASSERT_FATAL(cpu440_run(cpu, &lim, &end) == SIM_OK);
    cpu440_free(cpu);
    CU_ASSERT_EQUAL(g_lines, 0); /* no cycle count printed, not even 0 */
    CU_ASSERT_EQUAL(g_refused, 13);
}

static void test_the_cycle_model_can_price_a_recording(void)
{
    static params prm;
    params_init(&prm);
    CU_ASSERT_FATAL(cost_new(&g_model, &prm) == SIM_OK);
    char p[512], f[512];
    path_of(p, sizeof p, "model");
    path_of(f, sizeof f, "flat");
    CU_ASSERT_EQUAL(record("boot", false, p, false), CPU440_POWEROFF);
    cost_free(g_model);
    g_model = NULL;
    CU_ASSERT_EQUAL(record("boot", false, f, false), CPU440_POWEROFF);
    static stats s, t;
    replayed(p, &s);
    replayed(f, &t);
    CU_ASSERT_EQUAL(stats_check(&s, stderr), SIM_OK);
    /* the model's EMULINST handler times vary; the flat default's do not */
    CU_ASSERT_TRUE(s.rows[EXIT_EMULINST].max > s.rows[EXIT_EMULINST].min);
    CU_ASSERT_EQUAL(t.rows[EXIT_EMULINST].max, t.rows[EXIT_EMULINST].min);
}

static CU_TestInfo tests[] = {
    {"default scenario passes the invariants",
     test_default_scenario_passes_the_invariants},
    {"default scenario has the seed no-PV types",
     test_default_scenario_has_the_seed_nopv_exit_types},
    {"PV: DTLBPV, HCALL, far fewer EMULINST",
     test_pv_has_dtlbpv_hcall_and_far_fewer_emulinst},
    {"a stop request leaves a complete trace",
     test_stop_request_leaves_a_complete_trace},
    {"runs are deterministic", test_runs_are_deterministic},
    {"microbench reports each trap kind",
     test_microbench_reports_each_trap_kind},
    {"microbench refuses a zero delta", test_microbench_refuses_a_zero_delta},
    {"the cycle model can price a recording",
     test_the_cycle_model_can_price_a_recording},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("workloads", tests)
