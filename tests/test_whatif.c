/* Tests of the what-if layer (model/whatif, model/xf_*): each transform on
 * a small hand-written trace, showing exactly the change docs/whatif.md
 * states; the identity; composition, determinism and refusal of bad
 * specs; time-driven exits following the predicted guest time. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guest_stages.h"
#include "platform/platform.h"
#include "stats.h"
#include "synth.h"
#include "table.h"
#include "testlib.h"
#include "tracetext.h"
#include "whatif.h"

#define HEAD                                                                   \
    "header version=1 source=text tb_hz=667000000 core_hz=667000000 "          \
    "workload=\"whatif-test\" tool_version=\"t\" cost_label=\"\"\n"

/* Every host interference off: the hand-checkable counts depend on the
 * transform alone. */
static void quiet(params *p)
{
    params_init(p);
    CU_ASSERT_EQUAL(params_set(p, PARAM_host_tick_hz, 0, "t"), SIM_OK);
    CU_ASSERT_EQUAL(params_set(p, PARAM_host_irq_hz, 0, "t"), SIM_OK);
    CU_ASSERT_EQUAL(params_set(p, PARAM_preempt_prob, 0, "t"), SIM_OK);
    CU_ASSERT_EQUAL(params_set(p, PARAM_qemu_sigma, 0, "t"), SIM_OK);
}

static char g_path[512];

static void pack(const char *text)
{
    snprintf(g_path, sizeof g_path, "%s/whatif_test.bin", test_tmp_dir());
    CU_ASSERT_EQUAL_FATAL(
        tracetext_pack_buf("whatif-test", text, strlen(text), g_path), SIM_OK);
}

/* A pv:sites list with the given lines under the test directory; its
 * path into path. */
static void write_sites(const char *name, const char *lines, char *path,
                        size_t len)
{
    snprintf(path, len, "%s/%s", test_tmp_dir(), name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(lines, f);
    fclose(f);
}

static stats g_base, g_pred;
static table g_tb, g_tp;
static whatif_result g_res;

/* The trace at g_path through the chain `spec` with options o; both
 * tables into g_tb, g_tp. */
static sim_err run_opts(const char *spec, const params *p,
                        const whatif_opts *o)
{
    whatif_chain *c;
    sim_err e = whatif_chain_parse(&c, spec);
    if (e != SIM_OK)
        return e;
    e = whatif_run(g_path, c, p, o, &g_base, &g_pred, &g_res);
    whatif_chain_free(c);
    stats_to_table(&g_base, &g_tb);
    stats_to_table(&g_pred, &g_tp);
    return e;
}

static sim_err run(const char *spec, const params *p, stats_unit unit)
{
    whatif_opts o = {.unit = unit};
    return run_opts(spec, p, &o);
}

/* pv with OPTS and a site list of LINES written to FILE, in ticks; the
 * transform spec into spec. */
static sim_err run_sites(const char *file, const char *lines,
                         const char *opts, const params *p, char *spec,
                         size_t len)
{
    char sites[600];
    write_sites(file, lines, sites, sizeof sites);
    snprintf(spec, len, "pv:%s:sites=%s", opts, sites);
    return run(spec, p, STATS_TICKS);
}

/* Each of the n site lists in bad (written to FILE) is refused as a format
 * error whose message holds needle (the file's name, with its line). */
static void refuse_sites(const char *file, const char *const *bad, size_t n,
                         const char *opts, const params *p,
                         const char *needle)
{
    char spec[700];
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(run_sites(file, bad[i], opts, p, spec, sizeof spec),
                        SIM_ERR_FORMAT);
        CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), needle));
    }
}

static uint64_t cnt(const stats *s, exit_type t)
{
    return s->rows[t].count;
}

/* Emulated instructions of a guest kernel, guest time measured (2000 ticks
 * after each), all in supervisor mode. */
static const char pv_trace[] =
    HEAD
    "exit EMULINST irq=6 pc=0xc0001000 inst=0x7c7042a6 tb=1000 guest=2000 flags=G\n"   /* mfspr r3,SPRG0: lwz */
    "exit EMUL_MFMSR irq=6 pc=0xc0001010 inst=0x7c6000a6 tb=2000 guest=2000 flags=G\n"  /* mfmsr: lwz */
    "exit EMUL_TLBWE irq=6 pc=0xc0001020 inst=0x7c6007a4 tb=3000 guest=2000 flags=G\n"  /* tlbwe: traps */
    "exit EMULINST irq=6 pc=0xc0001030 inst=0x7c7a03a6 tb=4000 guest=2000 flags=G\n"   /* mtspr SRR0: stw */
    "exit EMUL_WRTEE irq=6 pc=0xc0001040 inst=0x7c000146 tb=5000 guest=2000 flags=G\n"  /* wrteei 0 */
    "exit EMUL_WRTEE irq=6 pc=0xc0001050 inst=0x7c008146 tb=6000 guest=2000 flags=G\n"  /* wrteei 1 */
    "exit EMUL_MTMSR irq=6 pc=0xc0001060 inst=0x7c600124 tb=7000 guest=2000 flags=G\n"  /* mtmsr: template */
    "exit EMUL_WAIT irq=6 pc=0xc0001070 inst=0x7c600124 tb=8000 guest=2000 flags=G\n"   /* mtmsr MSR[WE]: traps */
    "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=9000 guest=2000 flags=G,PR\n"
    "exit EMULINST irq=6 pc=0xc0001080 inst=0x00000000 tb=10000 guest=2000 flags=G\n"  /* no word: left */
    "exit EMUL_MFSPR irq=6 pc=0xc0001090 inst=0x7c7002a6 tb=11000 guest=2000 flags=G\n" /* mfspr PID: traps */
    "exit EMUL_TLBSX irq=6 pc=0xc00010a0 inst=0x7c603f24 tb=12000 guest=2000 flags=G\n"; /* last: never charged */

static void test_pv_patches_what_kvm_c_patches(void)
{
    params p;
    quiet(&p);
    pack(pv_trace);
    CU_ASSERT_EQUAL_FATAL(run("pv", &p, STATS_TICKS), SIM_OK);
    /* six sites patched: mfspr SPRG0, mfmsr, mtspr SRR0, wrteei 0,
     * wrteei 1 (nothing pending), mtmsr; one map hypercall; the first
     * access maps the magic page (one DTLBPV), the others find it */
    CU_ASSERT_EQUAL(g_res.removed, 6);
    CU_ASSERT_EQUAL(g_res.inserted, 2);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_HCALL), 1);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_DTLBPV), 1);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_TLBWE), 1);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_WAIT), 1);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_MFSPR), 1);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMULINST), 1); /* the word-less one */
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_MFMSR), 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_MTMSR), 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_WRTEE), 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_SYSCALL), 1);
    /* the baseline is the trace as `sim replay --model` prices it */
    CU_ASSERT_EQUAL(cnt(&g_base, EXIT_TIMEINGUEST), 11);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_TIMEINGUEST), 7);
    /* the removed runs stay in the guest: minus each removed entry's own
     * stub/tail/refill, plus the patched code (1 or a template's path) */
    CU_ASSERT(g_pred.rows[EXIT_TIMEINGUEST].sum >
              7 * 2000); /* the kept exits' own runs and more */
    CU_ASSERT(g_pred.rows[EXIT_TIMEINGUEST].sum <
              g_base.rows[EXIT_TIMEINGUEST].sum);
    /* the run shortens, but for the idle (EMUL_WAIT waits until the next
     * guest tick, so it absorbs what the exits before it saved) */
    CU_ASSERT(stats_traced_ticks(&g_pred) - g_pred.rows[EXIT_EMUL_WAIT].sum <
              stats_traced_ticks(&g_base) - g_base.rows[EXIT_EMUL_WAIT].sum);
    CU_ASSERT(g_pred.rows[EXIT_EMUL_WAIT].sum >
              g_base.rows[EXIT_EMUL_WAIT].sum);
}

/* Runs given in instructions (flags I), as a `synth --like` trace gives
 * them: two patched exits between system calls. */
static const char run_trace[] =
    HEAD
    "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=1000 guest=5 flags=I,PR\n"
    "exit EMULINST irq=6 pc=0xc0001000 inst=0x7c7042a6 tb=2000 guest=5 flags=I\n" /* mfspr SPRG0: lwz */
    "exit EMULINST irq=6 pc=0xc0001030 inst=0x7c7a03a6 tb=3000 guest=5 flags=I\n" /* mtspr SRR0: stw */
    "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=4000 guest=5 flags=I,PR\n"
    "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=5000 guest=5 flags=I,PR\n";

/* docs/whatif.md, "Run length": a removed exit's entry takes its stub,
 * its tail and the refills the longer run no longer needs with it; its
 * run and the patched code go to the run before. Under 2.6.29's
 * per-sample truncation an entry whose interval was under one usec was
 * booked as 0, so its removal takes nothing from TIMEINGUEST's sum. */
static void test_pv_removed_entries_take_their_own_guest_time(void)
{
    params p;
    quiet(&p);
    P(&p, cpi) = 1;
    P(&p, guest_cpi) = 1;
    test_guest_stages(&p);
    pack(run_trace);
    CU_ASSERT_EQUAL_FATAL(run("pv", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(g_res.removed, 2);
    /* every interval of the baseline: 32 + 4x10 stub, 22 + 3x10 tail, 5
     * instructions, 1 line x 10 + (1 + 1) x 3 refill = 145 cycles */
    const uint64_t fixed = 32 + 40 + 22 + 30, ival = fixed + 5 + 10 + 6;
    /* the lwz first maps the magic page (an inserted DTLBPV, no run of its
     * own: refill (1 + 0) x 3), then its run goes on: 5 + 1 instructions,
     * refills 1 x 10 + 2 x 3 - 3 = 13 more; the stw's run 5 + 1 after
     * those 6: 2 lines instead of 1, 10 more */
    CU_ASSERT_EQUAL(g_res.guest_handed, (5 + 13) + (5 + 10));
    CU_ASSERT_EQUAL(g_res.guest_added, 2); /* a load and a store */
    CU_ASSERT_EQUAL(g_res.guest_gone, (ival - 18) + (ival - 15));
    CU_ASSERT_EQUAL(g_res.guest_gone, 2 * fixed + 3 + 6);
    CU_ASSERT_EQUAL(g_res.gone_n, 2);
    /* the ticks add up: four intervals charged in the baseline; the
     * prediction's lose what the entries took, gain the patched code and
     * the inserted HCALL's and DTLBPV's own entries (fixed + 3 each) */
    CU_ASSERT_EQUAL(g_base.rows[EXIT_TIMEINGUEST].sum, 4 * ival);
    CU_ASSERT_EQUAL(g_pred.rows[EXIT_TIMEINGUEST].sum,
                    4 * ival - g_res.guest_gone + 2 + 2 * (fixed + 3));
    CU_ASSERT_EQUAL(g_res.base_intervals, 5);
    CU_ASSERT_EQUAL(g_res.base_sub_usec, 5); /* 145 < 667 ticks */
    /* 2.6.29 accounting: each interval, 145 to 162 cycles, is booked as 0
     * usec before and after: the entries' time never was in the sum */
    CU_ASSERT_EQUAL_FATAL(run("pv", &p, STATS_USEC), SIM_OK);
    CU_ASSERT_EQUAL(g_base.rows[EXIT_TIMEINGUEST].sum, 0);
    CU_ASSERT_EQUAL(g_pred.rows[EXIT_TIMEINGUEST].sum, 0);
    CU_ASSERT_EQUAL(g_pred.rows[EXIT_TIMEINGUEST].count, 4);
    char line[512];
    whatif_guest_line(line, sizeof line, &g_res);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "took 0.000000 s with them"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "100.0% of the baseline's guest "
                                        "intervals are under 1 usec"));
}

static void test_pv_template_space_in_address_order(void)
{
    params p;
    quiet(&p);
    pack(pv_trace);
    /* 56 bytes: the mtmsr template (128, lowest template site) does not
     * fit, nor wrteei 1's (108); wrteei 0's (56) does */
    CU_ASSERT_EQUAL_FATAL(run("pv:template-bytes=56", &p, STATS_TICKS),
                          SIM_OK);
    CU_ASSERT_EQUAL(g_res.removed, 4); /* sprg0, mfmsr, srr0, wrteei 0 */
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_WRTEE), 1); /* wrteei 1 */
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_MTMSR), 1);
    /* two hypercalls (Linux also asks KVM_HC_FEATURES) */
    CU_ASSERT_EQUAL_FATAL(run("pv:hcalls=2", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_HCALL), 2);
}

/* sites=FILE: the kernel text's template sites, executed or not, take the
 * space in address order: an mtmsr below the traced ones (128 bytes) fills
 * a 128-byte area, so no traced template site is patched. */
static void test_pv_sites_of_the_kernel_text(void)
{
    params p;
    quiet(&p);
    pack(pv_trace);
    char sites[600], spec[700];
    write_sites("whatif_sites.txt",
                "0xc0000010 mtmsr\n0xc0001040 wrteei0\n0xc0001050 wrteei1\n"
                "0xc0001060 mtmsr\n",
                sites, sizeof sites);
    snprintf(spec, sizeof spec, "pv:template-bytes=128:sites=%s", sites);
    CU_ASSERT_EQUAL_FATAL(run(spec, &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(g_res.removed, 3); /* sprg0, mfmsr, srr0 only */
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_WRTEE), 2);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_MTMSR), 1);
    /* 184 bytes: the first mtmsr and wrteei 0 (56) fit */
    snprintf(spec, sizeof spec, "pv:template-bytes=184:sites=%s", sites);
    CU_ASSERT_EQUAL_FATAL(run(spec, &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(g_res.removed, 4);
    /* a malformed list names its line */
    write_sites("whatif_sites.txt", "0xc0000010 mtmsr\n0xc0001040 wrteei2\n",
                sites, sizeof sites);
    whatif_chain *c = NULL;
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, spec), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "whatif_sites.txt:2: kind "
                                                "'wrteei2'"));
}

/* With the text in the site list (stext, etext, the in-place sites), the
 * scan's own exits: kvm_use_magic_page reads the 4 text pages (a D-TLB
 * miss each, nothing evicting them in between here), and each patch ends
 * with flush_icache_range's iccci (EMULINST): mfmsr and mfspr SPRG0 are
 * patched in place (1 each), mfspr PID is not (0), the wrteei 0 that finds
 * space takes a template copy and a branch (2), the one that does not
 * (a "No more space" line, console=0 here) none. The scan's code at
 * 0xc0008000 is fetched at the start and after each line. */
static void test_pv_scan_reads_the_text_and_flushes_each_patch(void)
{
    params p;
    quiet(&p);
    pack(HEAD
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=1000 guest=2000 flags=G,PR\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=2000 guest=2000 flags=G,PR\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=3000 guest=2000 flags=G,PR\n");
    char sites[600], spec[700];
    CU_ASSERT_EQUAL_FATAL(
        run_sites("whatif_scan_sites.txt",
                  "0xc0000000 stext\n"
                  "0xc0000100 insn 0x7c6000a6\n" /* mfmsr */
                  "0xc0000200 insn 0x7c7042a6\n" /* mfspr r3,SPRG0 */
                  "0xc0000300 insn 0x7c7002a6\n" /* mfspr r3,PID */
                  "0xc0001000 wrteei0\n0xc0002000 wrteei0\n"
                  "0xc0004000 etext\n0xc0008000 scancode\n",
                  "template-bytes=56:hcalls=0", &p, spec, sizeof spec),
        SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_base, EXIT_EMULINST), 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMULINST), 1 + 1 + 2);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_DTLBVIRT), 4);
    /* its code's page, fetched at the start (and again after the site
     * without space, still held) */
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_ITLBVIRT), 1);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_SYSCALL), 2); /* the last: never charged */
    /* the text needs both ends */
    write_sites("whatif_scan_sites.txt",
                "0xc0000000 stext\n0xc0001000 wrteei0\n", sites,
                sizeof sites);
    whatif_chain *c = NULL;
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, spec), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "'stext' line"));
}

/* With the scan's instructions in the site list ('scaninsns', per text
 * page: pv-scan.awk), the loop's guest time (docs/whatif.md "pv", "The
 * scan itself"): page 0xc0000000's 1000 instructions run after its D-TLB
 * miss; page 0xc0001000's 3000 after its miss and the two iccci of the
 * wrteei 0 at its first word. Each is a run after an inserted exit: N x
 * guest_cpi plus the refills the longer run needs - 8 guest lines (the
 * cap) x 10 and 8 shadow D-TLB entries (dtlb_shadow) x 3 beyond the
 * inserted exit's own 1 x 3 - so TIMEINGUEST grows by exactly
 * 4000 x guest_cpi + 2 x (80 + 24). The work runs with interrupts off:
 * the guest ticks' clock (wall_gain) does not see it. */
static void test_pv_scan_loop_runs_in_the_guest(void)
{
    params p;
    quiet(&p);
    test_guest_stages(&p);
    P(&p, cpi) = 1;
    P(&p, dtlb_shadow) = 8;
    P(&p, dcache_decay_cycles) = 1e9;
    pack(HEAD
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=1000 guest=2000 flags=G,PR\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=2000 guest=2000 flags=G,PR\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=3000 guest=2000 flags=G,PR\n");
    static const char text[] = "0xc0000000 stext\n0xc0002000 etext\n"
                               "0xc0001000 wrteei0\n";
    static const char scan[] = "0xc0001000 scaninsns 3000\n"
                               "0xc0000000 scaninsns 1000\n";
    char lines[512], spec[700];
    for (int cpi = 1; cpi <= 2; cpi++) {
        P(&p, guest_cpi) = cpi;
        CU_ASSERT_EQUAL_FATAL(run_sites("whatif_scanrun_sites.txt", text,
                                        "template-bytes=4096:hcalls=0", &p,
                                        spec, sizeof spec),
                              SIM_OK);
        uint64_t g0 = g_pred.rows[EXIT_TIMEINGUEST].sum;
        double gain0 = g_res.wall_gain;
        uint64_t n0 = g_pred.rows[EXIT_TIMEINGUEST].count;
        snprintf(lines, sizeof lines, "%s%s", text, scan);
        CU_ASSERT_EQUAL_FATAL(run_sites("whatif_scanrun_sites.txt", lines,
                                        "template-bytes=4096:hcalls=0", &p,
                                        spec, sizeof spec),
                              SIM_OK);
        CU_ASSERT_EQUAL(g_pred.rows[EXIT_TIMEINGUEST].sum,
                        g0 + 4000 * (uint64_t)cpi + 2 * (80 + 24));
        CU_ASSERT_EQUAL(g_pred.rows[EXIT_TIMEINGUEST].count, n0);
        CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_DTLBVIRT), 2);
        CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMULINST), 2);
        /* off the ticks' clock: the same gain, not 4,208 or 8,208 ticks
         * less (the handlers' data decays over 1e9 cycles here, so the
         * longer runs leave the next exits' costs as they were) */
        CU_ASSERT(fabs(g_res.wall_gain - gain0) * 667e6 < 0.5);
        /* the report says what ran */
        whatif_chain *c = NULL;
        CU_ASSERT_EQUAL_FATAL(whatif_chain_parse(&c, spec), SIM_OK);
        stats b, q;
        whatif_opts o = {.unit = STATS_TICKS};
        CU_ASSERT_EQUAL_FATAL(whatif_run(g_path, c, &p, &o, &b, &q, &g_res),
                              SIM_OK);
        char rep[4096] = "";
        FILE *f = fmemopen(rep, sizeof rep - 1, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        whatif_chain_report(c, f);
        fclose(f);
        char want[128];
        snprintf(want, sizeof want, "the scan's loop: 4000 guest instructions "
                                    "on 2 pages, %d cycles",
                 4000 * cpi + 2 * (80 + 24));
        CU_ASSERT_PTR_NOT_NULL(strstr(rep, want));
        whatif_chain_free(c);
    }
    /* refused: not a page, not a number, twice, outside the text, without
     * the text, an absurd count */
    static const char *const bad[] = {
        "0xc0000000 stext\n0xc0002000 etext\n0xc0001000 wrteei0\n"
        "0xc0000800 scaninsns 5\n",
        "0xc0000000 stext\n0xc0002000 etext\n0xc0001000 wrteei0\n"
        "0xc0000000 scaninsns x5\n",
        "0xc0000000 stext\n0xc0002000 etext\n0xc0001000 wrteei0\n"
        "0xc0000000 scaninsns 5\n0xc0000000 scaninsns 6\n",
        "0xc0000000 stext\n0xc0002000 etext\n0xc0001000 wrteei0\n"
        "0xc0002000 scaninsns 5\n",
        "0xc0001000 wrteei0\n0xc0000000 scaninsns 5\n",
        "0xc0000000 stext\n0xc0002000 etext\n0xc0001000 wrteei0\n"
        "0xc0000000 scaninsns 100000000000\n",
    };
    refuse_sites("whatif_scanrun_bad.txt", bad, sizeof bad / sizeof bad[0],
                 "template-bytes=4096:hcalls=0", &p, "whatif_scanrun_bad.txt");
}

/* With kvm_tmp's address in the site list, a patched template site runs
 * its template there: an I-TLB miss of that page unless the predicting
 * UTLB holds it. Two wrteei 0 templates of 56 bytes from 0xc0100ff0: A's
 * in page 0xc0100000, B's (offset 56) in 0xc0101000; A, B, A: 2 misses. */
static void test_pv_templates_run_in_kvm_tmp(void)
{
    params p;
    quiet(&p);
    pack(HEAD
         "exit EMUL_WRTEE irq=6 pc=0xc0001000 inst=0x7c000146 tb=1000 guest=2000 flags=G\n"
         "exit EMUL_WRTEE irq=6 pc=0xc0001100 inst=0x7c000146 tb=2000 guest=2000 flags=G\n"
         "exit EMUL_WRTEE irq=6 pc=0xc0001000 inst=0x7c000146 tb=3000 guest=2000 flags=G\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=4000 guest=2000 flags=G,PR\n");
    char spec[700];
    CU_ASSERT_EQUAL_FATAL(
        run_sites("whatif_tmp_sites.txt",
                  "0xc0001000 wrteei0\n0xc0001100 wrteei0\n"
                  "0xc0100ff0 kvm_tmp\n",
                  "template-bytes=112:hcalls=0", &p, spec, sizeof spec),
        SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_WRTEE), 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_ITLBVIRT), 2);
    /* without the address: no template page is fetched */
    CU_ASSERT_EQUAL_FATAL(
        run_sites("whatif_tmp_sites.txt",
                  "0xc0001000 wrteei0\n0xc0001100 wrteei0\n",
                  "template-bytes=112:hcalls=0", &p, spec, sizeof spec),
        SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_ITLBVIRT), 0);
}

static void test_identity_predicts_the_baseline(void)
{
    params p;
    params_init(&p); /* host interference on: still identical */
    pack(pv_trace);
    CU_ASSERT_EQUAL_FATAL(run("tlb-slots=63", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(g_res.removed, 0);
    for (int t = 0; t < EXIT__COUNT; t++) {
        CU_ASSERT_EQUAL(g_base.rows[t].count, g_pred.rows[t].count);
        CU_ASSERT_EQUAL(g_base.rows[t].sum, g_pred.rows[t].sum);
    }
}

/* The same with a time-driven exit first (its place in guest time is 0):
 * after the trace, the repeated schedule's first arrival falls exactly at
 * the end of the prediction's guest time, which is where the baseline's
 * trace ends - the identity must not emit it (it did: one more exit, and
 * the trace's last exit charged in the prediction only). */
static const char timed_first_trace[] =
    HEAD
    "exit DEC irq=10 pc=0xc0001000 tb=1000000 handler=50000 guest=20000 flags=H,G\n"
    "exit EXTINT irq=4 pc=0xc0002000 tb=1070000 handler=400000 guest=10000 flags=H,G\n"
    "exit SYSCALL irq=8 pc=0x10000600 inst=0x44000002 tb=1500000 handler=7000 guest=9000 flags=H,G,PR\n"
    "exit SYSCALL irq=8 pc=0x10000600 inst=0x44000002 tb=1516000 handler=7000 guest=9000 flags=H,G,PR\n";

static void test_identity_with_a_timed_exit_first(void)
{
    params p;
    quiet(&p);
    pack(timed_first_trace);
    static const char *const ids[] = {"tlb-slots=63", "pv:hcalls=0"};
    for (size_t k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL_FATAL(run(ids[k], &p, STATS_TICKS), SIM_OK);
        CU_ASSERT_EQUAL(g_res.base_exits, 4);
        CU_ASSERT_EQUAL(g_res.pred_exits, 4);
        CU_ASSERT_EQUAL(g_res.timed_pred, g_res.timed_trace);
        for (int t = 0; t < EXIT__COUNT; t++) {
            CU_ASSERT_EQUAL(g_base.rows[t].count, g_pred.rows[t].count);
            CU_ASSERT_EQUAL(g_base.rows[t].sum, g_pred.rows[t].sum);
        }
    }
}

/* On the SystemC platform the time-driven exits are the platform's own,
 * at the parameters' rates, the trace's dropped: the "in the baseline"
 * count is the platform's too (it was the trace's DEC+EXTINT, set against
 * the platform's DEC+EXTINT+SIGNAL). pv_trace has no time-driven exit;
 * host ticks and signals at 10 kHz give the platform some. */
static void test_systemc_counts_its_own_timed_exits(void)
{
    if (!platform_available())
        return;
    params p;
    quiet(&p);
    CU_ASSERT_EQUAL(params_set(&p, PARAM_host_tick_hz, 10000, "t"), SIM_OK);
    CU_ASSERT_EQUAL(params_set(&p, PARAM_signal_hz, 10000, "t"), SIM_OK);
    pack(pv_trace);
    whatif_chain *c;
    CU_ASSERT_EQUAL_FATAL(whatif_chain_parse(&c, "no-iccci"), SIM_OK);
    whatif_opts o = {.unit = STATS_TICKS, .tmp_dir = test_tmp_dir(),
                     .systemc = true};
    CU_ASSERT_EQUAL(whatif_run(g_path, c, &p, &o, &g_base, &g_pred, &g_res),
                    SIM_OK);
    whatif_chain_free(c);
    uint64_t plat = cnt(&g_base, EXIT_DEC) + cnt(&g_base, EXIT_EXTINT) +
                    cnt(&g_base, EXIT_SIGNAL);
    CU_ASSERT(plat > 0);
    /* the last exit is never charged: within one of the table's rows */
    CU_ASSERT(g_res.timed_trace >= plat && g_res.timed_trace <= plat + 1);
}

/* DTLBVIRT misses on 70 pages of one 16 MB guest entry, twice over: with 63
 * round-robin slots the second pass misses again, with 120 it finds every
 * page still resident. */
static char tlb_trace[16384];
static void make_tlb_trace(void)
{
    size_t n = (size_t)snprintf(
        tlb_trace, sizeof tlb_trace,
        HEAD "gtlb index=2 tid=0 w0=0xc0000270 w1=0x00000000 w2=0x0000003f "
             "tb=500\n");
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 70; i++)
            n += (size_t)snprintf(tlb_trace + n, sizeof tlb_trace - n,
                                  "exit DTLBVIRT irq=13 pc=0xc0002000 "
                                  "inst=0x813f0008 addr=0x%08x tb=%d "
                                  "guest=1000 flags=G\n",
                                  0xc0100000u + 4096u * (unsigned)i,
                                  1000 + pass * 70 + i);
    n += (size_t)snprintf(tlb_trace + n, sizeof tlb_trace - n,
                          "exit SYSCALL irq=8 pc=0x10000000 tb=9999 "
                          "guest=1000 flags=G,PR\n");
}

static void test_tlb_slots_keep_pages_resident(void)
{
    params p;
    quiet(&p);
    make_tlb_trace();
    pack(tlb_trace);
    CU_ASSERT_EQUAL_FATAL(run("tlb-slots=120", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_base, EXIT_DTLBVIRT), 140);
    CU_ASSERT_EQUAL(g_res.misses_rederived, 70);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_DTLBVIRT), 70);
    /* 32 slots: nothing the baseline missed is resident either */
    CU_ASSERT_EQUAL_FATAL(run("tlb-slots=32", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_DTLBVIRT), 140);
}

/* The owed misses (docs/whatif.md, "Host TLB pressure"), on DTLBVIRT
 * misses to pages of one guest entry, with the host's pages off so that
 * every UTLB fill is a guest shadow map (pure round robin: 63 slots in the
 * baseline, 120 in the prediction):
 *   pages 0..69   both lose them; the baseline keeps 7..69, the prediction
 *                 all
 *   pages 0..6    the baseline lost them, the prediction holds them:
 *                 re-derived away (7), not mapped by the prediction
 *   pages 70..129 both map them: the baseline evicts 14..69 and 0..3, the
 *                 prediction (130 maps in 120 slots) its oldest, 0..9
 *   page 5        the baseline holds it, the prediction lost it: owed
 *   page 20       the baseline lost it, the prediction holds it: kept
 *                 against the one owed
 *   page 21       the same, nothing owed: re-derived away.
 * The one-sided rule removed 9 of them; this one 8, and keeps 132. */
static char owed_trace[131072];
static size_t owed_line(size_t n, int page, int tb)
{
    return n + (size_t)snprintf(owed_trace + n, sizeof owed_trace - n,
                                "exit DTLBVIRT irq=13 pc=0xc0002000 "
                                "inst=0x813f0008 addr=0x%08x tb=%d "
                                "guest=1000 flags=G\n",
                                0xc0100000u + 4096u * (unsigned)page, tb);
}

/* The two tests of the soft TLBs' lockstep: quiet parameters without the
 * host's own pages (a pure round robin), and the trace's head with one
 * guest TLB entry at 0xc0000000; returns the head's length. */
static size_t owed_setup(params *p)
{
    quiet(p);
    CU_ASSERT_EQUAL(params_set(p, PARAM_common_host_pages, 0, "t"), SIM_OK);
    CU_ASSERT_EQUAL(params_set(p, PARAM_path_host_pages, 0, "t"), SIM_OK);
    return (size_t)snprintf(
        owed_trace, sizeof owed_trace,
        HEAD "gtlb index=2 tid=0 w0=0xc0000270 w1=0x00000000 w2=0x0000003f "
             "tb=500\n");
}

static void test_owed_miss_keeps_a_rederived_one(void)
{
    params p;
    size_t n = owed_setup(&p);
    int tb = 1000;
    for (int i = 0; i < 70; i++)
        n = owed_line(n, i, tb++);
    for (int i = 0; i < 7; i++)
        n = owed_line(n, i, tb++);
    for (int i = 70; i < 130; i++)
        n = owed_line(n, i, tb++);
    n = owed_line(n, 5, tb++);
    n = owed_line(n, 20, tb++);
    n = owed_line(n, 21, tb++);
    snprintf(owed_trace + n, sizeof owed_trace - n,
             "exit SYSCALL irq=8 pc=0x10000000 tb=%d guest=1000 flags=G,PR\n",
             tb);
    pack(owed_trace);
    CU_ASSERT_EQUAL_FATAL(run("tlb-slots=119", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_base, EXIT_DTLBVIRT), 140);
    CU_ASSERT_EQUAL(g_res.misses_lost_pred, 1);
    CU_ASSERT_EQUAL(g_res.misses_kept_owed, 1);
    CU_ASSERT_EQUAL(g_res.misses_owed_left, 0);
    CU_ASSERT_EQUAL(g_res.misses_rederived, 8);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_DTLBVIRT), 132);
}

/* The exits' pcs (docs/whatif.md, "Host TLB pressure"): a pc is a fetch
 * the trace shows as a hit. Host pages off, pure round robin: 63 slots in
 * the baseline, 32 in the prediction (tlb-slots=32); DTLBVIRT misses to
 * pages of one guest entry (all new pages: both sides miss them alike):
 *   pages 0..39   the baseline holds all, the prediction 8..39 (32..39 in
 *                 its slots 0..7, its index at 8)
 *   pc in page 3  the baseline holds it, the prediction lost it: an
 *                 ITLBVIRT inserted (1), mapped in the prediction's slot 8
 *   pc in page 3  both hold it: nothing
 *   pages 40..62  the baseline's slots 40..62 (its index wraps to 0), the
 *                 prediction's 9..31 (wraps to 0)
 *   pages 63..66  the baseline evicts pages 0..3, the prediction 32..35
 *   pc in page 3  the baseline lost it, the prediction holds it: a credit
 *   pc in page 3  the same residency: no second credit
 *   pc in page 5  the baseline holds it, the prediction lost it: the
 *                 credit stands for it, nothing inserted
 *   pc in page 5  the same residency: nothing
 *   pc in page 6  as page 5, no credit left: inserted (2)
 *   pc in page 6  both hold it: nothing.
 * So 2 ITLBVIRT in the prediction, none in the baseline; without the rule
 * none. */
static size_t pc_line(size_t n, int page, int tb)
{
    return n + (size_t)snprintf(owed_trace + n, sizeof owed_trace - n,
                                "exit EMUL_WRTEE irq=6 pc=0x%08x "
                                "inst=0x7c000146 tb=%d guest=1000 flags=G\n",
                                0xc0100100u + 4096u * (unsigned)page, tb);
}

static void test_pc_evidence_inserts_a_miss(void)
{
    params p;
    size_t n = owed_setup(&p);
    int tb = 1000;
    for (int i = 0; i < 40; i++)
        n = owed_line(n, i, tb++);
    n = pc_line(n, 3, tb++);
    n = pc_line(n, 3, tb++);
    for (int i = 40; i < 67; i++)
        n = owed_line(n, i, tb++);
    static const int pcs[] = {3, 3, 5, 5, 6, 6};
    for (size_t k = 0; k < sizeof pcs / sizeof pcs[0]; k++)
        n = pc_line(n, pcs[k], tb++);
    snprintf(owed_trace + n, sizeof owed_trace - n,
             "exit SYSCALL irq=8 pc=0x10000000 tb=%d guest=1000 flags=G,PR\n",
             tb);
    pack(owed_trace);
    CU_ASSERT_EQUAL_FATAL(run("tlb-slots=32", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_base, EXIT_DTLBVIRT), 67);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_DTLBVIRT), 67);
    CU_ASSERT_EQUAL(cnt(&g_base, EXIT_ITLBVIRT), 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_ITLBVIRT), 2);
    CU_ASSERT_EQUAL(g_res.misses_pc_inserted, 2);
    CU_ASSERT_EQUAL(g_res.misses_pc_credit, 1);
    CU_ASSERT_EQUAL(g_res.misses_pc_credit_used, 1);
    CU_ASSERT_EQUAL(g_res.misses_rederived, 0);
    CU_ASSERT_EQUAL(g_res.misses_lost_pred, 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_WRTEE), 8);
    /* the identity (63 slots) sees both sides alike: nothing either way */
    CU_ASSERT_EQUAL_FATAL(run("tlb-slots=63", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_ITLBVIRT), 0);
    CU_ASSERT_EQUAL(g_res.misses_pc_credit, 0);
    /* with host pages, an exit's own fills evict guest pages, its pc's
     * among them: both soft TLBs are asked before either side prices the
     * exit (asked after the baseline's pricing, the identity took credits) */
    CU_ASSERT_EQUAL(params_set(&p, PARAM_common_host_pages, 4, "t"), SIM_OK);
    n = (size_t)snprintf(
        owed_trace, sizeof owed_trace,
        HEAD "gtlb index=2 tid=0 w0=0xc0000270 w1=0x00000000 w2=0x0000003f "
             "tb=500\n");
    tb = 1000;
    for (int i = 0; i < 100; i++) {
        n = owed_line(n, i, tb++);
        for (int j = i - 62; j < i - 54; j++)
            if (j >= 0)
                n = pc_line(n, j, tb++);
    }
    snprintf(owed_trace + n, sizeof owed_trace - n,
             "exit SYSCALL irq=8 pc=0x10000000 tb=%d guest=1000 flags=G,PR\n",
             tb);
    pack(owed_trace);
    CU_ASSERT_EQUAL_FATAL(run("tlb-slots=63", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(g_res.misses_pc_credit, 0);
    CU_ASSERT_EQUAL(g_res.misses_pc_inserted, 0);
    for (int t = 0; t < EXIT__COUNT; t++)
        CU_ASSERT_EQUAL(g_base.rows[t].count, g_pred.rows[t].count);
}

/* null changes nothing without options; cycles=N only prices (with the
 * host's noise off no exit, page or fill moves); its options are checked */
static void test_null_is_the_identity(void)
{
    params p;
    quiet(&p);
    make_tlb_trace();
    pack(tlb_trace);
    static const char *const specs[] = {"null", "null:cycles=1000"};
    for (size_t k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL_FATAL(run(specs[k], &p, STATS_TICKS), SIM_OK);
        CU_ASSERT_EQUAL(g_res.removed, 0);
        CU_ASSERT_EQUAL(g_res.misses_lost_pred, 0);
        for (int t = 0; t < EXIT__COUNT; t++)
            CU_ASSERT_EQUAL(g_base.rows[t].count, g_pred.rows[t].count);
    }
    CU_ASSERT_EQUAL(g_pred.rows[EXIT_DTLBVIRT].sum,
                    g_base.rows[EXIT_DTLBVIRT].sum + 140 * 1000);
    static const char *const bad[] = {"null:cycles=", "null:cycles=-1",
                                      "null:cycles=1001", "null:seed=1:",
                                      "null:cycles=1:cycles=2", "null:x=1",
                                      "null=5"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        whatif_chain *c = NULL;
        CU_ASSERT_EQUAL(whatif_chain_parse(&c, bad[k]), SIM_ERR_USAGE);
        whatif_chain_free(c);
    }
}

/* Light exits without guest ticks: every handler stage of the model. */
static const char light_trace[] =
    HEAD
    "exit EMUL_TLBWE irq=6 pc=0xc0001020 inst=0x7c6007a4 tb=1000 guest=5000 flags=G\n"
    "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=2000 guest=5000 flags=G,PR\n"
    "exit EMUL_TLBWE irq=6 pc=0xc0001020 inst=0x7c6007a4 tb=3000 guest=5000 flags=G\n"
    "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=4000 guest=5000 flags=G,PR\n"
    "exit EMUL_RFI irq=6 pc=0xc0001030 inst=0x4c000064 tb=5000 guest=5000 flags=G\n";

static void test_lazy_tlb_adds_the_flag_scan_to_every_entry(void)
{
    params p;
    quiet(&p);
    pack(light_trace);
    CU_ASSERT_EQUAL_FATAL(run("lazy-tlb", &p, STATS_TICKS), SIM_OK);
    /* hwater + 1 = 63 flags tested at 5 cycles each, tb = core clock */
    uint64_t scan = 63 * 5;
    for (int t = 0; t < EXIT__COUNT; t++) {
        if (t == EXIT_TIMEINGUEST)
            continue;
        CU_ASSERT_EQUAL(g_pred.rows[t].count, g_base.rows[t].count);
        CU_ASSERT_EQUAL(g_pred.rows[t].sum,
                        g_base.rows[t].sum + g_base.rows[t].count * scan);
    }
    CU_ASSERT_EQUAL(g_pred.rows[EXIT_TIMEINGUEST].sum,
                    g_base.rows[EXIT_TIMEINGUEST].sum);
}

static void test_no_iccci_removes_the_invalidate_and_refills(void)
{
    params p;
    quiet(&p);
    pack(light_trace);
    CU_ASSERT_EQUAL_FATAL(run("no-iccci", &p, STATS_TICKS), SIM_OK);
    /* each exit: no iccci (40 cycles); the handler's code lines decay
     * with the 5000-cycle guest run like its data (1 - e^(-5000/20000) =
     * 22% cold) instead of all cold */
    for (int t = 0; t < EXIT__COUNT; t++) {
        if (t == EXIT_TIMEINGUEST || !g_base.rows[t].count)
            continue;
        CU_ASSERT_EQUAL(g_pred.rows[t].count, g_base.rows[t].count);
        CU_ASSERT(g_pred.rows[t].sum + g_base.rows[t].count * 40 <
                  g_base.rows[t].sum);
    }
    /* guest runs are measured here: each loses the guest refill the iccci
     * caused (8 lines x 50 cycles, less the share the handler displaces) */
    CU_ASSERT(g_pred.rows[EXIT_TIMEINGUEST].sum <
              g_base.rows[EXIT_TIMEINGUEST].sum);
    CU_ASSERT(g_pred.rows[EXIT_TIMEINGUEST].sum >
              g_base.rows[EXIT_TIMEINGUEST].sum - 4 * 400);
}

static const char mmio_trace[] =
    HEAD
    "exit MMIO irq=13 pc=0xc01a2b30 inst=0x81230000 addr=0xef600300 tb=1000 guest=5000 flags=G,U\n"
    "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=2000 guest=5000 flags=G,PR\n"
    "exit MMIO irq=13 pc=0xc01a2b30 inst=0x81230000 addr=0xef600300 tb=3000 guest=5000 flags=G,U\n"
    "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=4000 guest=5000 flags=G,PR\n";

static void test_inkernel_mmio_drops_the_qemu_round_trip(void)
{
    params p;
    quiet(&p);
    pack(mmio_trace);
    CU_ASSERT_EQUAL_FATAL(run("inkernel-mmio", &p, STATS_USEC), SIM_OK);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_MMIO), 2);
    /* QEMU's 40 usec (sigma 0) and the KVM_RUN return are gone */
    CU_ASSERT(g_tp.rows[EXIT_MMIO].avg + 40 < g_tb.rows[EXIT_MMIO].avg);
}

/* 40 pairs of (patchable mfmsr, tlbwe), and after every 4th pair a DEC
 * (signals false) or a SIGNAL (signals true; the second of them the idle
 * wait a signal ended, W): pv removes the mfmsr exits, so the guest time
 * shrinks. */
static char timed_trace[16384];
static void pairs_trace(bool signals)
{
    size_t n = (size_t)snprintf(timed_trace, sizeof timed_trace, "%s", HEAD);
    for (int i = 0; i < 40; i++) {
        n += (size_t)snprintf(timed_trace + n, sizeof timed_trace - n,
                              "exit EMUL_MFMSR irq=6 pc=0xc0001010 "
                              "inst=0x7c6000a6 tb=%d guest=3000 flags=G\n"
                              "exit EMUL_TLBWE irq=6 pc=0xc0001020 "
                              "inst=0x7c6007a4 tb=%d guest=3000 flags=G\n",
                              1000 + 3 * i, 1001 + 3 * i);
        if (i % 4 == 3 && !signals)
            n += (size_t)snprintf(timed_trace + n, sizeof timed_trace - n,
                                  "exit DEC irq=10 pc=0xc0001030 tb=%d "
                                  "guest=3000 flags=G\n",
                                  1002 + 3 * i);
        else if (i % 4 == 3)
            n += (size_t)snprintf(timed_trace + n, sizeof timed_trace - n,
                                  "exit SIGNAL irq=%d pc=0xc0001030 "
                                  "inst=0x%08x tb=%d guest=3000 flags=G,U%s\n",
                                  i == 7 ? 6 : 4, i == 7 ? 0x7c600124u : 0u,
                                  1002 + 3 * i, i == 7 ? ",W" : "");
    }
    pack(timed_trace);
}

/* Time-driven exits keep their place in guest time: fewer DECs are
 * reached in the shorter guest time. */
/* console=1: the "No more space" lines go out as the trace's console
 * output did, per line and per byte, while the scan is at the line's
 * unplaced site: the printing code's patchable instructions above the
 * scan still trap, those below it run patched. The console at 0xd0000000
 * (data register +0, status register +5) writes 24 lines of 8 bytes, a
 * status poll and a store each. Before each line after the first, the
 * printing path: an mfmsr at 0xc0002000 (interrupts saved) and a TLB miss:
 * of page A (I-side, 0xc0003000) before the odd lines, of page B (D-side,
 * 0xc0100000) before the even ones, of page C (D-side, 0xc0200000) before
 * line 5 instead of A; before every 6th line (3, 9, 15, 21) also 6 tlbwe
 * of other boot work. The lines' gaps: 19 of 2 exits, 4 of 8; median 2.
 * The printing path's pages: A and B (missed by two captured lines or
 * more), not C (one). */
static char flood_trace[65536];
static void flood_run(const char *site_lines, unsigned *mfmsr,
                      unsigned *dtlbpv, unsigned lock_tlbwe)
{
    size_t n = (size_t)snprintf(flood_trace, sizeof flood_trace, "%s", HEAD);
    unsigned tb = 1000;
#define FLOOD_REC(...)                                                         \
    n += (size_t)snprintf(flood_trace + n, sizeof flood_trace - n, __VA_ARGS__)
    for (int line = 0; line < 24; line++) {
        if (line % 6 == 3)
            for (int k = 0; k < 6; k++)
                FLOOD_REC("exit EMUL_TLBWE irq=6 pc=0xc0004000 inst=0x7c6007a4 "
                          "tb=%u guest=1000 flags=G\n", tb++);
        if (line > 0)
            FLOOD_REC("exit EMUL_MFMSR irq=6 pc=0xc0002000 inst=0x7c6000a6 "
                      "tb=%u guest=1000 flags=G\n", tb);
        if (line == 5)
            FLOOD_REC("exit DTLBVIRT irq=13 pc=0xc0003004 inst=0x81230000 "
                      "addr=0xc0200000 tb=%u guest=1000 flags=G\n", tb + 1);
        else if (line % 2)
            FLOOD_REC("exit ITLBVIRT irq=14 pc=0xc0003000 addr=0xc0003000 "
                      "tb=%u guest=1000 flags=G\n", tb + 1);
        else if (line > 0)
            FLOOD_REC("exit DTLBVIRT irq=13 pc=0xc0003004 inst=0x81230000 "
                      "addr=0xc0100000 tb=%u guest=1000 flags=G\n", tb + 1);
        tb += 3;
        for (int b = 0; b < 8; b++, tb += 2)
            FLOOD_REC("exit MMIO irq=13 pc=0xc0000100 inst=0x88690000 "
                      "addr=0xd0000005 tb=%u guest=1000 flags=G,U\n"
                      "exit MMIO irq=13 pc=0xc0000104 inst=0x98890000 "
                      "addr=0xd0000000 tb=%u guest=1000 flags=G,U\n",
                      tb, tb + 1);
    }
    FLOOD_REC("exit EMUL_TLBSX irq=6 pc=0xc0005000 inst=0x7c603f24 tb=%u "
              "guest=1000 flags=G\n", tb); /* last: never charged */
#undef FLOOD_REC
    pack(flood_trace);
    char sites[600], spec[700];
    write_sites("whatif_flood_sites.txt", site_lines, sites, sizeof sites);
    snprintf(spec, sizeof spec,
             "pv:template-bytes=56:console=1:sites=%s,tlb-slots:8",
             sites);
    params p;
    quiet(&p);
    CU_ASSERT_EQUAL_FATAL(run(spec, &p, STATS_TICKS), SIM_OK);
    /* the trace's own mfmsr are all patched: what traps is the flood's */
    *mfmsr = (unsigned)cnt(&g_pred, EXIT_EMUL_MFMSR);
    *dtlbpv = (unsigned)cnt(&g_pred, EXIT_DTLBPV);
    /* two lines "KVM: No more space (56 + 56)\r\n", 30 bytes, 2 exits a
     * byte (the window: 64 polls and 64 stores for 64 bytes) */
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_MMIO), 24 * 8 * 2 + 2 * 30 * 2);
    /* per line, a captured line's gap (lines 1 and 2: 2 exits each); the
     * lines with other work before them (gap 8 > median) are not */
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_TLBWE), 24 + lock_tlbwe);
    /* and the printing path's pages, all of them a line, when the
     * previous line's round trips evicted them (tlb-slots:8: the host's
     * fills of one round trip take every slot): flood line 1 replays line
     * 1's miss of A and misses B, line 2 replays B and misses A; never C.
     * The trace: A 11 times, B 11, C once. */
    CU_ASSERT_EQUAL(g_res.misses_rederived, 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_ITLBVIRT), 11 + 2);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_DTLBVIRT), 12 + 2);
}

static void test_pv_console_lines_trap_above_the_scan(void)
{
    unsigned above, below, pv_above, pv_below;
    /* the lines at 0xc0009000 and 0xc000a000: the printing path's mfmsr
     * (0xc0002000) already patched, a load of the magic page, which the
     * previous line's round trips evicted: a DTLBPV a line */
    flood_run("0xc0001000 wrteei0\n0xc0009000 wrteei0\n0xc000a000 wrteei0\n",
              &above, &pv_above, 0);
    CU_ASSERT_EQUAL(above, 0);
    /* the lines at 0xc0001100 and 0xc0001200: it still traps, once a line,
     * and the page is not touched there */
    flood_run("0xc0001000 wrteei0\n0xc0001100 wrteei0\n0xc0001200 wrteei0\n",
              &below, &pv_below, 0);
    CU_ASSERT_EQUAL(below, 2);
    CU_ASSERT_EQUAL(pv_above, pv_below + 2);
}

/* A 'conlock' function (down_trylock, up: console_sem, taken and
 * released once for each printk): the other boot work's tlbwe at
 * 0xc0004000 declared as one, each of the 2 flood lines takes its exit
 * once (the trace's first record at that site), though no captured line
 * holds it. */
static void test_pv_console_lock_once_a_line(void)
{
    unsigned m, d;
    flood_run("0xc0004000 conlock 0x10\n0xc0001000 wrteei0\n"
              "0xc0001100 wrteei0\n0xc0001200 wrteei0\n",
              &m, &d, 2);
    CU_ASSERT_EQUAL(m, 2);
}

static void test_time_driven_exits_follow_guest_time(void)
{
    params p;
    quiet(&p);
    pairs_trace(false);
    CU_ASSERT_EQUAL_FATAL(run("pv", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(g_res.timed_trace, 10);
    CU_ASSERT_EQUAL(cnt(&g_base, EXIT_DEC), 9); /* the last is never charged */
    uint64_t dec = g_res.timed_pred;
    CU_ASSERT(dec >= 4 && dec < 10);
    CU_ASSERT(cnt(&g_pred, EXIT_DEC) + 1 >= dec && cnt(&g_pred, EXIT_DEC) <= dec);
    /* the same share of the predicted guest time as of the baseline's */
    double share = (double)g_pred.rows[EXIT_TIMEINGUEST].sum /
                   (double)g_base.rows[EXIT_TIMEINGUEST].sum;
    CU_ASSERT(fabs((double)dec - 10 * share) <= 1.5);
}

/* A prediction whose guest time outlasts the trace's (here the PV scan's
 * 20,000 instructions on a trace of 40,000 guest ticks) repeats the
 * trace's DEC arrivals on the longer time (docs/whatif.md "Time-driven
 * exits"). A repeated arrival splits a run of work the trace already
 * gave: it brings no run of its own, only its entry's stages. Before, each
 * repeat brought its recorded run (5,000 ticks) again. */
static void test_repeated_arrivals_bring_no_run(void)
{
    params p;
    quiet(&p);
    P(&p, guest_cpi) = 1;
    pack(HEAD
         "exit DEC irq=10 pc=0xc0000100 tb=1000 guest=5000 flags=G\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=20000 guest=5000 flags=G,PR\n"
         "exit DEC irq=10 pc=0xc0000100 tb=40000 guest=5000 flags=G\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=60000 guest=5000 flags=G,PR\n"
         "exit DEC irq=10 pc=0xc0000100 tb=80000 guest=5000 flags=G\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=100000 guest=5000 flags=G,PR\n"
         "exit DEC irq=10 pc=0xc0000100 tb=120000 guest=5000 flags=G\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=140000 guest=5000 flags=G,PR\n");
    char spec[700];
    sim_err e = run_sites("whatif_repeat_sites.txt",
                  "0xc0000000 stext\n0xc0002000 etext\n"
                  "0xc0001000 wrteei0\n0xc0000000 scaninsns 20000\n",
                  "template-bytes=4096:hcalls=0", &p, spec, sizeof spec);
    if (e != SIM_OK)
        fprintf(stderr, "repeat: %s\n", sim_errmsg());
    CU_ASSERT_EQUAL_FATAL(e, SIM_OK);
    CU_ASSERT_EQUAL(g_res.timed_trace, 4);
    uint64_t repeats = g_res.timed_pred - g_res.timed_trace;
    CU_ASSERT(repeats >= 1);
    /* the guest time grows by the scan's 20,000 cycles and, for each exit
     * the prediction has more (the scan's inserted exits and the repeats),
     * its entry's stages and refills - well under 1,500 cycles each here -
     * not by a 5,000-tick run a repeat (before: 37,292 for 7 more exits) */
    uint64_t grew = g_pred.rows[EXIT_TIMEINGUEST].sum -
                    g_base.rows[EXIT_TIMEINGUEST].sum;
    uint64_t more = g_pred.rows[EXIT_TIMEINGUEST].count -
                    g_base.rows[EXIT_TIMEINGUEST].count;
    CU_ASSERT(grew >= 20000);
    CU_ASSERT(grew < 20000 + 1500 * more);
}

/* SIGNAL is not time-driven: QEMU signals the vcpu thread for workload
 * events, and the seed tables keep their number (635 -> 658) while the
 * run shrinks by a third. With SIGNALs in place of the DECs, pv shortens
 * the guest time exactly as there, and every SIGNAL stays. */
static void test_signals_stay_in_the_exit_stream(void)
{
    params p;
    quiet(&p);
    pairs_trace(true);
    CU_ASSERT_EQUAL_FATAL(run("pv", &p, STATS_TICKS), SIM_OK);
    CU_ASSERT_EQUAL(g_res.timed_trace, 0);
    CU_ASSERT_EQUAL(g_res.timed_pred, 0);
    CU_ASSERT_EQUAL(g_res.removed, 40);
    CU_ASSERT_EQUAL(cnt(&g_base, EXIT_SIGNAL), 9); /* the last is never charged */
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_SIGNAL), 9);
    CU_ASSERT(g_pred.rows[EXIT_TIMEINGUEST].sum <
              g_base.rows[EXIT_TIMEINGUEST].sum);
}

static void test_compose_deterministic_and_order_free(void)
{
    params p;
    params_init(&p);
    pack(pv_trace);
    CU_ASSERT_EQUAL_FATAL(run("pv,no-iccci", &p, STATS_TICKS), SIM_OK);
    stats a = g_pred;
    CU_ASSERT_EQUAL_FATAL(run("no-iccci,pv", &p, STATS_TICKS), SIM_OK);
    for (int t = 0; t < EXIT__COUNT; t++) {
        CU_ASSERT_EQUAL(a.rows[t].count, g_pred.rows[t].count);
        CU_ASSERT_EQUAL(a.rows[t].sum, g_pred.rows[t].sum);
    }
    whatif_chain *c;
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "no-iccci,pv"), SIM_OK);
    CU_ASSERT_STRING_EQUAL(whatif_chain_name(c), "pv,no-iccci");
    whatif_chain_free(c);
}

static void test_bad_specs_refused(void)
{
    whatif_chain *c = NULL;
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "pvx"), SIM_ERR_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "valid: pv, no-iccci, "
                                                "tlb-slots, inkernel-mmio, "
                                                "lazy-tlb"));
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "tlb-slots=7"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "tlb-slots"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "pv:template-bytes=abc"),
                    SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "no-iccci=3"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, ""), SIM_ERR_USAGE);
    /* an empty name between commas is a typo, not nothing */
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "pv,,"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, ",pv"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "pv,no-iccci"), SIM_OK);
    whatif_chain_free(c);
    /* values: digits only, each option once, none empty */
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "tlb-slots=-5"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "tlb-slots= 12"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "pv:hcalls=1:hcalls=1"),
                    SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "pv:"), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(whatif_chain_parse(&c, "pv:template-bytes=-1"),
                    SIM_ERR_USAGE);
}

/* The chain's name is what runs, options included, in table order. */
static void test_chain_name_has_options(void)
{
    whatif_chain *c = NULL;
    CU_ASSERT_EQUAL_FATAL(
        whatif_chain_parse(&c, "tlb-slots:48,pv:template-bytes=65536:hcalls=2"),
        SIM_OK);
    CU_ASSERT_STRING_EQUAL(whatif_chain_name(c),
                           "pv:template-bytes=65536:hcalls=2,tlb-slots=48");
    whatif_chain_free(c);
}

/* The direct path and the SystemC platform price the same transformed
 * stream alike: totals within 0.5%. A synthetic trace of a PV-patchable
 * mix (tests/data/whatif_profile.txt) without time-driven exits, and no
 * host interference: the two paths' time-driven sources differ by design
 * (the direct path keeps the trace's own DEC/EXTINT at their place in
 * guest time and its SIGNALs where they are, the platform makes them at
 * the parameters' rates), and the
 * platform delivers guest ticks the direct path does not model (guest_hz 1
 * keeps them out of the way). */
static void test_direct_and_systemc_agree(void)
{
    if (!platform_available())
        return;
    char prof[512];
    snprintf(prof, sizeof prof, "%s/whatif_profile.txt", test_data_dir());
    table t;
    CU_ASSERT_EQUAL_FATAL(table_read_file(&t, prof, TFMT_AUTO), SIM_OK);
    synth_profile sp;
    CU_ASSERT_EQUAL_FATAL(synth_profile_from_table(&sp, &t, "whatif"), SIM_OK);
    snprintf(g_path, sizeof g_path, "%s/whatif_synth.bin", test_tmp_dir());
    synth_opts so = {.exits = 40000, .seed = 3};
    CU_ASSERT_EQUAL_FATAL(synth_write(g_path, &sp, &so), SIM_OK);
    params p;
    quiet(&p);
    CU_ASSERT_EQUAL(params_set(&p, PARAM_signal_hz, 0, "t"), SIM_OK);
    CU_ASSERT_EQUAL(params_set(&p, PARAM_guest_hz, 1, "t"), SIM_OK);
    static const char *const specs[] = {"pv", "pv,no-iccci,inkernel-mmio",
                                        "tlb-slots=100,lazy-tlb"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        whatif_chain *c;
        CU_ASSERT_EQUAL_FATAL(whatif_chain_parse(&c, specs[k]), SIM_OK);
        whatif_opts o = {.unit = STATS_TICKS, .tmp_dir = test_tmp_dir()};
        CU_ASSERT_EQUAL(whatif_run(g_path, c, &p, &o, &g_base, &g_pred, &g_res),
                        SIM_OK);
        double direct = (double)stats_traced_ticks(&g_pred);
        o.systemc = true;
        CU_ASSERT_EQUAL(whatif_run(g_path, c, &p, &o, &g_base, &g_pred, &g_res),
                        SIM_OK);
        double timed = (double)stats_traced_ticks(&g_pred);
        whatif_chain_free(c);
        CU_ASSERT(direct > 0 && fabs(timed - direct) / direct < 0.005);
        if (!(fabs(timed - direct) / direct < 0.005))
            fprintf(stderr, "%s: direct %.0f systemc %.0f\n", specs[k], direct,
                    timed);
    }
}

/* The prediction with the wall-time rule on (rates of wp) or off. */
static exitprof g_wp;
static sim_err run_wall(const char *spec, const params *p, bool on)
{
    whatif_opts o = {.unit = STATS_TICKS, .wall = on ? &g_wp : NULL};
    return run_opts(spec, p, &o);
}

/* Every side's time, in ticks (the traced duration of the stats). */
static double side_ticks(const stats *s)
{
    double t = 0;
    for (int k = 0; k < EXIT__COUNT; k++)
        t += (double)s->rows[k].sum;
    return t;
}

/* 60 triples (patchable mfmsr, SYSCALL, tlbwe): pv removes the 60 mfmsr,
 * so the prediction gains G on the baseline, evenly along the trace. With
 * a SYSCALL rate of 3.5 / G per second, floor(3.5) = 3 SYSCALL exits are
 * dropped (the drops' own time adds r x cost = 3 x 0.05 to the 3.5: still
 * below 4), nothing is repeated, and the other rows are as without the
 * rule; a rate for the mfmsr exits pv patched drops none. */
static void test_wall_rule_drops_floor_rate_times_gain(void)
{
    params p;
    quiet(&p);
    static char text[32768];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", HEAD);
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(
            text + n, sizeof text - n,
            "exit EMUL_MFMSR irq=6 pc=0xc0001010 inst=0x7c6000a6 tb=%d "
            "guest=300 flags=G\n"
            "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=%d "
            "guest=300 flags=G,PR\n"
            "exit EMUL_TLBWE irq=6 pc=0xc0001020 inst=0x7c6007a4 tb=%d "
            "guest=300 flags=G\n",
            1000 + 3 * i, 1001 + 3 * i, 1002 + 3 * i);
    pack(text);
    CU_ASSERT_EQUAL_FATAL(run_wall("pv:hcalls=0", &p, false), SIM_OK);
    double gain = side_ticks(&g_base) - side_ticks(&g_pred);
    uint64_t sys = cnt(&g_pred, EXIT_SYSCALL), tlbwe = cnt(&g_pred, EXIT_EMUL_TLBWE);
    double sys_cost = (double)g_pred.rows[EXIT_SYSCALL].sum / (double)sys;
    CU_ASSERT_FATAL(gain > 0);
    memset(&g_wp, 0, sizeof g_wp);
    g_wp.wall[EXIT_SYSCALL] = 3.5 / (gain / 667e6);
    /* pv patches every mfmsr: the tick's mfmsr exits are gone already, so
     * a rate for them drops nothing (its kept share is 0) */
    g_wp.wall[EXIT_EMUL_MFMSR] = 100 * g_wp.wall[EXIT_SYSCALL];
    /* the premise: the dropped exits' own time moves the target by less
     * than 0.5 */
    CU_ASSERT(3 * g_wp.wall[EXIT_SYSCALL] * sys_cost / 667e6 < 0.5);
    CU_ASSERT_EQUAL_FATAL(run_wall("pv:hcalls=0", &p, true), SIM_OK);
    CU_ASSERT_EQUAL(g_res.wall_removed[EXIT_SYSCALL], 3);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_SYSCALL), sys - 3);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_TLBWE), tlbwe);
    CU_ASSERT_EQUAL(g_res.removed, 60); /* pv's, counted apart */
    for (int t = 0; t < EXIT__COUNT; t++) {
        CU_ASSERT_EQUAL(g_res.wall_added[t], 0);
        if (t != EXIT_SYSCALL)
            CU_ASSERT_EQUAL(g_res.wall_removed[t], 0);
    }
    /* the rates off, or all 0: the prediction without the rule, exactly */
    static stats off;
    CU_ASSERT_EQUAL_FATAL(run_wall("pv:hcalls=0", &p, false), SIM_OK);
    off = g_pred;
    memset(&g_wp, 0, sizeof g_wp);
    CU_ASSERT_EQUAL_FATAL(run_wall("pv:hcalls=0", &p, true), SIM_OK);
    CU_ASSERT_EQUAL(memcmp(&off.rows, &g_pred.rows, sizeof off.rows), 0);
}

/* lazy-tlb makes every entry longer (the flag scan): the prediction runs
 * behind the baseline by L. With a SYSCALL rate of 2.5 / L, 2 SYSCALL
 * exits are repeated (priced like any record), none dropped. */
static void test_wall_rule_repeats_when_slower(void)
{
    params p;
    quiet(&p);
    static char text[65536];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", HEAD);
    for (int i = 0; i < 400; i++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "exit SYSCALL irq=8 pc=0x10000100 "
                              "inst=0x44000002 tb=%d guest=100 flags=G,PR\n",
                              1000 + i);
    pack(text);
    CU_ASSERT_EQUAL_FATAL(run_wall("lazy-tlb", &p, false), SIM_OK);
    double lag = side_ticks(&g_pred) - side_ticks(&g_base);
    uint64_t sys = cnt(&g_pred, EXIT_SYSCALL);
    double sys_cost = (double)g_pred.rows[EXIT_SYSCALL].sum / (double)sys;
    CU_ASSERT_FATAL(lag > 0);
    memset(&g_wp, 0, sizeof g_wp);
    g_wp.wall[EXIT_SYSCALL] = 2.5 / (lag / 667e6);
    CU_ASSERT(2 * g_wp.wall[EXIT_SYSCALL] * sys_cost / 667e6 < 0.5);
    CU_ASSERT_EQUAL_FATAL(run_wall("lazy-tlb", &p, true), SIM_OK);
    CU_ASSERT_EQUAL(g_res.wall_added[EXIT_SYSCALL], 2);
    CU_ASSERT_EQUAL(g_res.wall_removed[EXIT_SYSCALL], 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_SYSCALL), sys + 2);
}

/* The kernel patches itself when kvm_guest_init runs (a postcore
 * initcall): with its extent in the site list ('guestinit'), the exits
 * before the trace's first exit inside it stay as they are (here an
 * mfmsr and an mfspr SPRG0, both patchable), the map hypercall comes right
 * before that exit, and the same instructions after it are patched. When
 * no exit of the trace falls inside it, the patching is at the start, as
 * without the line. */
static void test_pv_patches_at_kvm_guest_init(void)
{
    params p;
    quiet(&p);
    pack(HEAD
         "exit EMUL_MFMSR irq=6 pc=0xc0001010 inst=0x7c6000a6 tb=1000 guest=2000 flags=G\n"
         "exit EMULINST irq=6 pc=0xc0001000 inst=0x7c7042a6 tb=2000 guest=2000 flags=G\n"
         "exit ITLBVIRT irq=14 pc=0xc0009010 addr=0xc0009010 tb=3000 guest=2000 flags=G\n"
         "exit EMUL_MFMSR irq=6 pc=0xc0001010 inst=0x7c6000a6 tb=4000 guest=2000 flags=G\n"
         "exit EMULINST irq=6 pc=0xc0001000 inst=0x7c7042a6 tb=5000 guest=2000 flags=G\n"
         "exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=6000 guest=2000 flags=G,PR\n");
    char spec[700];
    CU_ASSERT_EQUAL_FATAL(run_sites("whatif_init_sites.txt",
                                    "0xc0009000 guestinit 0x100\n"
                                    "0xc0002000 wrteei0\n",
                                    "template-bytes=4096", &p, spec,
                                    sizeof spec),
                          SIM_OK);
    CU_ASSERT_EQUAL(g_res.removed, 2);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_MFMSR), 1);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMULINST), 1);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_HCALL), 1);
    /* outside the trace: patched from the start */
    CU_ASSERT_EQUAL_FATAL(run_sites("whatif_init_sites2.txt",
                                    "0xc0007000 guestinit 0x100\n"
                                    "0xc0002000 wrteei0\n",
                                    "template-bytes=4096", &p, spec,
                                    sizeof spec),
                          SIM_OK);
    CU_ASSERT_EQUAL(g_res.removed, 4);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMUL_MFMSR), 0);
    CU_ASSERT_EQUAL(cnt(&g_pred, EXIT_EMULINST), 0);
    /* a second guestinit line, a size 0, a conlock without its size */
    static const char *const bad[] = {
        "0xc0009000 guestinit 0x100\n0xc0009000 guestinit 0x100\n",
        "0xc0009000 guestinit 0x0\n",
        "0xc0009000 conlock\n",
    };
    refuse_sites("whatif_init_bad.txt", bad, sizeof bad / sizeof bad[0],
                 "template-bytes=4096", &p, "whatif_init_bad.txt:");
}

static CU_TestInfo tests[] = {
    {"pv patches at kvm_guest_init", test_pv_patches_at_kvm_guest_init},
    {"pv: the console lock once a line", test_pv_console_lock_once_a_line},
    {"wall rule drops floor(rate x gain)",
     test_wall_rule_drops_floor_rate_times_gain},
    {"wall rule repeats when slower", test_wall_rule_repeats_when_slower},
    {"pv patches what kvm.c patches", test_pv_patches_what_kvm_c_patches},
    {"pv: removed entries take their own guest time",
     test_pv_removed_entries_take_their_own_guest_time},
    {"pv template space, address order", test_pv_template_space_in_address_order},
    {"pv sites of the kernel text", test_pv_sites_of_the_kernel_text},
    {"pv scan reads the text, flushes each patch",
     test_pv_scan_reads_the_text_and_flushes_each_patch},
    {"pv templates run in kvm_tmp", test_pv_templates_run_in_kvm_tmp},
    {"pv: the scan's loop runs in the guest",
     test_pv_scan_loop_runs_in_the_guest},
    {"repeated DEC arrivals bring no run of their own",
     test_repeated_arrivals_bring_no_run},
    {"identity predicts the baseline", test_identity_predicts_the_baseline},
    {"identity with a timed exit first", test_identity_with_a_timed_exit_first},
    {"tlb-slots keeps pages resident", test_tlb_slots_keep_pages_resident},
    {"an owed VIRT miss keeps a re-derived one",
     test_owed_miss_keeps_a_rederived_one},
    {"an exit's pc whose page the prediction lost inserts a miss",
     test_pc_evidence_inserts_a_miss},
    {"null is the identity", test_null_is_the_identity},
    {"lazy-tlb: flag scan on every entry", test_lazy_tlb_adds_the_flag_scan_to_every_entry},
    {"no-iccci: no invalidate, fewer refills", test_no_iccci_removes_the_invalidate_and_refills},
    {"inkernel-mmio: no QEMU round trip", test_inkernel_mmio_drops_the_qemu_round_trip},
    {"pv console lines trap above the scan", test_pv_console_lines_trap_above_the_scan},
    {"time-driven exits follow guest time", test_time_driven_exits_follow_guest_time},
    {"SIGNAL exits stay in the exit stream", test_signals_stay_in_the_exit_stream},
    {"compose: deterministic, order-free", test_compose_deterministic_and_order_free},
    {"bad specs refused", test_bad_specs_refused},
    {"chain name has options", test_chain_name_has_options},
    {"systemc counts its own timed exits",
     test_systemc_counts_its_own_timed_exits},
    {"direct path and SystemC platform agree", test_direct_and_systemc_agree},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("whatif", tests)
