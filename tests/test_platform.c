/* Tests of the SystemC timed platform (model/platform) through its C
 * interface: time-driven exits follow simulated time (EXTINT count scales
 * with the run's duration, the trace's own DEC/EXTINT/SIGNAL are dropped), a
 * guest DEC firing during a long exit is delivered at the next entry, host
 * interrupts during an exit are serviced inside it, the accounting
 * invariants hold and a run is deterministic. */
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "platform.h"
#include "testlib.h"

static char path[512];

/* A trace file in the test directory, named into path. */
static trace_writer *open_trace(const char *name)
{
    snprintf(path, sizeof path, "%s/platform_%s.bin", test_tmp_dir(), name);
    trace_header h;
    memset(&h, 0, sizeof h);
    h.source = TSRC_TEXT;
    h.tb_hz = h.core_hz = 667000000u;
    snprintf(h.workload, sizeof h.workload, "platform-test");
    trace_writer *w = NULL;
    CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, path, &h), SIM_OK);
    return w;
}

/* n exits of a light mix (no ticks), with some timed ones to be dropped */
static void write_trace(const char *name, unsigned n, bool timed)
{
    trace_writer *w = open_trace(name);
    static const exit_type mix[] = {EXIT_EMUL_MFMSR, EXIT_DTLBVIRT,
                                    EXIT_SYSCALL, EXIT_EMUL_RFI};
    for (unsigned i = 0; i < n; i++) {
        exit_type t = timed && i % 10 == 5 ? EXIT_EXTINT : mix[i % 4];
        trace_rec r = {.kind = TREC_EXIT,
                       .type = (uint8_t)t,
                       .irq = (uint8_t)exit_default_irq(t),
                       .pc = 0xc0001000u,
                       .addr = 0xc0000000u + (i % 200) * 4096u,
                       .tb = 1000u + i};
        CU_ASSERT_FATAL(trace_writer_put(w, &r) == SIM_OK);
    }
    CU_ASSERT_EQUAL_FATAL(trace_writer_close(w), SIM_OK);
}

/* n SYSCALL exits, every `every`-th one (from the second) an MMIO exit */
static void write_heavy_trace(const char *name, unsigned n, unsigned every)
{
    trace_writer *w = open_trace(name);
    for (unsigned i = 0; i < n; i++) {
        trace_rec r = {.kind = TREC_EXIT,
                       .type = (uint8_t)(i % every == 1 ? EXIT_MMIO
                                                        : EXIT_SYSCALL),
                       .irq = 8,
                       .addr = 0xe0000000u,
                       .tb = 1000u + i};
        CU_ASSERT_FATAL(trace_writer_put(w, &r) == SIM_OK);
    }
    CU_ASSERT_EQUAL_FATAL(trace_writer_close(w), SIM_OK);
}

static sim_err run(const params *p, stats *s, platform_counts *pc)
{
    cost_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(cost_new(&m, p), SIM_OK);
    replay_opts o = {.unit = STATS_TICKS, .ticks = REPLAY_MODEL};
    replay_result res;
    sim_err e = platform_replay(path, m, &o, s, &res);
    platform_last_counts(pc);
    cost_free(m);
    return e;
}

/* Guest-heavy parameters: long guest runs, many device interrupts. */
static void busy(params *p)
{
    params_init(p);
    P(p, guest_insns) = 20000;
    P(p, host_irq_hz) = 20000;
    P(p, host_irq_usec) = 2; /* keep the host below saturation */
    P(p, host_tick_hz) = 0;
    P(p, signal_hz) = 0;
}

static void test_extint_count_scales_with_duration(void)
{
    params p;
    busy(&p);
    static stats s;
    platform_counts a, b;
    write_trace("short", 20000, false);
    CU_ASSERT_EQUAL_FATAL(run(&p, &s, &a), SIM_OK);
    write_trace("long", 40000, false);
    CU_ASSERT_EQUAL_FATAL(run(&p, &s, &b), SIM_OK);
    CU_ASSERT(a.extint > 50);
    double ratio = (double)b.extint / (double)a.extint;
    double tratio = (double)b.sim_ps / (double)a.sim_ps;
    CU_ASSERT(tratio > 1.8 && tratio < 2.2);
    CU_ASSERT(ratio > 0.8 * tratio && ratio < 1.2 * tratio);
    /* and it is a rate per simulated second */
    double rate = (double)b.extint / ((double)b.sim_ps * 1e-12);
    CU_ASSERT(rate < 20000);
}

static void test_trace_timed_exits_are_dropped(void)
{
    params p;
    busy(&p);
    P(&p, host_irq_hz) = 0;
    static stats s;
    platform_counts c;
    write_trace("timed", 1000, true);
    CU_ASSERT_EQUAL_FATAL(run(&p, &s, &c), SIM_OK);
    CU_ASSERT_EQUAL(c.trace_exits, 1000);
    CU_ASSERT_EQUAL(c.dropped_timed, 100);
    CU_ASSERT_EQUAL(c.extint, 0);
    CU_ASSERT_EQUAL(s.rows[EXIT_EXTINT].count, 0);
    CU_ASSERT_EQUAL(s.exits, 900);
}

static void test_dec_during_long_exit_is_delivered_at_entry(void)
{
    params p;
    params_init(&p);
    P(&p, host_tick_hz) = 0;
    P(&p, host_irq_hz) = 0;
    P(&p, signal_hz) = 0;
    P(&p, qemu_mmio_usec) = 50000; /* 50 ms in QEMU */
    P(&p, qemu_sigma) = 0;
    P(&p, guest_hz) = 1000; /* guest DEC every 1 ms */
    write_heavy_trace("mmio", 4, 4);
    static stats s;
    platform_counts c;
    CU_ASSERT_EQUAL_FATAL(run(&p, &s, &c), SIM_OK);
    /* ~50 expiries inside the exit coalesce into one pending interrupt
     * (the kernel's IRQPRIO_DECREMENTER bit), delivered at its entry */
    CU_ASSERT(c.dec_deferred >= 1 && c.dec_deferred <= 3);
    /* the MMIO exit lasted the QEMU time plus one delivery at its entry */
    CU_ASSERT(s.rows[EXIT_MMIO].max >= 50000ull * 667);
    CU_ASSERT_EQUAL(s.rows[EXIT_DEC].count, 0); /* no host DEC exits */
}

static void test_host_interrupts_inside_exits_are_serviced_there(void)
{
    params p;
    params_init(&p);
    P(&p, host_tick_hz) = 10000;
    P(&p, host_irq_hz) = 0;
    P(&p, signal_hz) = 0;
    P(&p, guest_insns) = 10;
    write_trace("ticks", 20000, false);
    static stats s;
    platform_counts c;
    CU_ASSERT_EQUAL_FATAL(run(&p, &s, &c), SIM_OK);
    /* the guest runs a small share of the time: most ticks land in exits */
    CU_ASSERT(c.host_in_exit > c.dec);
    CU_ASSERT(c.host_in_exit > 0);
    CU_ASSERT_EQUAL(s.rows[EXIT_DEC].count + (s.last_type == EXIT_DEC), c.dec);
}

static void test_invariants_and_determinism(void)
{
    params p;
    params_init(&p);
    P(&p, signal_hz) = 500;
    write_trace("det", 5000, true);
    static stats a, b;
    platform_counts ca, cb;
    CU_ASSERT_EQUAL_FATAL(run(&p, &a, &ca), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(run(&p, &b, &cb), SIM_OK);
    CU_ASSERT_EQUAL(stats_check(&a, NULL), SIM_OK);
    CU_ASSERT_EQUAL(memcmp(a.rows, b.rows, sizeof a.rows), 0);
    CU_ASSERT_EQUAL(ca.sim_ps, cb.sim_ps);
}

/* Host ticks that come while QEMU serves a heavy exit are the host's,
 * serviced inside that exit: none is left for the next exit's handler (or
 * a DEC exit of the guest later). */
static void test_ticks_during_qemu_stay_in_that_exit(void)
{
    params p;
    params_init(&p);
    P(&p, host_tick_hz) = 5000; /* ~10 ticks during each 2 ms round trip */
    P(&p, host_irq_hz) = 0;
    P(&p, signal_hz) = 0;
    P(&p, preempt_prob) = 0;
    P(&p, qemu_mmio_usec) = 2000;
    P(&p, guest_hz) = 1; /* no guest DEC delivery wakes the exit */
    P(&p, qemu_sigma) = 0;
    P(&p, guest_insns) = 300; /* ~0.1 s of guest time in all */
    write_heavy_trace("qemu", 200, 20);
    static stats s;
    platform_counts c;
    CU_ASSERT_EQUAL_FATAL(run(&p, &s, &c), SIM_OK);
    /* 10 round trips of 2 ms: ~100 ticks, serviced inside them */
    CU_ASSERT(c.host_in_exit >= 90);
    CU_ASSERT(c.dec <= 5);
    /* the SYSCALL after each round trip services at most a tick or two
     * (each ~10k cycles), not the ~10 that came during QEMU's time */
    CU_ASSERT(s.rows[EXIT_SYSCALL].max < 40000);
    CU_ASSERT(s.rows[EXIT_MMIO].min > 2000ull * 667);
}

/* Signals turn light exits into SIGNAL: the stage report charges them
 * there too, so its counts are the table's, row by row. */
static void test_stage_counts_are_the_tables(void)
{
    params p;
    params_init(&p);
    P(&p, signal_hz) = 2000;
    write_trace("stages", 5000, false);
    cost_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(cost_new(&m, &p), SIM_OK);
    replay_opts o = {.unit = STATS_TICKS, .ticks = REPLAY_MODEL};
    replay_result res;
    static stats s;
    CU_ASSERT_EQUAL_FATAL(platform_replay(path, m, &o, &s, &res), SIM_OK);
    CU_ASSERT(s.rows[EXIT_SIGNAL].count > 10);
    for (int t = 0; t < EXIT__COUNT; t++)
        if (t != EXIT_TIMEINGUEST)
            CU_ASSERT_EQUAL(cost_charged(m, (exit_type)t, NULL),
                            s.rows[t].count);
    cost_free(m);
}

static CU_TestInfo tests[] = {
    {"EXTINT count scales with simulated duration",
     test_extint_count_scales_with_duration},
    {"the trace's timed exits are dropped", test_trace_timed_exits_are_dropped},
    {"DEC during a long exit is delivered at entry",
     test_dec_during_long_exit_is_delivered_at_entry},
    {"host interrupts inside exits serviced there",
     test_host_interrupts_inside_exits_are_serviced_there},
    {"invariants and determinism", test_invariants_and_determinism},
    {"stage counts are the table's", test_stage_counts_are_the_tables},
    {"ticks during QEMU time stay in that exit",
     test_ticks_during_qemu_stay_in_that_exit},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("platform", tests)
