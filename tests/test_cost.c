/* Tests of the cycle model (model/cost, model/insn440): each stage's
 * contribution pinned on hand-built exits with every other cost zeroed, the
 * refill term of a larger code footprint on every exit, host fills evicting
 * a guest shadow entry that then re-faults, heavy exits paying vcpu_put/
 * vcpu_load per entry, D-cache decay, seeded variability, determinism and
 * the accounting invariants of a model replay. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "guest_stages.h"
#include "insn440.h"
#include "replay.h"
#include "taus2.h"
#include "testlib.h"
#include "tlbword.h"

#define CPI1 1.0

/* Every cost 0, cpi 1, no host interference: stages can be switched on one
 * at a time. Geometry keeps its defaults. */
static void quiet(params *p)
{
    params_init(p);
    static const param_id keep[] = {PARAM_core_hz,
                                    PARAM_icache_bytes,
                                    PARAM_dcache_bytes,
                                    PARAM_cache_line_bytes,
                                    PARAM_utlb_entries,
                                    PARAM_utlb_pinned,
                                    PARAM_gtlb_entries,
                                    PARAM_itlb_shadow,
                                    PARAM_dtlb_shadow,
                                    PARAM_guest_ram_mb,
                                    PARAM_guest_hz,
                                    PARAM_seed,
                                    PARAM_dcache_decay_cycles,
                                    PARAM_preempt_usec,
                                    PARAM_preempt_alpha,
                                    PARAM_preempt_max_usec,
                                    PARAM_host_irq_exit_share};
    for (int i = 0; i < PARAM__COUNT; i++) {
        bool k = false;
        for (size_t j = 0; j < sizeof keep / sizeof keep[0]; j++)
            k |= keep[j] == (param_id)i;
        if (!k)
            p->v[i] = 0;
    }
    P(p, cpi) = CPI1;
    P(p, guest_cpi) = CPI1;
}

static cost_model *mk(const params *p)
{
    cost_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(cost_new(&m, p), SIM_OK);
    return m;
}

static trace_rec ex(exit_type t, uint32_t inst, uint32_t addr)
{
    trace_rec r = {.kind = TREC_EXIT, .type = (uint8_t)t};
    int irq = exit_default_irq(t);
    r.irq = (uint8_t)(irq < 0 ? 0 : irq);
    r.pc = 0xc0001000u;
    r.inst = inst;
    r.addr = addr;
    return r;
}

static uint64_t handler_of(cost_model *m, trace_rec r, uint64_t insns)
{
    uint64_t h, g;
    cost_exit(m, &r, insns, &h, &g);
    return h;
}

static void test_common_path_stages(void)
{
    params p;
    quiet(&p);
    P(&p, exit_asm_insns) = 100;
    P(&p, dispatch_insns) = 50;
    P(&p, resume_insns) = 10;
    P(&p, iccci_cycles) = 7;
    P(&p, timing_divides) = 2;
    P(&p, do_div_cycles) = 30;
    P(&p, lastinst_insns) = 25;
    cost_model *m = mk(&p);
    /* SYSCALL: no last_inst fetch */
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_SYSCALL, 0, 0), 0),
                    100 + 50 + 10 + 7 + 60);
    /* PROGRAM (emulation) pays the last_inst fetch */
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_MFMSR, 0x7c6000a6u, 0), 0),
                    100 + 25 + 50 + 10 + 7 + 60);
    CU_ASSERT_EQUAL(cost_stage_sum(m, EXIT_SYSCALL, CSTAGE_timing), 60);
    CU_ASSERT_EQUAL(cost_stage_sum(m, EXIT_SYSCALL, CSTAGE_resume), 17);
    cost_free(m);
}

static void test_guest_side_stages_go_to_timeinguest(void)
{
    params p;
    quiet(&p);
    test_guest_stages(&p);
    cost_model *m = mk(&p);
    trace_rec r = ex(EXIT_SYSCALL, 0, 0);
    uint64_t h, g;
    cost_exit(m, &r, 1000, &h, &g);
    /* 32 + 4*10 stub, 22 + 3*10 tail (cold after the iccci), 1000 guest,
     * 8 lines*10 + (1+8)*3 refill */
    CU_ASSERT_EQUAL(g, 32 + 40 + 22 + 30 + 1000 + 80 + 27);
    CU_ASSERT_EQUAL(h, 4 * 10 * 0); /* no handler stage switched on */
    /* a short guest run refetches fewer lines: 16 insns -> 2 lines */
    cost_exit(m, &r, 16, &h, &g);
    CU_ASSERT_EQUAL(g, 32 + 40 + 22 + 30 + 16 + 20 + 2 * 3);
    /* without the iccci the tail's lines are the ones the last entry
     * fetched: only its instructions remain (and the guest refills only
     * the lines the handler displaced: none here) */
    cost_set_iccci(m, false);
    cost_exit(m, &r, 16, &h, &g);
    CU_ASSERT_EQUAL(g, 32 + 40 + 22 + 16 + 2 * 3);
    cost_free(m);
}

static void test_larger_footprint_raises_every_exit_by_refill(void)
{
    static const exit_type mix[] = {
        EXIT_EMULINST, EXIT_DTLBVIRT, EXIT_ITLBVIRT, EXIT_DTLBREAL,
        EXIT_MMIO,     EXIT_DCR,      EXIT_SYSCALL,  EXIT_EMUL_TLBWE,
        EXIT_EXTINT,   EXIT_DEC,      EXIT_SIGNAL,   EXIT_ISI};
    params a;
    params_init(&a);
    P(&a, host_tick_hz) = 0; /* no arrivals: windows may differ in length */
    P(&a, host_irq_hz) = 0;
    params b = a;
    P(&b, common_code_lines) = P(&a, common_code_lines) + 10;
    cost_model *ma = mk(&a), *mb = mk(&b);
    for (int i = 0; i < 500; i++) {
        trace_rec r = ex(mix[i % 12], 0, 0xc0000000u + (uint32_t)i * 4096u);
        uint64_t ha = handler_of(ma, r, COST_DRAW);
        uint64_t hb = handler_of(mb, r, COST_DRAW);
        CU_ASSERT_EQUAL(hb - ha, 10 * (uint64_t)P(&a, icache_miss_cycles));
    }
    cost_free(ma);
    cost_free(mb);
}

/* Code lines enter as reals: a fit's finite-difference step of half a
 * line (reflect_code_lines 10 -> 10.5, guest_code_lines 8 -> 8.5) moves
 * the refill by half a miss instead of nothing (the calibration reported
 * both "no effect on any row"). */
static void test_code_lines_are_real(void)
{
    params a;
    quiet(&a);
    P(&a, icache_miss_cycles) = 40;
    P(&a, reflect_code_lines) = 10;
    P(&a, guest_code_lines) = 8;
    params b = a;
    P(&b, reflect_code_lines) = 10.5;
    P(&b, guest_code_lines) = 8.5;
    cost_model *ma = mk(&a), *mb = mk(&b);
    trace_rec r = ex(EXIT_SYSCALL, 0, 0);
    uint64_t ga, gb, ha, hb;
    cost_exit(ma, &r, 1000, &ha, &ga); /* 1000 insns: the cap holds */
    cost_exit(mb, &r, 1000, &hb, &gb);
    CU_ASSERT_EQUAL(hb - ha, 20);
    CU_ASSERT_EQUAL(gb - ga, 20);
    cost_free(ma);
    cost_free(mb);
}

static void test_emulation_priced_by_decoded_class(void)
{
    params p;
    quiet(&p);
    P(&p, decode_insns) = 10;
    P(&p, emul_msr_insns) = 5;
    P(&p, emul_spr_gen_insns) = 15;
    P(&p, emul_spr_timer_insns) = 200;
    P(&p, emul_spr_mmu_insns) = 30;
    P(&p, emul_rfi_insns) = 40;
    cost_model *m = mk(&p);
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_MFMSR, 0x7c6000a6u, 0), 0), 15);
    /* mtspr SPRG0 (generic) vs mtspr DEC (re-arms the timer) */
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMULINST, 0x7c7043a6u, 0), 0), 25);
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_MTSPR, 0x7c7603a6u, 0), 0), 210);
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_RFI, 0x4c000064u, 0), 0), 50);
    /* no instruction word: the row's class */
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_MFMSR, 0, 0), 0), 15);
    CU_ASSERT_EQUAL(cost_stage_sum(m, EXIT_EMUL_MFMSR, CSTAGE_emulate), 30);
    cost_free(m);
}

static void test_tlb_scans(void)
{
    params p;
    quiet(&p);
    P(&p, tlb_scan_cycles) = 1;
    cost_model *m = mk(&p);
    /* tlbsx scans the 64 guest entries; tlbwe the refs of slots 0..hwater */
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_TLBSX, 0x7c603f24u, 0), 0), 64);
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_TLBWE, 0x7c6007a4u, 0), 0), 63);
    /* mtspr PID scans the refs for TID-0 entries */
    CU_ASSERT_EQUAL(insn440_spr(0x7c700ba6u), 48); /* mtspr PID,r3 */
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_MTSPR, 0x7c700ba6u, 0), 0), 63);
    cost_free(m);
}

/* A trace's guest tlbwe record: entry `index` = (tid, epn, size, ra, w2). */
static trace_rec gtlb_rec(unsigned index, unsigned tid, uint32_t epn,
                          unsigned size, uint64_t ra, uint32_t w2)
{
    return (trace_rec){.kind = TREC_GTLB_WRITE,
                       .type = (uint8_t)index,
                       .irq = (uint8_t)tid,
                       .pc = tlbw_make_w0(epn, size, true, 0),
                       .inst = tlbw_make_w1(ra),
                       .addr = w2};
}

static void test_dtlbvirt_maps_and_host_fills_evict_it(void)
{
    params p;
    quiet(&p);
    P(&p, hostirq_host_pages) = 63;
    P(&p, host_tlb_miss_cycles) = 40;
    P(&p, gfn_to_page_cycles) = 300;
    cost_model *m = mk(&p);
    tlb440 *t = cost_tlb(m);
    /* the trace's guest tlbwe: 16 MB kernel entry at index 5 */
    trace_rec g = gtlb_rec(5, 0, 0xc0000000u, TLBSZ_16M, 0, TLBW2_S_PERMS);
    cost_state(m, &g);
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_DTLBVIRT, 0, 0xc0042000u), 0), 300);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0xc0042000u, 0, false, NULL, NULL),
                    TLB440_HIT);
    /* a host interrupt touches 63 unpinned pages: 63 fills, one of them
     * over the guest's shadow entry */
    uint64_t h = handler_of(m, ex(EXIT_EXTINT, 0, 0), 0);
    CU_ASSERT_EQUAL(h, 63 * 40);
    CU_ASSERT_EQUAL(tlb440_get_stats(t)->host_evicted_guest, 1);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0xc0042000u, 0, false, NULL, NULL),
                    TLB440_VIRT);
    cost_free(m);
}

static void test_shadow_release_on_victim_reuse(void)
{
    params p;
    quiet(&p);
    P(&p, release_cycles) = 60;
    cost_model *m = mk(&p);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 64; i++)
        sum += handler_of(m, ex(EXIT_DTLBVIRT, 0, 0xc0000000u + i * 4096u), 0);
    /* 63 round-robin slots: the 64th map releases the first */
    CU_ASSERT_EQUAL(sum, 60);
    cost_free(m);
}

/* A user-mode DTLBVIRT miss at ea. */
static void user_miss(cost_model *m, uint32_t ea)
{
    trace_rec r = ex(EXIT_DTLBVIRT, 0, ea);
    r.flags = TRF_GUEST_PR;
    handler_of(m, r, 0);
}

/* A user-mode miss on a user page with no guest entry in the trace: its
 * shadow must be found by the next user-mode access (shadow PID 0), as on
 * KVM/440 where the guest's user entry has TID = PID != 0. */
static void test_user_mode_miss_stays_resident(void)
{
    params p;
    quiet(&p);
    cost_model *m = mk(&p);
    tlb440 *t = cost_tlb(m);
    CU_ASSERT_NOT_EQUAL(tlb440_pid(t), 0);
    user_miss(m, 0x10004120u);
    CU_ASSERT(tlb440_utlb_find(t, 0x10004000u, 1, 0) >= 0);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10004ff0u, 0, true, NULL, NULL),
                    TLB440_HIT);
    /* a kernel-page miss in supervisor mode stays supervisor-only */
    handler_of(m, ex(EXIT_DTLBVIRT, 0, 0xc0042000u), 0);
    CU_ASSERT(tlb440_utlb_find(t, 0xc0042000u, 1, 1) >= 0);
    CU_ASSERT(tlb440_utlb_find(t, 0xc0042000u, 1, 0) < 0);
    cost_free(m);
}

/* A guest tlbwe of a user entry with another TID is a process switch: the
 * PID follows and the old process's user shadows are released. */
static void test_pid_follows_user_tlbwe(void)
{
    params p;
    quiet(&p);
    cost_model *m = mk(&p);
    tlb440 *t = cost_tlb(m);
    user_miss(m, 0x10004000u);
    CU_ASSERT(tlb440_utlb_find(t, 0x10004000u, 1, 0) >= 0);
    trace_rec kern =
        gtlb_rec(3, 0, 0xc0000000u, TLBSZ_16M, 0, TLBW2_S_PERMS);
    cost_state(m, &kern); /* TID 0: no switch */
    CU_ASSERT_EQUAL(tlb440_pid(t), 1);
    CU_ASSERT(tlb440_utlb_find(t, 0x10004000u, 1, 0) >= 0);
    trace_rec user = gtlb_rec(4, 7, 0x10000000u, TLBSZ_4K, 0x100000u,
                              TLBW2_S_PERMS | TLBW2_U_PERMS);
    cost_state(m, &user);
    CU_ASSERT_EQUAL(tlb440_pid(t), 7);
    CU_ASSERT(tlb440_utlb_find(t, 0x10004000u, 1, 0) < 0);
    /* the new process's own entry is found with its PID */
    user_miss(m, 0x10000010u);
    CU_ASSERT(tlb440_utlb_find(t, 0x10000000u, 1, 0) >= 0);
    cost_free(m);
}

static void test_pv_magic_page_competes_for_slots(void)
{
    params p;
    quiet(&p);
    P(&p, gfn_to_page_cycles) = 300;
    P(&p, tlbwe_cycles) = 10;
    P(&p, tlb_scan_cycles) = 1;
    cost_model *m = mk(&p);
    tlb440 *t = cost_tlb(m);
    /* the shared page needs neither a guest TLB search nor gfn_to_page */
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_DTLBPV, 0, 0xfffff000u), 0), 40);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0xfffff010u, 0, false, NULL, NULL),
                    TLB440_HIT);
    CU_ASSERT_EQUAL(tlb440_get_stats(t)->maps, 1);
    /* it took a round-robin slot: 62 more maps wrap round and evict it */
    for (uint32_t i = 0; i < 63; i++)
        handler_of(m, ex(EXIT_DTLBVIRT, 0, 0xc0000000u + i * 4096u), 0);
    CU_ASSERT_EQUAL(tlb440_utlb_find(t, 0xfffff010u, 1, 1), -1);
    cost_free(m);
}

static void test_guest_run_spread(void)
{
    params p;
    quiet(&p);
    P(&p, guest_insns) = 300;
    cost_model *e = NULL, *l = NULL;
    P(&p, guest_sigma) = 0;
    e = mk(&p);
    P(&p, guest_sigma) = 2;
    l = mk(&p);
    double se = 0, sl = 0;
    uint64_t me = 0, ml = 0;
    for (int i = 0; i < 200000; i++) {
        trace_rec r = ex(EXIT_SYSCALL, 0, 0);
        uint64_t h, g;
        cost_exit(e, &r, COST_DRAW, &h, &g);
        se += (double)g;
        me = g > me ? g : me;
        cost_exit(l, &r, COST_DRAW, &h, &g);
        sl += (double)g;
        ml = g > ml ? g : ml;
    }
    /* same mean (guest_cpi 1, no refill costs), a much longer tail */
    CU_ASSERT(se / 200000 > 285 && se / 200000 < 315);
    CU_ASSERT(sl / 200000 > 255 && sl / 200000 < 345);
    CU_ASSERT(ml > 10 * me);
    cost_free(e);
    cost_free(l);
}

static void test_heavy_exit_pays_put_and_load_per_entry(void)
{
    params p;
    quiet(&p);
    P(&p, vcpu_put_cycles) = 10;
    P(&p, vcpu_load_cycles) = 20;
    P(&p, ioctl_insns) = 1000;
    cost_model *m = mk(&p);
    for (uint32_t i = 0; i < 5; i++)
        handler_of(m, ex(EXIT_DTLBVIRT, 0, 0xc0000000u + i * 4096u), 0);
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_MMIO, 0x80640000u, 0xe0000000u), 0),
                    1000 + 5 * 10 + 5 * 20);
    CU_ASSERT_EQUAL(tlb440_guest_entries(cost_tlb(m)), 5);
    cost_free(m);
}

/* 100 common data lines at 1 cycle each, decaying with 1000 cycles. */
static cost_model *mk_decay(void)
{
    params p;
    quiet(&p);
    P(&p, common_data_lines) = 100;
    P(&p, dcache_miss_cycles) = 1;
    P(&p, dcache_decay_cycles) = 1000;
    return mk(&p);
}

static void test_dcache_warmth_decays_with_guest_time(void)
{
    cost_model *m = mk_decay();
    trace_rec r = ex(EXIT_SYSCALL, 0, 0);
    CU_ASSERT_EQUAL(handler_of(m, r, 0), 100);    /* first exit: all cold */
    CU_ASSERT_EQUAL(handler_of(m, r, 100000), 0); /* right after: warm */
    CU_ASSERT_EQUAL(handler_of(m, r, 1000), 100); /* after 100000 cycles */
    uint64_t h = handler_of(m, r, 0);             /* after 1000: 1 - 1/e */
    CU_ASSERT(h >= 62 && h <= 64);
    cost_free(m);
}

static void test_qemu_round_trip_is_a_seeded_distribution(void)
{
    params p;
    quiet(&p);
    P(&p, qemu_mmio_usec) = 40;
    P(&p, qemu_sigma) = 0.8;
    cost_model *a = mk(&p), *b = mk(&p);
    P(&p, seed) = 2;
    cost_model *c = mk(&p);
    uint64_t mn = UINT64_MAX, mx = 0;
    int differ = 0;
    for (int i = 0; i < 200; i++) {
        trace_rec r = ex(EXIT_MMIO, 0x80640000u, 0xe0000000u);
        uint64_t ha = handler_of(a, r, 0), hb = handler_of(b, r, 0);
        CU_ASSERT_EQUAL(ha, hb);
        differ += ha != handler_of(c, r, 0);
        if (ha < mn)
            mn = ha;
        if (ha > mx)
            mx = ha;
    }
    CU_ASSERT(mx > 3 * mn); /* a distribution, not a constant */
    CU_ASSERT(differ > 150);
    cost_free(a);
    cost_free(b);
    cost_free(c);
}

static void test_preemption_heavy_tail_is_capped(void)
{
    params p;
    quiet(&p);
    P(&p, preempt_prob) = 1;
    P(&p, preempt_usec) = 1000;
    P(&p, preempt_max_usec) = 5000;
    cost_model *m = mk(&p);
    uint64_t per_us = 667;
    for (int i = 0; i < 50; i++) {
        uint64_t h = handler_of(m, ex(EXIT_DEC, 0, 0), 0);
        CU_ASSERT(h >= 1000 * per_us && h <= 5000 * per_us);
    }
    cost_free(m);
}

static void test_host_arrivals_inside_an_exit_lengthen_it(void)
{
    params p;
    quiet(&p);
    P(&p, qemu_mmio_usec) = 100000; /* 0.1 s in QEMU */
    P(&p, qemu_sigma) = 0;
    P(&p, host_tick_hz) = 250; /* ~25 ticks in that window */
    P(&p, host_tick_cycles) = 1000;
    cost_model *m = mk(&p);
    uint64_t h = handler_of(m, ex(EXIT_MMIO, 0, 0xe0000000u), 0);
    uint64_t q = 100000ull * 667;
    CU_ASSERT(h >= q + 24 * 1000 && h <= q + 26 * 1000);
    CU_ASSERT(cost_stage_sum(m, EXIT_MMIO, CSTAGE_hostwork) >= 24000);
    cost_free(m);
}

/* Quiet host but for device interrupts, ~7.5 of them in each 5000-cycle
 * exit, each waking 1000 usec of work (667,000 cycles) */
static void woken_work_params(params *p)
{
    quiet(p);
    P(p, host_irq_hz) = 1e6;
    P(p, dispatch_insns) = 5000;
    P(p, host_irq_usec) = 1000;
    P(p, host_irq_sigma) = 0;
    P(p, hostirq_code_lines) = 10;
    P(p, icache_miss_cycles) = 10;
}

/* A device interrupt's woken work (host_irq_usec) runs only where the
 * vcpu thread can be scheduled out (docs/cost-model.md, "Host work"): a
 * reflected TLB miss, which has no scheduling point, carries the
 * interrupt's handler only, and the work waits for the next exit that has
 * one (a VIRT miss: get_user_pages' cond_resched). */
static void test_woken_work_waits_for_a_scheduling_point(void)
{
    params p;
    woken_work_params(&p);
    cost_model *m = mk(&p);
    uint64_t work = 1000ull * 667;
    uint64_t real = handler_of(m, ex(EXIT_DTLBREAL, 0, 0x10000000u), 0);
    CU_ASSERT(real < work / 10);
    CU_ASSERT(real >= 100); /* its interrupts' handlers ran in it */
    uint64_t virt = handler_of(m, ex(EXIT_DTLBVIRT, 0, 0xc0100000u), 0);
    CU_ASSERT(virt >= 2 * work); /* its own and the pending ones */
    CU_ASSERT(cost_stage_sum(m, EXIT_DTLBREAL, CSTAGE_hostwork) < work / 10);
    cost_free(m);
}

/* An MMIO exit served in the kernel (the inkernel-mmio what-if) is light:
 * no return to user space, so no scheduling point, and a device
 * interrupt's woken work stays pending past it as past a reflected miss;
 * served by QEMU it runs there. */
static void test_inkernel_mmio_has_no_scheduling_point(void)
{
    params p;
    woken_work_params(&p);
    uint64_t work = 1000ull * 667;
    uint64_t mmio[2], virt[2];
    for (int in_kernel = 0; in_kernel <= 1; in_kernel++) {
        cost_model *m = mk(&p);
        cost_set_mmio_in_kernel(m, in_kernel);
        handler_of(m, ex(EXIT_DTLBREAL, 0, 0x10000000u), 0);
        handler_of(m, ex(EXIT_MMIO, 0, 0xe0000000u), 0);
        mmio[in_kernel] = cost_stage_sum(m, EXIT_MMIO, CSTAGE_hostwork);
        handler_of(m, ex(EXIT_DTLBVIRT, 0, 0xc0100000u), 0);
        virt[in_kernel] = cost_stage_sum(m, EXIT_DTLBVIRT, CSTAGE_hostwork);
        cost_free(m);
    }
    CU_ASSERT(mmio[0] >= work);    /* QEMU's MMIO: the pending work ran */
    CU_ASSERT(mmio[1] < work / 10); /* in the kernel: only handlers */
    /* each exit draws its own arrivals (common random numbers): the VIRT
     * miss after the in-kernel MMIO carries the work left pending */
    CU_ASSERT(virt[1] >= virt[0] + work);
}

/* A preemption is taken where its tick lands, in any exit, and does not
 * widen the exit's arrival window: the ticks that arrive while another
 * task holds the CPU are that task's time, not more preemptions of the
 * vcpu thread. The idle wait of EMUL_WAIT is off the CPU: preemptions
 * inside it overlap it. */
static void test_preemption_where_the_tick_lands(void)
{
    params p;
    quiet(&p);
    P(&p, preempt_prob) = 1;
    P(&p, preempt_usec) = 1000;
    P(&p, preempt_max_usec) = 1000; /* exactly 1 ms */
    P(&p, host_tick_hz) = 10000;    /* every 66700 cycles: */
    P(&p, dispatch_insns) = 70000;  /* one or two ticks in each exit */
    P(&p, guest_hz) = 10;           /* 100 ms guest tick */
    cost_model *m = mk(&p);
    uint64_t ms = 667000;
    exit_type ts[] = {EXIT_SYSCALL, EXIT_DTLBREAL, EXIT_DEC, EXIT_EMULINST};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        uint64_t h = handler_of(m, ex(ts[i], 0, 0x10000000u), 0);
        CU_ASSERT(h >= 70000 + ms && h <= 70000 + 2 * ms + 2000);
    }
    cost_free(m);
    /* one in 20 of the idle's 1000 ticks: ~50 ms of preemptions, inside
     * the 100 ms idle */
    P(&p, preempt_prob) = 0.05;
    m = mk(&p);
    uint64_t w = handler_of(m, ex(EXIT_EMUL_WAIT, 0x7c600124u, 0), 0);
    uint64_t pre = cost_stage_sum(m, EXIT_EMUL_WAIT, CSTAGE_preempt);
    CU_ASSERT(pre >= 25 * ms && pre <= 90 * ms);
    CU_ASSERT_EQUAL(w, 100 * ms + 70000);
    cost_free(m);
}

/* Long host stalls come at stall_hz per second of handler time in any
 * exit, ticks or not; a higher rate only adds stalls (one uniform per exit
 * decides, monotone in the rate) and keeps the lengths of the others. */
static void test_host_stalls_poisson_in_handler_time(void)
{
    params p;
    quiet(&p);
    P(&p, dispatch_insns) = 70000; /* 105 usec windows */
    P(&p, stall_usec) = 10000;
    P(&p, stall_alpha) = 2;
    params q = p;
    P(&p, stall_hz) = 500; /* 1 - e^-0.0525: 5.1% of the exits */
    P(&q, stall_hz) = 1000; /* 10.0% */
    cost_model *a = mk(&p), *b = mk(&q);
    enum { N = 4000 };
    unsigned na = 0, nb = 0, kept = 0;
    uint64_t stall_min = 10000ull * 667;
    for (int i = 0; i < N; i++) {
        trace_rec r = ex(i % 2 ? EXIT_SYSCALL : EXIT_DTLBREAL, 0, 0x10000000u);
        uint64_t ha = handler_of(a, r, 0), hb = handler_of(b, r, 0);
        na += ha >= stall_min;
        nb += hb >= stall_min;
        kept += ha < stall_min || ha == hb;
    }
    CU_ASSERT(na > N * 0.035 && na < N * 0.07);
    CU_ASSERT(nb > N * 0.08 && nb < N * 0.12);
    CU_ASSERT_EQUAL(kept, N);
    cost_free(a);
    cost_free(b);
}

/* host_irq_exit_share scales the device-interrupt rate inside handlers
 * (the guest-time rate, EXTINT's, is host_irq_hz itself). */
static void test_irq_rate_inside_exits_is_scaled(void)
{
    params p;
    quiet(&p);
    P(&p, dispatch_insns) = 7000;
    P(&p, host_irq_hz) = 10000; /* 0.1 interrupts per 7000-cycle exit */
    P(&p, hostirq_code_lines) = 1;
    P(&p, icache_miss_cycles) = 1; /* 1 cycle per interrupt handler */
    params q = p;
    P(&q, host_irq_exit_share) = 0.5;
    cost_model *a = mk(&p), *b = mk(&q);
    for (int i = 0; i < 20000; i++) {
        trace_rec r = ex(EXIT_SYSCALL, 0, 0);
        (void)handler_of(a, r, 0);
        (void)handler_of(b, r, 0);
    }
    double na = (double)cost_stage_sum(a, EXIT_SYSCALL, CSTAGE_hostwork);
    double nb = (double)cost_stage_sum(b, EXIT_SYSCALL, CSTAGE_hostwork);
    CU_ASSERT(na > 1800 && na < 2400); /* ~2100 */
    CU_ASSERT(nb / na > 0.43 && nb / na < 0.57);
    cost_free(a);
    cost_free(b);
}

/* The per-exit arrival fast path's draws (taus2.h) are GSL's taus2 draws
 * bit for bit: seeds 0, 1, ones whose low 32 bits are 0, 1 or make the LCG
 * adjustments fire, and a spread of large ones. */
static void test_taus2_batch_is_gsl_taus2(void)
{
    enum { N = 4096 };
    static unsigned long seeds[N];
    static uint32_t w[N], x1[N], x2[N];
    seeds[0] = 0;
    seeds[1] = 1;
    seeds[2] = 1ul << 32;
    seeds[3] = (1ul << 32) + 1;
    seeds[4] = 0xffffffffffffffffUL;
    for (unsigned i = 5; i < N; i++)
        seeds[i] = (unsigned long)(0x94d049bb133111ebULL ^
                                   (i * 0x9e3779b97f4a7c15ULL));
    for (unsigned i = 0; i < N; i++)
        w[i] = taus2_seed_word(seeds[i]);
    taus2_first2(w, N, x1, x2);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
    CU_ASSERT_FATAL(r != NULL);
    unsigned bad = 0;
    for (unsigned i = 0; i < N; i++) {
        gsl_rng_set(r, seeds[i]);
        unsigned long a = gsl_rng_get(r), b = gsl_rng_get(r);
        bad += a != x1[i] || b != x2[i];
        gsl_rng_set(r, seeds[i]);
        double u = gsl_rng_uniform(r);
        bad += u != x1[i] / 4294967296.0;
    }
    CU_ASSERT_EQUAL(bad, 0);
    gsl_rng_free(r);
}

/* A recorder prices an exit before the guest run after it is known:
 * cost_guest_before gives the model the run just before the exit, so the
 * warmth the exit finds is that run's (as in a replay), not the previous
 * exit's run. */
static void test_recorder_gives_the_run_before_the_exit(void)
{
    cost_model *m = mk_decay();
    trace_rec r = ex(EXIT_SYSCALL, 0, 0);
    CU_ASSERT_EQUAL(handler_of(m, r, 0), 100); /* first exit: all cold */
    /* the previous exit was told 0 instructions, but 100000 ran since */
    cost_guest_before(m, 100000);
    CU_ASSERT_EQUAL(handler_of(m, r, 100000), 100);
    /* and here none ran, though 100000 were given with the last exit */
    cost_guest_before(m, 0);
    CU_ASSERT_EQUAL(handler_of(m, r, 0), 0);
    cost_guest_before(m, 1000); /* 1 - 1/e cold */
    uint64_t h = handler_of(m, r, 0);
    CU_ASSERT(h >= 62 && h <= 64);
    cost_free(m);
}

/* A run that grows (a removed exit's run added to it, sim whatif) needs
 * the refills of the longer run: one more guest I-cache line per 8
 * instructions up to guest_code_lines, one more shadow D-TLB entry per 16
 * up to dtlb_shadow. */
static void test_refill_growth_of_a_longer_run(void)
{
    params p;
    quiet(&p);
    P(&p, icache_miss_cycles) = 50;
    P(&p, shadow_refill_cycles) = 3;
    P(&p, guest_code_lines) = 4;
    cost_model *m = mk(&p);
    exit_type t = EXIT_EMUL_TLBWE;
    /* 8 -> 24 instructions: two lines (50 each), one D-TLB entry (3) */
    CU_ASSERT_EQUAL(cost_refill_growth(m, t, 8, 16), 103);
    /* 32 -> 64: the lines are capped at 4, two more D-TLB entries */
    CU_ASSERT_EQUAL(cost_refill_growth(m, t, 32, 32), 2 * 3);
    CU_ASSERT_EQUAL(cost_refill_growth(m, t, 40, 0), 0);
    cost_free(m);
}

/* The guest interval less its instructions (synth --like sizes the runs
 * with it): the stub, the tail and the refills of the run, so that with
 * guest_cpi x n it is the guest time cost_exit gives, for short runs, runs
 * at the refill caps and without the iccci. */
static void test_guest_entry_is_the_interval_less_the_run(void)
{
    params p;
    quiet(&p);
    test_guest_stages(&p);
    P(&p, guest_cpi) = 1.5;
    cost_model *m = mk(&p);
    trace_rec r = ex(EXIT_SYSCALL, 0, 0);
    static const uint64_t runs[] = {0, 1, 16, 17, 1000, 123457};
    for (int iccci = 1; iccci >= 0; iccci--) {
        cost_set_iccci(m, iccci);
        for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
            uint64_t h, g;
            cost_exit(m, &r, runs[i], &h, &g);
            uint64_t run = (uint64_t)floor(1.5 * (double)runs[i] + 0.5);
            CU_ASSERT_EQUAL(cost_guest_entry(m, EXIT_SYSCALL, runs[i]) + run,
                            g);
        }
    }
    /* 32 + 4*10 stub, 22 + 3*10 tail, 2 lines*10 + (1+1)*3 for 16 */
    cost_set_iccci(m, true);
    CU_ASSERT_EQUAL(cost_guest_entry(m, EXIT_SYSCALL, 16),
                    32 + 40 + 22 + 30 + 20 + 2 * 3);
    cost_free(m);
}

/* A signal arriving in an idle wait makes the exit a SIGNAL (TRF_IDLE):
 * it is priced with the wait until the guest's tick, as EMUL_WAIT is. */
static void test_signal_that_ended_a_wait_idles_too(void)
{
    params p;
    quiet(&p);
    P(&p, guest_hz) = 1000; /* 667000 cycles per guest tick */
    cost_model *a = mk(&p), *b = mk(&p);
    trace_rec r = ex(EXIT_SIGNAL, 0x7c600124u, 0);
    r.irq = BOOKE_IRQ_PROGRAM;
    uint64_t plain = handler_of(a, r, 1000);
    r.flags = TRF_IDLE;
    CU_ASSERT_EQUAL(handler_of(b, r, 1000), plain + 667000);
    cost_free(a);
    cost_free(b);
}

static void test_emul_wait_idles_until_guest_tick(void)
{
    params p;
    quiet(&p);
    P(&p, guest_hz) = 1000; /* 667000 cycles per guest tick */
    cost_model *m = mk(&p);
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_WAIT, 0x7c600124u, 0), 1000),
                    667000);
    CU_ASSERT_EQUAL(handler_of(m, ex(EXIT_EMUL_WAIT, 0x7c600124u, 0), 0),
                    667000 - 1000);
    cost_free(m);
}

static void test_decode_table_rows_do_not_overlap(void)
{
    unsigned n;
    const insn_row *t = insn440_table(&n);
    CU_ASSERT_EQUAL(t[n - 1].mask, 0);
    CU_ASSERT_EQUAL(t[n - 1].cls, INSN_ILLEGAL);
    for (unsigned i = 0; i + 1 < n; i++) {
        CU_ASSERT_EQUAL(t[i].match & ~t[i].mask, 0);
        for (unsigned j = i + 1; j + 1 < n; j++) {
            uint32_t common = t[i].mask & t[j].mask;
            if (((t[i].match ^ t[j].match) & common) == 0)
                CU_FAIL("two decode rows overlap");
        }
    }
    CU_ASSERT_EQUAL(insn440_decode(0x7c6000a6u), INSN_MFMSR);
    CU_ASSERT_EQUAL(insn440_decode(0x7c008146u), INSN_WRTEE);
    CU_ASSERT_EQUAL(insn440_decode(0x7c603286u), INSN_DCR);
    CU_ASSERT_EQUAL(insn440_decode(0x7c603f25u), INSN_TLBSX);   /* tlbsx. */
    CU_ASSERT_EQUAL(insn440_decode(0x38600000u), INSN_ILLEGAL); /* li */
    CU_ASSERT_EQUAL(insn440_spr(0x7c7603a6u), 22);              /* mtspr DEC */
    CU_ASSERT_EQUAL(insn440_spr_group(22), SPRG_TIMER);
}

/* ---- model replay of a hand-built trace without ticks ---- */
static char path[512];

static void write_trace(void)
{
    snprintf(path, sizeof path, "%s/cost_noticks.bin", test_tmp_dir());
    trace_header h;
    memset(&h, 0, sizeof h);
    h.source = TSRC_TEXT;
    h.tb_hz = h.core_hz = 667000000u;
    snprintf(h.workload, sizeof h.workload, "cost-test");
    trace_writer *w;
    CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, path, &h), SIM_OK);
    static const exit_type mix[] = {
        EXIT_EMUL_MFMSR, EXIT_DTLBVIRT, EXIT_ITLBVIRT, EXIT_EMUL_TLBWE,
        EXIT_MMIO,       EXIT_DTLBREAL, EXIT_SYSCALL,  EXIT_EXTINT,
        EXIT_DEC,        EXIT_DCR,      EXIT_EMUL_WAIT};
    for (uint32_t i = 0; i < 5000; i++) {
        trace_rec r = ex(mix[i % 11], 0, 0xc0000000u + (i % 300) * 4096u);
        r.tb = 1000 + i;
        CU_ASSERT_FATAL(trace_writer_put(w, &r) == SIM_OK);
        if (i % 50 == 0) {
            trace_rec g = {.kind = TREC_GTLB_WRITE,
                           .type = (uint8_t)(i % 64),
                           .pc = tlbw_make_w0(0xc0000000u, TLBSZ_16M, true, 0),
                           .inst = 0,
                           .addr = TLBW2_S_PERMS,
                           .tb = 1000 + i};
            CU_ASSERT_FATAL(trace_writer_put(w, &g) == SIM_OK);
        }
    }
    CU_ASSERT_EQUAL_FATAL(trace_writer_close(w), SIM_OK);
}

static cost_model *replay_model_keep(stats *s, uint64_t seed)
{
    params p;
    params_init(&p);
    P(&p, seed) = (double)seed;
    cost_model *m = mk(&p);
    replay_cost_model hook;
    cost_replay_hook(m, &hook);
    replay_opts o = {
        .unit = STATS_TICKS, .ticks = REPLAY_MODEL, .model = &hook};
    replay_result res;
    CU_ASSERT_EQUAL(replay_file(path, &o, s, &res), SIM_OK);
    CU_ASSERT_EQUAL(res.exits, 5000);
    return m;
}

static void replay_model(stats *s, uint64_t seed)
{
    cost_free(replay_model_keep(s, seed));
}

/* The stage report covers the exits the table charges: same count per row
 * (the last exit is charged by none), and its cycles add up to the row's
 * sum (ticks accounting, timebase = core clock). */
static void test_stage_counts_are_the_tables(void)
{
    write_trace();
    static stats s;
    cost_model *m = replay_model_keep(&s, 1);
    uint64_t guest = 0, all = 0;
    for (int t = 0; t < EXIT__COUNT; t++) {
        if (t == EXIT_TIMEINGUEST)
            continue;
        uint64_t sums[CSTAGE__COUNT], handler = 0;
        uint64_t n = cost_charged(m, (exit_type)t, sums);
        CU_ASSERT_EQUAL(n, s.rows[t].count);
        for (int k = 0; k < CSTAGE__COUNT; k++)
            *(cost_stage_guest_side((cost_stage)k) ? &guest : &handler) +=
                sums[k];
        CU_ASSERT_EQUAL(handler, s.rows[t].sum);
        all += n;
    }
    CU_ASSERT_EQUAL(all, 4999);
    /* the last exit (DTLBREAL, i = 4999) is costed but not charged */
    CU_ASSERT_EQUAL(cost_type_count(m, EXIT_DTLBREAL),
                    cost_charged(m, EXIT_DTLBREAL, NULL) + 1);
    CU_ASSERT_EQUAL(guest, s.rows[EXIT_TIMEINGUEST].sum);
    cost_free(m);
}

/* replay's batched path (cost_many) and its per-record one (cost) give the
 * same stats, every field. */
static void test_batched_replay_is_the_per_record_one(void)
{
    write_trace();
    static stats a, b;
    replay_model(&a, 3);
    params p;
    params_init(&p);
    P(&p, seed) = 3;
    cost_model *m = mk(&p);
    replay_cost_model hook;
    cost_replay_hook(m, &hook);
    CU_ASSERT_PTR_NOT_NULL(hook.cost_many);
    hook.cost_many = NULL;
    replay_opts o = {
        .unit = STATS_TICKS, .ticks = REPLAY_MODEL, .model = &hook};
    replay_result res;
    CU_ASSERT_EQUAL(replay_file(path, &o, &b, &res), SIM_OK);
    CU_ASSERT_EQUAL(res.exits, 5000);
    cost_free(m);
    CU_ASSERT(a.rows[EXIT_DTLBVIRT].count > 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
}

static void test_model_replay_keeps_invariants(void)
{
    write_trace();
    static stats s;
    replay_model(&s, 1);
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_OK);
    CU_ASSERT_EQUAL(s.rows[EXIT_TIMEINGUEST].count, 4999);
    /* variability from mechanisms: DTLBVIRT costs differ between exits */
    CU_ASSERT(s.rows[EXIT_DTLBVIRT].max > s.rows[EXIT_DTLBVIRT].min);
}

static void test_model_replay_is_deterministic(void)
{
    write_trace();
    static stats a, b, c;
    replay_model(&a, 7);
    replay_model(&b, 7);
    replay_model(&c, 8);
    CU_ASSERT_EQUAL(memcmp(a.rows, b.rows, sizeof a.rows), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a.rows, c.rows, sizeof a.rows), 0);
}


/* A trace whose records carry guest ticks (issue 10): a model replay keeps
 * that measured guest time exactly (TIMEINGUEST = the trace's), while
 * --guest-time model (COST_GUEST_MODEL) models it instead. Timebase at half
 * the core clock, so the cycle <-> tick conversion is exercised. */
static void test_replay_keeps_measured_guest_time(void)
{
    char gpath[512];
    snprintf(gpath, sizeof gpath, "%s/cost_guestticks.bin", test_tmp_dir());
    trace_header h;
    memset(&h, 0, sizeof h);
    h.source = TSRC_TEXT;
    h.core_hz = 666000000u;
    h.tb_hz = 333000000u;
    snprintf(h.workload, sizeof h.workload, "cost-guest");
    trace_writer *w;
    CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, gpath, &h), SIM_OK);
    uint64_t tb = 1000000, guest_sum = 0;
    for (uint32_t i = 0; i < 2000; i++) {
        trace_rec r = ex(i % 3 ? EXIT_EMUL_MFMSR : EXIT_DTLBVIRT, 0,
                         0xc0000000u + (i % 100) * 4096u);
        r.tb = tb;
        r.flags = TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN;
        r.handler = 5000;
        r.guest = 333 * (1 + i % 7); /* 1..7 usec */
        if (i + 1 < 2000) /* the last guest interval is never charged */
            guest_sum += r.guest;
        tb += r.handler + r.guest;
        CU_ASSERT_FATAL(trace_writer_put(w, &r) == SIM_OK);
    }
    CU_ASSERT_EQUAL_FATAL(trace_writer_close(w), SIM_OK);

    for (int mode = 0; mode < 2; mode++) {
        params p;
        params_init(&p);
        cost_model *m = mk(&p);
        cost_set_guest_mode(m, mode ? COST_GUEST_MODEL : COST_GUEST_TRACE);
        replay_cost_model hook;
        cost_replay_hook(m, &hook);
        replay_opts o = {
            .unit = STATS_TICKS, .ticks = REPLAY_MODEL, .model = &hook};
        static stats s;
        replay_result res;
        CU_ASSERT_EQUAL(replay_file(gpath, &o, &s, &res), SIM_OK);
        uint64_t gt, gm;
        cost_guest_counts(m, &gt, &gm);
        const stats_row *g = &s.rows[EXIT_TIMEINGUEST];
        if (mode == 0) {
            CU_ASSERT_EQUAL(g->sum, guest_sum);
            CU_ASSERT_EQUAL(g->min, 333);
            CU_ASSERT_EQUAL(g->max, 7 * 333);
            CU_ASSERT_EQUAL(gt, 2000);
            CU_ASSERT_EQUAL(gm, 0);
            /* the stage table holds the measured time, no stub/tail on top */
            uint64_t sum = 0;
            for (int t = 0; t < EXIT__COUNT; t++)
                for (int st = 0; st < CSTAGE__COUNT; st++)
                    if (cost_stage_guest_side((cost_stage)st))
                        sum += cost_stage_sum(m, (exit_type)t, (cost_stage)st);
            CU_ASSERT_EQUAL(sum, 2 * (guest_sum + 333 * (1 + 1999 % 7)));
            /* what the table charges: all but the last exit's interval */
            uint64_t charged = 0;
            for (int t = 0; t < EXIT__COUNT; t++) {
                uint64_t sums[CSTAGE__COUNT];
                cost_charged(m, (exit_type)t, sums);
                for (int st = 0; st < CSTAGE__COUNT; st++)
                    if (cost_stage_guest_side((cost_stage)st))
                        charged += sums[st];
            }
            CU_ASSERT_EQUAL(charged, 2 * guest_sum);
        } else {
            CU_ASSERT_NOT_EQUAL(g->sum, guest_sum);
            CU_ASSERT_EQUAL(gt, 0);
            CU_ASSERT_EQUAL(gm, 2000);
        }
        cost_free(m);
    }
}

/* a model is never built from inconsistent parameters, however they were
 * resolved */
static void test_inconsistent_params_refused(void)
{
    params p;
    params_init(&p);
    CU_ASSERT_FATAL(params_set(&p, PARAM_icache_bytes, 8200, "t") == SIM_OK);
    cost_model *m = (cost_model *)&p; /* must be reset */
    CU_ASSERT_EQUAL(cost_new(&m, &p), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "whole number of cache lines"));
}

static CU_TestInfo tests[] = {
    {"common path stages", test_common_path_stages},
    {"batched replay is the per-record one",
     test_batched_replay_is_the_per_record_one},
    {"guest-side stages go to TIMEINGUEST",
     test_guest_side_stages_go_to_timeinguest},
    {"larger footprint raises every exit by the refill",
     test_larger_footprint_raises_every_exit_by_refill},
    {"code lines are reals", test_code_lines_are_real},
    {"emulation priced by decoded class",
     test_emulation_priced_by_decoded_class},
    {"TLB scans", test_tlb_scans},
    {"DTLBVIRT maps, host fills evict it, it re-faults",
     test_dtlbvirt_maps_and_host_fills_evict_it},
    {"shadow released when its victim slot is reused",
     test_shadow_release_on_victim_reuse},
    {"user-mode miss on a user page stays resident for user mode",
     test_user_mode_miss_stays_resident},
    {"guest PID follows a user tlbwe's TID", test_pid_follows_user_tlbwe},
    {"PV magic page competes for UTLB slots",
     test_pv_magic_page_competes_for_slots},
    {"guest run spread: exponential vs lognormal", test_guest_run_spread},
    {"heavy exit pays vcpu_put/load per entry",
     test_heavy_exit_pays_put_and_load_per_entry},
    {"D-cache warmth decays with guest time",
     test_dcache_warmth_decays_with_guest_time},
    {"QEMU round trip is a seeded distribution",
     test_qemu_round_trip_is_a_seeded_distribution},
    {"preemption heavy tail is capped", test_preemption_heavy_tail_is_capped},
    {"host arrivals inside an exit lengthen it",
     test_host_arrivals_inside_an_exit_lengthen_it},
    {"woken work waits for a scheduling point",
     test_woken_work_waits_for_a_scheduling_point},
    {"an in-kernel MMIO exit has no scheduling point",
     test_inkernel_mmio_has_no_scheduling_point},
    {"preemption where the tick lands", test_preemption_where_the_tick_lands},
    {"host stalls: Poisson in handler time",
     test_host_stalls_poisson_in_handler_time},
    {"device-interrupt rate inside exits is scaled",
     test_irq_rate_inside_exits_is_scaled},
    {"per-exit arrival draws are GSL taus2's", test_taus2_batch_is_gsl_taus2},
    {"EMUL_WAIT idles until the guest tick",
     test_emul_wait_idles_until_guest_tick},
    {"the recorder gives the run before the exit",
     test_recorder_gives_the_run_before_the_exit},
    {"refill growth of a longer run", test_refill_growth_of_a_longer_run},
    {"guest entry: the interval less the run",
     test_guest_entry_is_the_interval_less_the_run},
    {"a SIGNAL that ended a wait idles too",
     test_signal_that_ended_a_wait_idles_too},
    {"decode table rows do not overlap", test_decode_table_rows_do_not_overlap},
    {"model replay keeps the invariants", test_model_replay_keeps_invariants},
    {"model replay is deterministic", test_model_replay_is_deterministic},
    {"stage counts are the table's", test_stage_counts_are_the_tables},
    {"model replay keeps the trace's guest time",
     test_replay_keeps_measured_guest_time},
    {"inconsistent parameters refused", test_inconsistent_params_refused},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("cost", tests)
