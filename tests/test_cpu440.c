/* Tests of cpu440's time-driven exits and exit bookkeeping (cpu440/cpu440):
 * host interrupts are exits only when they arrive while the guest runs, a
 * signal turns a light exit into SIGNAL, the trace's timestamps agree with
 * the ticks it carries, and the flat default ticks per path. */
#include "cpu_kit.h"
#include "params.h"

/* A guest that loops for a while, then powers off. */
static kit *busy_loop(unsigned iters)
{
    kit *k = kit_new();
    kit_li(k, 6, iters);
    kit_emit(k, 0x7cc903a6u); /* mtctr r6 */
    kit_emit(k, E_ADDI(5, 5, 1));
    kit_emit(k, 0x4200fffcu); /* bdnz -4 */
    kit_emit(k, E_POWEROFF);
    return k;
}

static void test_host_ticks_while_the_guest_runs_are_dec_exits(void)
{
    /* 3 M iterations of addi + bdnz: 6 M guest ticks (9 ms at 667 MHz).
     * A tick every 66700 ticks, each DEC exit 33350 ticks of handler: the
     * guest runs 33350 ticks between exits, so about 180 of them; ticks
     * during the handlers are serviced inside (no exit). */
    kit *k = busy_loop(3000000);
    cpu440_config c;
    kit_config(&c);
    c.host_tick_hz = 10000;
    kit_run_cfg(k, &c, 100000);
    CU_ASSERT_EQUAL(k->end, CPU440_POWEROFF);
    CU_ASSERT_TRUE(k->types[EXIT_DEC] >= 160 && k->types[EXIT_DEC] <= 200);
    /* each DEC exit is one host interrupt serviced (its handler's UTLB
     * pages, model/hostpages), and a tick landing in another exit's
     * handler is serviced there: a few (179 DEC exits, 182 serviced) */
    cpu440_counters n;
    cpu440_get_counters(k->cpu, &n);
    CU_ASSERT_TRUE(n.host_irqs >= k->types[EXIT_DEC] &&
                   n.host_irqs <= k->types[EXIT_DEC] + 5);
    kit_free(k);
}

static void test_host_ticks_during_an_idle_wait_are_no_exits(void)
{
    kit *k = kit_new();
    kit_li(k, 3, TCR_DIE);
    kit_emit(k, E_MTSPR(340, 3));
    kit_li(k, 3, 6670000); /* 10 ms idle */
    kit_emit(k, E_MTSPR(22, 3));
    kit_li(k, 3, MSR_EE | MSR_WE);
    kit_emit(k, E_MTMSR(3));
    kit_emit(k, E_B_SELF);
    cpu440_config c;
    kit_config(&c);
    c.host_tick_hz = 10000; /* ~100 ticks during the wait */
    kit_run_cfg(k, &c, 100000);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_DECREMENTER);
    CU_ASSERT_EQUAL(k->types[EXIT_EMUL_WAIT], 1);
    CU_ASSERT_TRUE(k->types[EXIT_DEC] < 5); /* only those in guest time */
    /* the ticks during the wait were serviced inside the exit: each with
     * its handler's UTLB pages */
    cpu440_counters n;
    cpu440_get_counters(k->cpu, &n);
    CU_ASSERT_TRUE(n.host_irqs >= 95 + k->types[EXIT_DEC] &&
                   n.host_irqs <= 105 + k->types[EXIT_DEC]);
    kit_free(k);
}

static void test_a_signal_turns_light_exits_into_signal(void)
{
    kit *k = kit_new();
    for (int i = 0; i < 400; i++)
        kit_emit(k, E_MFSPR(4, 272)); /* light EMULINST exits */
    kit_emit(k, E_POWEROFF);
    cpu440_config c;
    kit_config(&c);
    c.signal_hz = 5000; /* one per 0.2 ms: ~25 over 400 x 12 us */
    kit_run_cfg(k, &c, 100000);
    CU_ASSERT_TRUE(k->types[EXIT_SIGNAL] >= 10);
    bool heavy = true;
    for (unsigned i = 0; i < k->nrec; i++)
        if (k->recs[i].kind == TREC_EXIT && k->recs[i].type == EXIT_SIGNAL)
            heavy = heavy && (k->recs[i].flags & TRF_USERSPACE);
    CU_ASSERT_TRUE(heavy); /* a SIGNAL exit goes to user space */
    kit_free(k);
}

static void test_timestamps_agree_with_ticks(void)
{
    kit *k = busy_loop(20000);
    kit_run(k);
    const trace_rec *prev = NULL;
    unsigned bad = 0, n = 0;
    for (unsigned i = 0; i < k->nrec; i++) {
        const trace_rec *r = &k->recs[i];
        if (r->kind != TREC_EXIT)
            continue;
        if (prev && prev->tb + prev->handler + prev->guest != r->tb)
            bad++;
        CU_ASSERT_TRUE((r->flags & (TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN)) ==
                       (TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN));
        prev = r;
        n++;
    }
    CU_ASSERT_TRUE(n > 10);
    CU_ASSERT_EQUAL(bad, 0);
    kit_free(k);
}

static void test_flat_default_ticks_are_the_seed_minimums(void)
{
    CU_ASSERT_EQUAL(cpu440_flat_ticks(EXIT_EMULINST, 667000000u), 12 * 667);
    CU_ASSERT_EQUAL(cpu440_flat_ticks(EXIT_DTLBVIRT, 667000000u), 22 * 667);
    CU_ASSERT_EQUAL(cpu440_flat_ticks(EXIT_MMIO, 667000000u), 47 * 667);
    CU_ASSERT_EQUAL(cpu440_flat_ticks(EXIT_HALT, 667000000u), 0);
    for (int t = 0; t < EXIT__COUNT; t++)
        if (t != EXIT_HALT && t != EXIT_TIMEINGUEST)
            CU_ASSERT_TRUE(cpu440_flat_ticks((exit_type)t, 667000000u) > 0);
}

/* One set of host rates and host pages: the core's defaults are the
 * parameter table's, which the cycle model and the SystemC platform
 * read. */
static void test_default_rates_are_the_parameters(void)
{
    cpu440_config c;
    cpu440_config_default(&c);
    CU_ASSERT_EQUAL(c.host_tick_hz, param_default(PARAM_host_tick_hz));
    CU_ASSERT_EQUAL(c.extint_hz, param_default(PARAM_host_irq_hz));
    CU_ASSERT_EQUAL(c.signal_hz, param_default(PARAM_signal_hz));
    params p;
    params_init(&p);
    CU_ASSERT_EQUAL(c.host_tick_hz, P(&p, host_tick_hz));
    CU_ASSERT_EQUAL(c.common_host_pages, P(&p, common_host_pages));
    CU_ASSERT_EQUAL(c.path_host_pages, P(&p, path_host_pages));
    CU_ASSERT_EQUAL(c.qemu_host_pages, P(&p, qemu_host_pages));
    CU_ASSERT_EQUAL(c.hostirq_host_pages, P(&p, hostirq_host_pages));
    P(&p, common_host_pages) = 7;
    P(&p, hostirq_host_pages) = 9;
    cpu440_config_host_pages(&c, &p);
    CU_ASSERT_EQUAL(c.common_host_pages, 7);
    CU_ASSERT_EQUAL(c.hostirq_host_pages, 9);
    /* the UTLB's geometry too (the 440's 64 entries, one pinned) */
    CU_ASSERT_EQUAL(c.utlb_entries, P(&p, utlb_entries));
    CU_ASSERT_EQUAL(c.utlb_pinned, P(&p, utlb_pinned));
    CU_ASSERT_EQUAL(c.utlb_entries, 64);
    P(&p, utlb_entries) = 96;
    P(&p, utlb_pinned) = 2;
    cpu440_config_utlb(&c, &p);
    CU_ASSERT_EQUAL(c.utlb_entries, 96);
    CU_ASSERT_EQUAL(c.utlb_pinned, 2);
    cpu440 *big = NULL;
    CU_ASSERT_EQUAL(cpu440_new(&big, &c), SIM_OK);
    cpu440_free(big);
    c.utlb_entries = 129; /* more than the model holds (TLB440_MAX) */
    CU_ASSERT_EQUAL(cpu440_new(&big, &c), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NULL(big);
    c.utlb_entries = 64;
    /* outside the parameters' ranges: refused */
    c.common_host_pages = 17;
    cpu440 *cpu = NULL;
    CU_ASSERT_EQUAL(cpu440_new(&cpu, &c), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NULL(cpu);
}

static CU_TestInfo tests[] = {
    {"default host rates and pages are the parameters'",
     test_default_rates_are_the_parameters},
    {"host ticks in guest time are DEC exits",
     test_host_ticks_while_the_guest_runs_are_dec_exits},
    {"host ticks during an idle wait are no exits",
     test_host_ticks_during_an_idle_wait_are_no_exits},
    {"a signal turns light exits into SIGNAL",
     test_a_signal_turns_light_exits_into_signal},
    {"timestamps agree with ticks", test_timestamps_agree_with_ticks},
    {"flat default ticks: seed minimums",
     test_flat_default_ticks_are_the_seed_minimums},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("cpu440", tests)
