/* Tests of the BookE privileged architecture cpu440 emulates (cpu440/booke
 * + the exit classification of cpu440.c): one behaviour per test, each a
 * small guest program, checked by registers and by the exits the kernel's
 * exit timing (2.6.29-2.6.37) would charge. */
#include "cpu_kit.h"

static void test_mtmsr_mfmsr_roundtrip_and_subtypes(void)
{
    kit *k = kit_new();
    kit_li(k, 3, MSR_EE | MSR_CE);
    kit_emit(k, E_MTMSR(3));
    kit_emit(k, E_MFMSR(4));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(k->end, CPU440_POWEROFF);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), MSR_EE | MSR_CE);
    exit_type t[8];
    CU_ASSERT_EQUAL_FATAL(kit_exits(k, t, 8), 3);
    CU_ASSERT_EQUAL(t[0], EXIT_EMUL_MTMSR);
    CU_ASSERT_EQUAL(t[1], EXIT_EMUL_MFMSR);
    CU_ASSERT_EQUAL(t[2], EXIT_DCR);
    kit_free(k);
}

static void test_wrteei_and_wrtee_change_only_ee(void)
{
    kit *k = kit_new();
    kit_emit(k, E_WRTEEI(1));
    kit_emit(k, E_MFMSR(4));
    kit_emit(k, E_LI(5, 0));
    kit_emit(k, e_x(5, 0, 0, 131)); /* wrtee r5 */
    kit_emit(k, E_MFMSR(6));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), MSR_EE);
    CU_ASSERT_EQUAL(kit_gpr(k, 6), 0);
    CU_ASSERT_EQUAL(k->types[EXIT_EMUL_WRTEE], 2);
    kit_free(k);
}

static void test_sprg_and_srr_are_plain_emulinst_in_2_6_30(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 0xcafe0001u);
    kit_emit(k, E_MTSPR(272, 3)); /* SPRG0 */
    kit_emit(k, E_MFSPR(4, 272));
    kit_emit(k, E_MTSPR(26, 3)); /* SRR0 */
    kit_emit(k, E_MFSPR(5, 26));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 0xcafe0001u);
    CU_ASSERT_EQUAL(kit_gpr(k, 5), 0xcafe0001u);
    exit_type t[8];
    CU_ASSERT_EQUAL_FATAL(kit_exits(k, t, 8), 5);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(t[i], EXIT_EMULINST);
    kit_free(k);
}

static void test_core_sprs_get_mtspr_mfspr_subtypes(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 0x1234u);
    kit_emit(k, E_MTSPR(61, 3)); /* DEAR */
    kit_emit(k, E_MFSPR(4, 61));
    kit_emit(k, E_MTSPR(946, 3)); /* MMUCR */
    kit_emit(k, E_MFSPR(5, 946));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 0x1234u);
    CU_ASSERT_EQUAL(kit_gpr(k, 5), 0x1234u);
    CU_ASSERT_EQUAL(k->types[EXIT_EMUL_MTSPR], 2 + 17); /* + IVPR/IVORs */
    CU_ASSERT_EQUAL(k->types[EXIT_EMUL_MFSPR], 2);
    kit_free(k);
}

static void test_rfi_to_user_then_privileged_insn_is_usr_pr_inst(void)
{
    kit *k = kit_new();
    uint32_t user = KIT_USER_EA;
    kit_user(k);
    kit_li(k, 3, user);
    kit_emit(k, E_MTSPR(26, 3)); /* SRR0 = user code */
    kit_li(k, 3, MSR_PR);
    kit_emit(k, E_MTSPR(27, 3)); /* SRR1 = PR */
    kit_emit(k, E_RFI);
    k->img[KIT_USER_PA / 4] = E_MFMSR(4); /* privileged in user mode */
    k->img[KIT_USER_PA / 4 + 1] = E_B_SELF;
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_PROGRAM);
    CU_ASSERT_EQUAL(kit_gpr(k, 20), user);   /* SRR0: the mfmsr */
    CU_ASSERT_EQUAL(kit_gpr(k, 21), MSR_PR); /* SRR1: user MSR */
    CU_ASSERT_EQUAL(kit_gpr(k, 22), ESR_PPR);
    CU_ASSERT_EQUAL(k->types[EXIT_EMUL_RFI], 1);
    CU_ASSERT_EQUAL(k->types[EXIT_USR_PR_INST], 1);
    kit_free(k);
}

static void test_tlbwe_three_words_with_stid_then_tlbsx_and_tlbre(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 7);
    kit_emit(k, E_MTSPR(946, 3));                   /* MMUCR[STID] = 7 */
    kit_li(k, 4, 5);                                /* index 5 */
    kit_li(k, 3, 0x30000000u | 0x200u | (1u << 4)); /* EPN, V, 4K */
    kit_emit(k, E_TLBWE(3, 4, 0));
    kit_li(k, 3, 0x00100000u);
    kit_emit(k, E_TLBWE(3, 4, 1));
    kit_li(k, 3, 0x3fu);
    kit_emit(k, E_TLBWE(3, 4, 2));
    kit_li(k, 6, 0x30000010u);
    kit_emit(k, E_TLBSX_DOT(7, 0, 6)); /* found with STID 7: CR0[EQ] */
    kit_emit(k, e_d(31, 0, 0, 0) | (19u << 1) | (8u << 21)); /* mfcr r8 */
    kit_emit(k, E_TLBRE(9, 4, 1));
    kit_li(k, 3, 9);
    kit_emit(k, E_MTSPR(946, 3)); /* STID 9: no match */
    kit_emit(k, E_TLBSX(10, 0, 6));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 7), 5);
    CU_ASSERT_TRUE((kit_gpr(k, 8) & 0x20000000u) != 0);
    CU_ASSERT_EQUAL(kit_gpr(k, 9), 0x00100000u);
    CU_ASSERT_EQUAL(kit_gpr(k, 10), 0xffffffffu);
    CU_ASSERT_EQUAL(k->types[EXIT_EMUL_TLBWE], 3);
    CU_ASSERT_EQUAL(k->types[EXIT_EMUL_TLBSX], 2);
    const tlb440_entry *e = tlb440_gtlb(k->cpu->tlb, 5);
    CU_ASSERT_EQUAL(e->tid, 7);
    unsigned gw = 0;
    for (unsigned i = 0; i < k->nrec; i++)
        gw += k->recs[i].kind == TREC_GTLB_WRITE;
    CU_ASSERT_EQUAL(gw, 3);
    kit_free(k);
}

static void test_tlbsx_tid0_entry_matches_any_stid(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 42);
    kit_emit(k, E_MTSPR(946, 3)); /* STID 42 */
    kit_li(k, 6, 0x00001000u);    /* inside reset entry 0 (TID 0) */
    kit_emit(k, E_TLBSX(7, 0, 6));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 7), 0);
    kit_free(k);
}

static void test_dcr_uic_is_heavy_dcr_and_cpr0_stays_in_kernel(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 0x80000000u);
    kit_emit(k, E_MTDCR(0x0c2, 3)); /* UIC0_ER */
    kit_emit(k, E_MFDCR(4, 0x0c2));
    kit_emit(k, E_MTDCR(0x00c, 3)); /* CPR0 address */
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 0x80000000u);
    exit_type t[8];
    CU_ASSERT_EQUAL_FATAL(kit_exits(k, t, 8), 4);
    CU_ASSERT_EQUAL(t[0], EXIT_DCR);
    CU_ASSERT_EQUAL(t[1], EXIT_DCR);
    CU_ASSERT_EQUAL(t[2], EXIT_EMULINST);
    bool heavy = false;
    for (unsigned i = 0; i < k->nrec; i++)
        if (k->recs[i].kind == TREC_EXIT && k->recs[i].type == EXIT_DCR)
            heavy = (k->recs[i].flags & TRF_USERSPACE) != 0;
    CU_ASSERT_TRUE(heavy);
    kit_free(k);
}

static void test_cache_ops_are_noops(void)
{
    kit *k = kit_new();
    kit_emit(k, E_ICCCI);
    kit_emit(k, E_DCBI(0, 0));
    kit_emit(k, E_TLBSYNC);
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(k->end, CPU440_POWEROFF);
    exit_type t[8];
    CU_ASSERT_EQUAL_FATAL(kit_exits(k, t, 8), 4);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(t[i], EXIT_EMULINST);
    kit_free(k);
}

static void test_user_sc_is_syscall_delivered_with_next_pc(void)
{
    kit *k = kit_new();
    uint32_t user = KIT_USER_EA;
    kit_user(k);
    kit_li(k, 3, user);
    kit_emit(k, E_MTSPR(26, 3));
    kit_li(k, 3, MSR_PR | MSR_EE);
    kit_emit(k, E_MTSPR(27, 3));
    kit_emit(k, E_RFI);
    k->img[KIT_USER_PA / 4] = E_SC;
    k->img[KIT_USER_PA / 4 + 1] = E_B_SELF;
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_SYSCALL);
    CU_ASSERT_EQUAL(kit_gpr(k, 20), user + 4);
    CU_ASSERT_EQUAL(kit_gpr(k, 21), MSR_PR | MSR_EE);
    CU_ASSERT_EQUAL(k->types[EXIT_SYSCALL], 1);
    kit_free(k);
}

static void test_supervisor_sc_with_magic_is_hcall(void)
{
    kit *k = kit_new();
    kit_li(k, 0, KVM_SC_MAGIC_R0);
    kit_li(k, 11, KVM_HCALL_TOKEN(KVM_HC_FEATURES));
    kit_emit(k, E_SC);
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(k->types[EXIT_HCALL], 1);
    CU_ASSERT_EQUAL(k->types[EXIT_SYSCALL], 0);
    CU_ASSERT_EQUAL(kit_gpr(k, 3), 0);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 1u << KVM_FEATURE_MAGIC_PAGE);
    kit_free(k);
}

static void test_decrementer_interrupt_through_ivor10(void)
{
    kit *k = kit_new();
    kit_li(k, 3, TCR_DIE);
    kit_emit(k, E_MTSPR(340, 3)); /* TCR */
    kit_li(k, 3, 20000);
    kit_emit(k, E_MTSPR(22, 3)); /* DEC */
    kit_emit(k, E_WRTEEI(1));
    uint32_t loop = 4 * k->n;
    kit_emit(k, E_ADDI(5, 5, 1));
    kit_emit(k, 0x4bfffffcu); /* b loop */
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_DECREMENTER);
    CU_ASSERT_TRUE(kit_gpr(k, 20) == loop || kit_gpr(k, 20) == loop + 4);
    CU_ASSERT_EQUAL(kit_gpr(k, 21), MSR_EE); /* SRR1 */
    CU_ASSERT_TRUE(kit_gpr(k, 5) > 1000);    /* the loop ran a while */
    CU_ASSERT_EQUAL(k->types[EXIT_DEC], 1);  /* the host timer's exit */
    kit_free(k);
}

static void test_wait_with_we_blocks_until_the_decrementer(void)
{
    kit *k = kit_new();
    kit_li(k, 3, TCR_DIE);
    kit_emit(k, E_MTSPR(340, 3));
    kit_li(k, 3, 6670000); /* 10 ms */
    kit_emit(k, E_MTSPR(22, 3));
    kit_li(k, 3, MSR_EE | MSR_WE);
    kit_emit(k, E_MTMSR(3));
    kit_emit(k, E_B_SELF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_DECREMENTER);
    CU_ASSERT_EQUAL(k->types[EXIT_EMUL_WAIT], 1);
    for (unsigned i = 0; i < k->nrec; i++)
        if (k->recs[i].kind == TREC_EXIT && k->recs[i].type == EXIT_EMUL_WAIT)
            CU_ASSERT_TRUE(k->recs[i].handler >= 6000000u);
    kit_free(k);
}

static void test_delivery_masks_msr_and_uses_ivpr_ivor(void)
{
    kit *k = kit_new();
    kit_li(k, 3, MSR_EE | MSR_ME | MSR_DE | MSR_CE);
    kit_emit(k, E_MTMSR(3));
    kit_emit(k, e_x(31, 0, 0, 4)); /* tw 31,0,0: trap always */
    kit_emit(k, E_B_SELF);
    uint32_t h[] = {E_MFMSR(25), E_MFSPR(22, 62), E_LI(24, 6), E_LI(0, 0),
                    E_POWEROFF};
    kit_handler(k, 6, h, 5);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), 6);
    CU_ASSERT_EQUAL(kit_gpr(k, 25), MSR_ME | MSR_DE | MSR_CE);
    CU_ASSERT_EQUAL(kit_gpr(k, 22), ESR_PTR);
    kit_free(k);
}

static void test_dec_counts_down_and_tsr_is_write_one_to_clear(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 30000); /* DIE off: expiry only sets TSR[DIS] */
    kit_emit(k, E_MTSPR(22, 3));
    kit_emit(k, E_MFSPR(4, 22));
    kit_emit(k, E_MFSPR(5, 22)); /* an exit later: smaller */
    for (int i = 0; i < 4; i++)  /* ~4 exits of >= 12 us: DEC expires */
        kit_emit(k, E_MFSPR(6, 272));
    kit_emit(k, E_MFSPR(7, 336)); /* TSR */
    kit_li(k, 3, TSR_DIS);
    kit_emit(k, E_MTSPR(336, 3)); /* write 1 to clear */
    kit_emit(k, E_MFSPR(8, 336));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_TRUE(kit_gpr(k, 4) > 0 && kit_gpr(k, 4) <= 30000);
    CU_ASSERT_TRUE(kit_gpr(k, 5) < kit_gpr(k, 4));
    CU_ASSERT_TRUE((kit_gpr(k, 7) & TSR_DIS) != 0);
    CU_ASSERT_EQUAL(kit_gpr(k, 8) & TSR_DIS, 0);
    CU_ASSERT_EQUAL(k->types[EXIT_DEC], 0); /* no DIE, no EE: no interrupt */
    kit_free(k);
}

static void test_tlbre_word0_sets_mmucr_stid(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 9);
    kit_emit(k, E_MTSPR(946, 3)); /* STID 9 for the write */
    kit_emit(k, E_LI(4, 7));
    kit_li(k, 3, 0x40000000u | 0x200u | 0x10u);
    kit_emit(k, E_TLBWE(3, 4, 0));
    kit_emit(k, E_LI(3, 0));
    kit_emit(k, E_MTSPR(946, 3)); /* STID 0 */
    kit_emit(k, E_TLBRE(5, 4, 0));
    kit_emit(k, E_MFSPR(6, 946));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 5), 0x40000000u | 0x200u | 0x10u);
    CU_ASSERT_EQUAL(kit_gpr(k, 6) & 0xffu, 9);
    kit_free(k);
}

static void test_unknown_spr_is_a_program_interrupt(void)
{
    kit *k = kit_new();
    kit_emit(k, E_MFSPR(4, 1000)); /* no such SPR: EMULATE_FAIL */
    kit_emit(k, E_B_SELF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_PROGRAM);
    CU_ASSERT_EQUAL(kit_gpr(k, 22), ESR_PIL);
    kit_free(k);
}

static void test_fp_unavailable_then_lfd_stfd_without_exits(void)
{
    kit *k = kit_new();
    k->img[0xc000 / 4] = 0x11223344u;
    k->img[0xc004 / 4] = 0x55667788u;
    kit_li(k, 9, 0xc000);
    kit_emit(k, E_LFD(1, 0, 9)); /* MSR[FP]=0: FP unavailable */
    kit_emit(k, E_B_SELF);
    /* the FP-unavailable handler: FP on, copy 8 bytes, power off */
    uint32_t h[] = {E_LIS(3, MSR_FP >> 16) | 0,
                    E_ORI(3, 3, MSR_FP),
                    E_MTMSR(3),
                    E_LFD(1, 0, 9),
                    E_STFD(1, 8, 9),
                    E_LI(24, 7),
                    E_LI(0, 0),
                    E_POWEROFF};
    kit_handler(k, 7, h, sizeof h / 4);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), 7);
    CU_ASSERT_EQUAL(k->types[EXIT_FP_UNAVAIL], 1);
    uint8_t *ram = iss_ram(k->cpu->iss);
    CU_ASSERT_EQUAL(get_be(ram + 0xc008), 0x11223344u);
    CU_ASSERT_EQUAL(get_be(ram + 0xc00c), 0x55667788u);
    /* with FP on, the loads/stores were no exits: only the mtmsr and the
     * power-off DCR follow the FP_UNAVAIL */
    exit_type t[8];
    unsigned n = kit_exits(k, t, 8);
    CU_ASSERT_EQUAL(t[n - 1], EXIT_DCR);
    CU_ASSERT_EQUAL(t[n - 2], EXIT_EMUL_MTMSR);
    kit_free(k);
}

/* The Linux guest's TLB-miss handler reads SPRG4-7 in problem state, which
 * a 440 allows without an exit (SPRG4R-7R): the value written by an
 * emulated mtspr must be in Unicorn's own copy. */
static void test_sprg4_7_are_read_natively_in_user_mode(void)
{
    kit *k = kit_new();
    kit_user(k);
    kit_li(k, 3, 0x12345678u);
    kit_emit(k, E_MTSPR(276, 3)); /* SPRG4W */
    kit_li(k, 3, 0x9abcdef0u);
    kit_emit(k, E_MTSPR(279, 3)); /* SPRG7W */
    kit_li(k, 3, KIT_USER_EA);
    kit_emit(k, E_MTSPR(26, 3));
    kit_li(k, 3, MSR_PR);
    kit_emit(k, E_MTSPR(27, 3));
    kit_emit(k, E_RFI);
    k->img[KIT_USER_PA / 4] = E_MFSPR(4, 260);     /* SPRG4R */
    k->img[KIT_USER_PA / 4 + 1] = E_MFSPR(5, 263); /* SPRG7R */
    k->img[KIT_USER_PA / 4 + 2] = E_SC;
    k->img[KIT_USER_PA / 4 + 3] = E_B_SELF;
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_SYSCALL);
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 0x12345678u);
    CU_ASSERT_EQUAL(kit_gpr(k, 5), 0x9abcdef0u);
    CU_ASSERT_EQUAL(k->types[EXIT_USR_PR_INST], 0); /* no exit for them */
    kit_free(k);
}

static void test_mcsr_is_write_one_to_clear(void)
{
    kit *k = kit_new();
    kit_li(k, 3, 0xffffffffu);
    kit_emit(k, E_MTSPR(572, 3)); /* head_44x.S clears MCSR */
    kit_emit(k, E_MFSPR(4, 572));
    kit_li(k, 3, 0x1234u);
    kit_emit(k, E_MTSPR(570, 3)); /* MCSRR0 */
    kit_emit(k, E_MFSPR(5, 570));
    kit_emit(k, E_POWEROFF);
    kit_run(k);
    CU_ASSERT_EQUAL(k->end, CPU440_POWEROFF);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), (uint32_t)-1); /* no program interrupt */
    CU_ASSERT_EQUAL(kit_gpr(k, 4), 0);
    CU_ASSERT_EQUAL(kit_gpr(k, 5), 0x1234u);
    kit_free(k);
}

/* QEMU 7.2's 16550 and UIC, as the Linux oracle has them: FIFO bits in
 * IIR, THRE pending when ETBEI is turned on with THR empty and after every
 * THR write, acknowledged by reading IIR; the UART's level input keeps UIC
 * SR set through a write-1-to-clear and drops with the line. */
static void test_uart_thre_interrupt_and_uic_level_input(void)
{
    kit *k = kit_new();
    kit_li(k, 5, 0xef600300u); /* the reset TLB's UART page */
    kit_emit(k, E_LI(6, 1));
    kit_emit(k, E_STB(6, 2, 5)); /* FCR: FIFO on */
    kit_emit(k, E_LBZ(9, 2, 5)); /* IIR 0xc1 */
    kit_emit(k, E_LI(6, 2));
    kit_emit(k, E_STB(6, 1, 5)); /* IER = ETBEI: THRE pending */
    kit_emit(k, E_MFDCR(10, 0xc0));
    kit_emit(k, E_LBZ(7, 2, 5)); /* IIR 0xc2, acknowledges */
    kit_emit(k, E_LBZ(8, 2, 5)); /* IIR 0xc1 */
    kit_emit(k, E_MFDCR(11, 0xc0));
    kit_emit(k, E_LI(6, 0x41));
    kit_emit(k, E_STB(6, 0, 5)); /* THR: sent at once, THRE pending */
    kit_emit(k, E_MFDCR(12, 0xc0));
    kit_li(k, 3, 0x80000000u);
    kit_emit(k, E_MTDCR(0xc0, 3)); /* SR w1c: the level keeps it */
    kit_emit(k, E_MFDCR(13, 0xc0));
    kit_emit(k, E_MTDCR(0xc2, 3)); /* ER: input 0 enabled */
    kit_emit(k, E_WRTEEI(1));      /* -> external interrupt */
    kit_emit(k, E_B_SELF);
    kit_run(k);
    CU_ASSERT_EQUAL(kit_gpr(k, 9), 0xc1);
    CU_ASSERT_EQUAL(kit_gpr(k, 10), 0x80000000u);
    CU_ASSERT_EQUAL(kit_gpr(k, 7), 0xc2);
    CU_ASSERT_EQUAL(kit_gpr(k, 8), 0xc1);
    CU_ASSERT_EQUAL(kit_gpr(k, 11), 0);
    CU_ASSERT_EQUAL(kit_gpr(k, 12), 0x80000000u);
    CU_ASSERT_EQUAL(kit_gpr(k, 13), 0x80000000u);
    CU_ASSERT_EQUAL(kit_gpr(k, 24), BOOKE_IRQ_EXTERNAL);
    cpu440_counters n;
    cpu440_get_counters(k->cpu, &n);
    CU_ASSERT_EQUAL(n.delivered[BOOKE_IRQ_EXTERNAL][0], 1);
    CU_ASSERT_EQUAL(n.delivered[BOOKE_IRQ_EXTERNAL][1], 0);
    CU_ASSERT_EQUAL(n.mmio_reads, 3);
    CU_ASSERT_EQUAL(n.mmio_writes, 3);
    CU_ASSERT_EQUAL(n.dcr_reads, 4);
    kit_free(k);
}

/* Linux's machine_halt: `b .` with interrupts off ends the run. */
static void test_halt_loop_with_ee_off_ends_the_run(void)
{
    kit *k = kit_new();
    k->boot = (cpu440_boot){.halt_loop_ends = true};
    k->has_boot = true;
    kit_emit(k, E_WRTEEI(0));
    kit_emit(k, E_B_SELF);
    kit_run(k);
    CU_ASSERT_EQUAL(k->err, SIM_OK);
    CU_ASSERT_EQUAL(k->end, CPU440_POWEROFF);
    kit_free(k);
}

/* --time icount: the guest's timebase does not see the exits' time. */
static void test_exit_time_hidden_from_the_guest_clock(void)
{
    for (int hide = 0; hide < 2; hide++) {
        kit *k = kit_new();
        kit_emit(k, E_MFTB(3));
        for (int i = 0; i < 8; i++)
            kit_emit(k, E_MFMSR(4));
        kit_emit(k, E_MFTB(5));
        kit_emit(k, E_POWEROFF);
        cpu440_config c;
        kit_config(&c);
        c.exit_time_hidden = hide;
        kit_run_cfg(k, &c, 100000);
        uint32_t d = kit_gpr(k, 5) - kit_gpr(k, 3);
        CU_ASSERT_EQUAL(k->types[EXIT_EMUL_MFMSR], 8);
        if (hide) {
            CU_ASSERT(d < 64); /* about 10 instructions */
        } else {
            CU_ASSERT(d >= 8 * cpu440_flat_ticks(EXIT_EMUL_MFMSR, c.tb_hz));
        }
        kit_free(k);
    }
}

static CU_TestInfo tests[] = {
    {"mtmsr/mfmsr round trip, subtypes",
     test_mtmsr_mfmsr_roundtrip_and_subtypes},
    {"wrteei/wrtee change only EE", test_wrteei_and_wrtee_change_only_ee},
    {"SPRG0-3, SRR0/1 are plain EMULINST",
     test_sprg_and_srr_are_plain_emulinst_in_2_6_30},
    {"core SPRs get MTSPR/MFSPR subtypes",
     test_core_sprs_get_mtspr_mfspr_subtypes},
    {"rfi to user; privileged insn there",
     test_rfi_to_user_then_privileged_insn_is_usr_pr_inst},
    {"tlbwe x3 with STID, tlbsx., tlbre",
     test_tlbwe_three_words_with_stid_then_tlbsx_and_tlbre},
    {"tlbsx: TID 0 matches any STID", test_tlbsx_tid0_entry_matches_any_stid},
    {"UIC DCR is heavy, CPR0 in kernel",
     test_dcr_uic_is_heavy_dcr_and_cpr0_stays_in_kernel},
    {"iccci, dcbi, tlbsync are no-ops", test_cache_ops_are_noops},
    {"user sc: SYSCALL, SRR0 = next",
     test_user_sc_is_syscall_delivered_with_next_pc},
    {"supervisor sc + magic: HCALL", test_supervisor_sc_with_magic_is_hcall},
    {"DEC interrupt through IVOR10", test_decrementer_interrupt_through_ivor10},
    {"MSR[WE] waits for the decrementer",
     test_wait_with_we_blocks_until_the_decrementer},
    {"delivery masks MSR, IVPR|IVOR",
     test_delivery_masks_msr_and_uses_ivpr_ivor},
    {"DEC counts down, TSR is w1c",
     test_dec_counts_down_and_tsr_is_write_one_to_clear},
    {"tlbre word 0 sets MMUCR[STID]", test_tlbre_word0_sets_mmucr_stid},
    {"unknown SPR: program interrupt", test_unknown_spr_is_a_program_interrupt},
    {"FP unavailable, then lfd/stfd run",
     test_fp_unavailable_then_lfd_stfd_without_exits},
    {"SPRG4-7 read natively in user mode",
     test_sprg4_7_are_read_natively_in_user_mode},
    {"MCSR is write-1-to-clear", test_mcsr_is_write_one_to_clear},
    {"16550 THRE interrupt, UIC level input",
     test_uart_thre_interrupt_and_uic_level_input},
    {"b . with EE off ends the run", test_halt_loop_with_ee_off_ends_the_run},
    {"exit time hidden from the guest clock",
     test_exit_time_hidden_from_the_guest_clock},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("booke", tests)
