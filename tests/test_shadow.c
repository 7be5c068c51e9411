/* Tests of cpu440's TLB virtualization (docs/kvm440.md §3): REAL / VIRT /
 * MMIO classification, the shadow TID rule and the release of guest-user
 * shadow entries on a PID change, guest tlbwe invalidating its shadows,
 * eviction by the host's own misses through the shared round-robin index,
 * and Unicorn mirroring exactly the shadow entries present. */
#include "cost.h"
#include "cpu_kit.h"
#include "params.h"

#define DATA_EA 0x00200000u /* inside the reset entry (16 MB at 0) */

static unsigned count_exits(kit *k, exit_type t, uint32_t pc_lo, uint32_t pc_hi)
{
    unsigned n = 0;
    for (unsigned i = 0; i < k->nrec; i++)
        n += k->recs[i].kind == TREC_EXIT && k->recs[i].type == t &&
             k->recs[i].pc >= pc_lo && k->recs[i].pc < pc_hi;
    return n;
}

static void test_no_guest_entry_is_dtlbreal_reflected(void)
{
    kit *k = kit_new();
    kit_li(k, 9, 0x40000000u); /* in no guest entry */
    kit_li(k, 3, 77);
    kit_emit(k, E_STW(3, 8, 9));
    kit_emit(k, E_B_SELF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_DTLB_MISS);
    CU_ASSERT_EQUAL(kit_gpr(k, 23), 0x40000008u); /* DEAR */
    CU_ASSERT_EQUAL(kit_gpr(k, 22), ESR_ST);
    CU_ASSERT_EQUAL(k->types[EXIT_DTLBREAL], 1);
    kit_free(k);
}

static void test_guest_entry_on_ram_is_dtlbvirt_once(void)
{
    kit *k = kit_new();
    kit_li(k, 9, DATA_EA);
    uint32_t first = 4 * k->n;
    kit_emit(k, E_LI(3, 5));
    kit_emit(k, E_STW(3, 0, 9));
    kit_emit(k, E_LWZ(4, 0, 9));
    kit_emit(k, E_STW(3, 4, 9));
    uint32_t last = 4 * k->n;
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 5);
    CU_ASSERT_EQUAL(count_exits(k, EXIT_DTLBVIRT, first, last), 1);
    CU_ASSERT_EQUAL(get_be(iss_ram(k->cpu->iss) + DATA_EA), 5);
    kit_free(k);
}

/* The guest reads the UART's LSR and writes a byte to its THR, through
 * the reset TLB's entry 1 (outside RAM: MMIO), then powers off. */
static void uart_program(kit *k)
{
    kit_li(k, 9, 0xef600000u);   /* reset entry 1: the UART */
    kit_emit(k, E_LBZ(4, 5, 9)); /* LSR */
    kit_emit(k, E_LI(3, 'k'));
    kit_emit(k, E_STB(3, 0, 9)); /* THR */
    kit_emit(k, E_POWEROFF);
}

static void test_guest_entry_outside_ram_is_mmio(void)
{
    kit *k = kit_new();
    uart_program(k);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 0x60); /* THRE | TEMT */
    CU_ASSERT_EQUAL(k->types[EXIT_MMIO], 2);
    CU_ASSERT_EQUAL(k->types[EXIT_DTLBVIRT], 0);
    bool heavy = true;
    for (unsigned i = 0; i < k->nrec; i++)
        if (k->recs[i].kind == TREC_EXIT && k->recs[i].type == EXIT_MMIO)
            heavy = heavy && (k->recs[i].flags & TRF_USERSPACE);
    CU_ASSERT_TRUE(heavy);
    kit_free(k);
}

/* The what-if policy of 3.9+'s in-kernel devices (cpu440_config
 * mmio_in_kernel, sim record --mmio kernel): the same MMIO exits and the
 * same device result, but light (no trip to user space) and without the
 * round trip's host pages in the UTLB. */
static void uart_access(bool in_kernel, unsigned *user, uint64_t *fills)
{
    kit *k = kit_new();
    uart_program(k);
    cpu440_config c;
    kit_config(&c);
    c.mmio_in_kernel = in_kernel;
    kit_run_cfg(k, &c, 1000);
    CU_ASSERT_EQUAL(k->err, SIM_OK);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 0x60); /* THRE | TEMT */
    CU_ASSERT_EQUAL(k->types[EXIT_MMIO], 2);
    *user = 0;
    for (unsigned i = 0; i < k->nrec; i++)
        if (k->recs[i].kind == TREC_EXIT && k->recs[i].type == EXIT_MMIO)
            *user += (k->recs[i].flags & TRF_USERSPACE) != 0;
    cpu440_counters cnt;
    cpu440_get_counters(k->cpu, &cnt);
    *fills = cnt.host_fills;
    kit_free(k);
}

static void test_mmio_in_kernel_is_light(void)
{
    unsigned uq, uk;
    uint64_t fq, fk;
    uart_access(false, &uq, &fq);
    uart_access(true, &uk, &fk);
    CU_ASSERT_EQUAL(uq, 2); /* QEMU: both heavy */
    CU_ASSERT_EQUAL(uk, 0);
    /* the round trips' host pages are gone: the first fills
     * qemu_host_pages (24) fresh slots, the second the part of its window
     * the first did not hold */
    CU_ASSERT_TRUE(fq > fk + (uint64_t)param_default(PARAM_qemu_host_pages));
}

static void test_unmapped_code_is_itlbreal(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 0x50000000u);
    kit_emit(k, 0x7c6903a6u); /* mtctr r3 */
    kit_emit(k, 0x4e800420u); /* bctr */
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_ITLB_MISS);
    CU_ASSERT_EQUAL(kit_gpr(k, 20), 0x50000000u);
    CU_ASSERT_EQUAL(k->types[EXIT_ITLBREAL], 1);
    kit_free(k);
}

/* Guest entry 11: a user page (TID 1) at 0x30000000 -> physical DATA_EA. */
static void map_user_data_at(kit *k, uint32_t pa)
{
    kit_emit(k, E_LI(3, 1));
    kit_emit(k, E_MTSPR(48, 3));
    kit_emit(k, E_MTSPR(946, 3));
    kit_emit(k, E_LI(4, 11));
    kit_li(k, 3, 0x30000000u | 0x200u | 0x10u);
    kit_emit(k, E_TLBWE(3, 4, 0));
    kit_li(k, 3, pa);
    kit_emit(k, E_TLBWE(3, 4, 1));
    kit_emit(k, E_LI(3, 0x3f));
    kit_emit(k, E_TLBWE(3, 4, 2));
}
static void map_user_data(kit *k)
{
    map_user_data_at(k, DATA_EA);
}

static void test_pid_change_releases_user_shadows_only(void)
{
    kit *k = kit_new();
    map_user_data(k);          /* host safe: its first page is mapped at once */
    kit_li(k, 9, 0x30000000u); /* user page: shadow TID 0 */
    kit_li(k, 10, 0x00300000u); /* global page: shadow TID 1 */
    kit_emit(k, E_LWZ(3, 0, 9));
    kit_emit(k, E_LWZ(3, 0, 10));
    uint32_t a = 4 * k->n;
    kit_emit(k, E_LI(5, 2));
    kit_emit(k, E_MTSPR(48, 5)); /* PID 2 */
    kit_emit(k, E_LI(5, 1));
    kit_emit(k, E_MTSPR(48, 5));  /* PID 1 */
    kit_emit(k, E_LWZ(3, 0, 9));  /* released: faults again */
    kit_emit(k, E_LWZ(3, 0, 10)); /* kept */
    uint32_t b = 4 * k->n;
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(k->end, CPU440_POWEROFF);
    unsigned user = 0, global = 0;
    for (unsigned i = 0; i < k->nrec; i++) {
        const trace_rec *r = &k->recs[i];
        if (r->kind != TREC_EXIT || r->type != EXIT_DTLBVIRT || r->pc < a ||
            r->pc >= b)
            continue;
        user += r->addr == 0x30000000u;
        global += r->addr == 0x00300000u;
    }
    CU_ASSERT_EQUAL(user, 1);
    CU_ASSERT_EQUAL(global, 0);
    kit_free(k);
}

static void test_user_mode_cannot_reach_tid1_shadow(void)
{
    kit *k = kit_new();
    kit_user(k);
    kit_li(k, 3, KIT_USER_EA);
    kit_emit(k, E_MTSPR(26, 3));
    kit_li(k, 3, MSR_PR);
    kit_emit(k, E_MTSPR(27, 3));
    kit_emit(k, E_RFI);
    /* user code loads from a global (guest TID 0) page: its shadow gets
     * TID 1, which the user-mode shadow PID 0 never matches */
    k->img[KIT_USER_PA / 4 + 0] = E_LIS(9, DATA_EA >> 16);
    k->img[KIT_USER_PA / 4 + 1] = E_LWZ(3, 0, 9);
    k->img[KIT_USER_PA / 4 + 2] = E_POWEROFF; /* never reached */
    cpu440_config c;
    kit_config(&c);
    kit_run_cfg(k, &c, 200);
    CU_ASSERT_EQUAL(k->end, CPU440_LIMIT);
    CU_ASSERT_TRUE(
        count_exits(k, EXIT_DTLBVIRT, KIT_USER_EA, KIT_USER_EA + 16) > 100);
    kit_free(k);
}

static void test_guest_tlbwe_invalidates_its_shadows(void)
{
    kit *k = kit_new();
    k->img[0xc000u / 4] = 0x1111u; /* kit_run stores words big-endian */
    k->img[0xd000u / 4] = 0x2222u;
    map_user_data_at(k, 0xc000u);
    kit_li(k, 9, 0x30000000u);
    kit_emit(k, E_LWZ(6, 0, 9)); /* through the shadow of the old RPN */
    kit_emit(k, E_LI(4, 11));
    kit_li(k, 3, 0xd000u);
    kit_emit(k, E_TLBWE(3, 4, 1)); /* new RPN */
    kit_emit(k, E_LWZ(7, 0, 9));   /* must not use the old shadow */
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 6), 0x1111u);
    CU_ASSERT_EQUAL(kit_gpr(k, 7), 0x2222u);
    unsigned inval = 0;
    for (unsigned i = 0; i < k->nrec; i++)
        inval += k->recs[i].kind == TREC_STLB_INVAL;
    CU_ASSERT_TRUE(inval >= 1);
    kit_free(k);
}

/* Touches 32 pages (an emulated mfspr beside each load), does 4 DCR exits
 * (heavy: a round trip to QEMU), touches them again: with the code's pages
 * and the host's, near the 63 round-robin slots, so that the second pass
 * misses few pages or nearly all of them by the host's pages. */
static void pages_twice(kit *k)
{
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            for (int i = 0; i < 4; i++)
                kit_emit(k, E_MFDCR(5, 0x0c0));
        kit_li(k, 9, DATA_EA);
        kit_emit(k, E_LI(6, 32));
        kit_emit(k, 0x7cc903a6u); /* mtctr r6 */
        kit_emit(k, E_LWZ(3, 0, 9));
        kit_emit(k, E_MFSPR(7, 272)); /* SPRG0: EMUL_MFSPR */
        kit_emit(k, E_ADDI(9, 9, 4096));
        kit_emit(k, 0x4200fff4u); /* bdnz -12 */
    }
    kit_emit(k, E_POWEROFF);
}

/* The DTLBVIRT exits after the first `after` DCR exits (the guest marks
 * its passes with a DCR access). */
static unsigned virt_after_dcr(const kit *k, unsigned after)
{
    unsigned n = 0, dcr = 0;
    for (unsigned i = 0; i < k->nrec; i++) {
        const trace_rec *r = &k->recs[i];
        if (r->kind != TREC_EXIT)
            continue;
        dcr += r->type == EXIT_DCR;
        n += dcr >= after && r->type == EXIT_DTLBVIRT;
    }
    return n;
}

/* The DTLBVIRT exits after the DCR exits. */
static unsigned second_pass(const kit *k)
{
    return virt_after_dcr(k, 4);
}

/* Runs pages_twice with the host pages of p; returns the second
 * pass's DTLBVIRT exits. */
static unsigned second_pass_misses(const params *p)
{
    kit *k = kit_new();
    pages_twice(k);
    cpu440_config c;
    kit_config(&c);
    cpu440_config_host_pages(&c, p);
    kit_run_cfg(k, &c, 100000);
    unsigned n = second_pass(k);
    /* at most 63 guest shadows are ever present */
    CU_ASSERT_TRUE(tlb440_guest_entries(k->cpu->tlb) <= 63);
    kit_free(k);
    return n;
}

static void test_host_misses_evict_guest_shadows(void)
{
    params p;
    params_init(&p);
    P(&p, common_host_pages) = P(&p, path_host_pages) = 0;
    P(&p, qemu_host_pages) = P(&p, hostirq_host_pages) = 0;
    unsigned quiet = second_pass_misses(&p);
    params_init(&p);
    unsigned busy = second_pass_misses(&p);
    P(&p, common_host_pages) = 8;
    unsigned busier = second_pass_misses(&p);
    CU_ASSERT_EQUAL(quiet, 0);
    CU_ASSERT_TRUE(busy > 0); /* (4 at the defaults) */
    CU_ASSERT_TRUE(busier > busy); /* (32: every page again) */
}

/* Recording with the cycle model pricing the exits (sim record --model):
 * cpu440's UTLB, whose host fills decide the guest's VIRT misses, and the
 * model's soft TLB, which decides them when the model predicts from the
 * trace, take the same host pages at the same points of each exit (one
 * rule, model/hostpages), so they hold the same entries slot for slot, at
 * every common_host_pages. No host interrupts arrive (their times are
 * cpu440's clock in one, the model's draws in the other). */
static void test_recording_evicts_as_the_model(void)
{
    /* and at another UTLB geometry (sim record --set utlb_entries,
     * utlb_pinned): both take it from the same parameters */
    static const unsigned n_common[] = {0, 3, 8, 8, 8};
    static const unsigned n_entries[] = {64, 64, 64, 48, 96};
    static const unsigned n_pinned[] = {1, 1, 1, 2, 2};
    for (unsigned i = 0; i < 5; i++) {
        params p;
        params_init(&p);
        P(&p, common_host_pages) = n_common[i];
        P(&p, utlb_entries) = n_entries[i];
        P(&p, utlb_pinned) = n_pinned[i];
        P(&p, host_tick_hz) = P(&p, host_irq_hz) = 0;
        P(&p, stall_hz) = P(&p, signal_hz) = 0;
        cost_model *m = NULL;
        CU_ASSERT_FATAL(cost_new(&m, &p) == SIM_OK);
        kit *k = kit_new();
        pages_twice(k);
        cpu440_config c;
        kit_config(&c);
        cpu440_config_host_pages(&c, &p);
        cpu440_config_utlb(&c, &p);
        cost_reset(m, c.tb_hz, c.tb_hz);
        cpu440_model_coster(&k->coster, m);
        k->has_coster = true;
        kit_run_cfg(k, &c, 100000);
        CU_ASSERT_EQUAL(k->err, SIM_OK);
        const tlb440 *a = k->cpu->tlb, *b = cost_tlb(m);
        CU_ASSERT_EQUAL(tlb440_hwater(a), n_entries[i] - 1 - n_pinned[i]);
        CU_ASSERT_EQUAL(tlb440_hwater(a), tlb440_hwater(b));
        const tlb440_stats *sa = tlb440_get_stats(a), *sb = tlb440_get_stats(b);
        CU_ASSERT_TRUE(sa->host_fills > 0);
        /* (the pages_twice's pressure is set for the 440's 64) */
        CU_ASSERT_TRUE(sa->host_evicted_guest > 0 || n_common[i] == 0 ||
                       n_entries[i] != 64);
        CU_ASSERT_EQUAL(sa->host_fills, sb->host_fills);
        CU_ASSERT_EQUAL(sa->host_evicted_guest, sb->host_evicted_guest);
        CU_ASSERT_EQUAL(sa->maps, sb->maps);
        unsigned differ = 0;
        for (unsigned s = 0; s <= tlb440_hwater(a); s++) {
            const tlb440_entry *x = tlb440_utlb(a, s), *y = tlb440_utlb(b, s);
            differ += x->tid != y->tid || x->w0 != y->w0 || x->w1 != y->w1 ||
                      x->w2 != y->w2;
        }
        CU_ASSERT_EQUAL(differ, 0);
        kit_free(k);
        cost_free(m);
    }
}

/* Loads from n pages, one DCR exit, the same n pages again; returns the
 * second pass's DTLBVIRT exits, with a UTLB of `entries` slots (one
 * pinned) and no host pages, so only the round robin's size decides. */
static unsigned second_pass_of_n(unsigned n, unsigned entries,
                                 uint64_t *refills)
{
    kit *k = kit_new();
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            kit_emit(k, E_MFDCR(5, 0x0c0));
        kit_li(k, 9, DATA_EA);
        kit_emit(k, E_LI(6, (int)n));
        kit_emit(k, 0x7cc903a6u); /* mtctr r6 */
        kit_emit(k, E_LWZ(3, 0, 9));
        kit_emit(k, E_ADDI(9, 9, 4096));
        kit_emit(k, 0x4200fff8u); /* bdnz -8 */
    }
    kit_emit(k, E_POWEROFF);
    params p;
    params_init(&p);
    P(&p, common_host_pages) = P(&p, path_host_pages) = 0;
    P(&p, qemu_host_pages) = P(&p, hostirq_host_pages) = 0;
    P(&p, utlb_entries) = entries;
    cpu440_config c;
    kit_config(&c);
    cpu440_config_host_pages(&c, &p);
    cpu440_config_utlb(&c, &p);
    kit_run_cfg(k, &c, 100000);
    CU_ASSERT_EQUAL(k->err, SIM_OK);
    CU_ASSERT_EQUAL(k->end, CPU440_POWEROFF);
    unsigned virt = virt_after_dcr(k, 1);
    cpu440_counters cnt;
    cpu440_get_counters(k->cpu, &cnt);
    *refills = cnt.mirror_refills;
    CU_ASSERT_TRUE(tlb440_guest_entries(k->cpu->tlb) <= entries - 1);
    kit_free(k);
    return virt;
}

/* A UTLB larger than the 440's (sim record --set utlb_entries, the
 * what-if tlb-slots=N made real): 90 pages cycle through the 63 slots of
 * the 440 and miss again every one, while 127 slots keep them all. Unicorn
 * has only 64 slots: the pages beyond them are refilled from the UTLB
 * without an exit. */
static void test_a_larger_utlb_keeps_more_pages(void)
{
    uint64_t r64 = 0, r128 = 0, r32 = 0;
    unsigned m64 = second_pass_of_n(90, 64, &r64);
    unsigned m128 = second_pass_of_n(90, 128, &r128);
    unsigned m32 = second_pass_of_n(20, 32, &r32);
    CU_ASSERT_EQUAL(m64, 90);
    CU_ASSERT_EQUAL(m128, 0);
    CU_ASSERT_EQUAL(r64, 0); /* 63 slots: Unicorn mirrors them whole */
    CU_ASSERT_TRUE(r128 > 0);
    /* a smaller UTLB: 20 pages and the code's fit 31 slots */
    CU_ASSERT_EQUAL(m32, 0);
    CU_ASSERT_EQUAL(r32, 0);
    unsigned m32b = second_pass_of_n(40, 32, &r32);
    CU_ASSERT_EQUAL(m32b, 40);
}

static void test_unicorn_mirrors_exactly_the_shadow_entries(void)
{
    kit *k = kit_new();
    map_user_data(k);
    kit_li(k, 9, 0x30000000u);
    kit_emit(k, E_LWZ(3, 0, 9));
    kit_li(k, 10, DATA_EA + 0x10000u);
    kit_emit(k, E_LWZ(3, 0, 10));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    cpu440 *c = k->cpu;
    for (unsigned s = 0; s <= tlb440_hwater(c->tlb); s++) {
        const tlb440_entry *e = tlb440_utlb(c->tlb, s);
        bool guest = (e->w0 & 0x200u) && (e->w0 & 0x100u);
        CU_ASSERT_EQUAL(c->uni[s].valid, guest);
        if (guest) {
            CU_ASSERT_EQUAL(c->uni[s].ea, e->w0 & 0xfffffc00u);
            CU_ASSERT_EQUAL(c->uni[s].tid, e->tid);
        }
    }
    kit_free(k);
}

static CU_TestInfo tests[] = {
    {"no guest entry: DTLBREAL reflected",
     test_no_guest_entry_is_dtlbreal_reflected},
    {"guest entry on RAM: DTLBVIRT once",
     test_guest_entry_on_ram_is_dtlbvirt_once},
    {"guest entry outside RAM: MMIO", test_guest_entry_outside_ram_is_mmio},
    {"unmapped code: ITLBREAL", test_unmapped_code_is_itlbreal},
    {"MMIO in the kernel: light, no QEMU pages",
     test_mmio_in_kernel_is_light},
    {"PID change releases user shadows only",
     test_pid_change_releases_user_shadows_only},
    {"user mode cannot reach TID 1 shadows",
     test_user_mode_cannot_reach_tid1_shadow},
    {"guest tlbwe invalidates its shadows",
     test_guest_tlbwe_invalidates_its_shadows},
    {"host misses evict guest shadows", test_host_misses_evict_guest_shadows},
    {"a recording evicts as the model (same host pages)",
     test_recording_evicts_as_the_model},
    {"Unicorn mirrors the shadow entries",
     test_unicorn_mirrors_exactly_the_shadow_entries},
    {"a larger UTLB keeps more pages (no VIRT miss again)",
     test_a_larger_utlb_keeps_more_pages},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("shadow", tests)
