/* booke: the BookE privileged architecture KVM/440 virtualizes, after
 * arch/powerpc/kvm/{emulate.c, booke_emulate.c, 44x_emulate.c, booke.c} of
 * 2.6.30 (docs/kvm440.md §4) and the PPC440x5 UM (interrupts, timers, MMU).
 * MSR, SRR0/1, SPRG0-7, DEAR and ESR live in the shared page, as the host
 * keeps them from 2.6.37 on, so the PV guest reads them without exits. */
#include <string.h>

#include "classify.h" /* the SPR subtype rule, shared with the model */
#include "cpu440_priv.h"
#include "tlbword.h"

/* ---- the shared page (u64 fields, big-endian; the value in the low
 * word, u32 fields plain) ---- */
static bool sh_is_u32(unsigned off)
{
    return off == KVM_SH_DSISR || off == KVM_SH_INT_PENDING ||
           off == KVM_SH_ESR || off == KVM_SH_PIR;
}

uint32_t sh_get(const cpu440 *c, unsigned off)
{
    const uint8_t *p = c->sh + (sh_is_u32(off) ? off : KVM_SH_LO(off));
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

void sh_set(cpu440 *c, unsigned off, uint32_t v)
{
    uint8_t *p = c->sh + (sh_is_u32(off) ? off : KVM_SH_LO(off));
    if (!sh_is_u32(off))
        memset(p - 4, 0, 4);
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static const unsigned k_sprg_off[8] = {KVM_SH_SPRG0, KVM_SH_SPRG1, KVM_SH_SPRG2,
                                       KVM_SH_SPRG3, KVM_SH_SPRG4, KVM_SH_SPRG5,
                                       KVM_SH_SPRG6, KVM_SH_SPRG7};

void booke_reset(cpu440 *c)
{
    memset(c->sh, 0, 4096);
    c->csrr0 = c->csrr1 = c->ivpr = 0;
    memset(c->ivor, 0, sizeof c->ivor);
    c->mmucr = c->ccr0 = c->ccr1 = 0;
    c->tcr = c->tsr = c->decar = 0;
    c->dbcr0 = c->dbcr1 = c->dbcr2 = c->dbsr = c->usprg0 = 0;
    c->mcsr = c->mcsrr0 = c->mcsrr1 = 0;
    c->dec_expiry = 0;
    c->magic_mapped = false;
    sh_set(c, KVM_SH_MSR, 0); /* guest supervisor, AS 0 */
    for (unsigned n = 4; n < 8; n++)
        iss_set_sprg(c->iss, n, 0);
    memset(c->delivered, 0, sizeof c->delivered);
}

/* ---- decrementer (tb-driven, UM ch. 8) ---- */
uint32_t booke_dec_now(const cpu440 *c)
{
    uint64_t now = cpu_gtb_now(c);
    if (!c->dec_expiry || now >= c->dec_expiry)
        return 0;
    uint64_t left = c->dec_expiry - now;
    return left > 0xffffffffu ? 0xffffffffu : (uint32_t)left;
}

static void dec_write(cpu440 *c, uint32_t v)
{
    c->dec_expiry = v ? cpu_gtb_now(c) + v : 0;
}

/* The decrementer reaching 0 sets TSR[DIS] (and reloads from DECAR if
 * TCR[ARE]); called whenever time passes an expiry (tb: trace clock). */
void booke_dec_check(cpu440 *c, uint64_t tb)
{
    if (c->dec_expiry && tb - c->hidden >= c->dec_expiry) {
        c->tsr |= TSR_DIS;
        c->dec_expiry =
            (c->tcr & TCR_ARE) && c->decar ? c->dec_expiry + c->decar : 0;
    }
}

/* ---- MSR and interrupts ---- */
void booke_set_msr(cpu440 *c, uint32_t msr)
{
    sh_set(c, KVM_SH_MSR, msr);
    if (msr & MSR_WE) {
        /* kvm_vcpu_block: the guest sleeps until an interrupt is pending;
         * the time is charged to this exit (EMUL_WAIT). */
        c->type = EXIT_EMUL_WAIT;
        c->pend[0].flags |= TRF_IDLE; /* kept if a signal retypes it */
        uint64_t now = cpu_tb_now(c) + c->extra_ticks;
        uint64_t wake = cpu_next_wake(c);
        if (wake == UINT64_MAX) {
            c->err = sim_fail(SIM_ERR_CHECK,
                              "cpu440: the guest waits "
                              "(MSR[WE]) with nothing armed to wake it");
            return;
        }
        if (wake > now)
            c->extra_ticks += (uint32_t)(wake - now);
    }
}

void booke_deliver(cpu440 *c, unsigned irq)
{
    uint32_t msr = guest_msr(c);
    c->delivered[irq & 15][(msr & MSR_PR) != 0]++;
    sh_set(c, KVM_SH_SRR0, c->pc);
    sh_set(c, KVM_SH_SRR1, msr);
    c->pc = c->ivpr | (c->ivor[irq] & 0xfff0u);
    sh_set(c, KVM_SH_MSR, msr & (MSR_CE | MSR_ME | MSR_DE));
}

/* A PV guest marks a critical section of its patched code (kvm.c's
 * templates) by storing r1 in the shared page's `critical`: no interrupt
 * is delivered inside it in guest supervisor mode (kvmppc_critical_section,
 * arch/powerpc/kvm/booke.c). */
static bool pv_critical(cpu440 *c)
{
    if (!c->magic_mapped || guest_pr(c))
        return false;
    return sh_get(c, KVM_SH_CRITICAL) == iss_gpr(c->iss, 1);
}

void booke_deliver_pending(cpu440 *c)
{
    bool dec = (c->tsr & TSR_DIS) && (c->tcr & TCR_DIE);
    bool ext = dev_ext_pending(c);
    if ((guest_msr(c) & MSR_EE) && !pv_critical(c)) {
        if (dec)
            booke_deliver(c, BOOKE_IRQ_DECREMENTER);
        else if (ext)
            booke_deliver(c, BOOKE_IRQ_EXTERNAL);
        else
            goto done;
        dec = (c->tsr & TSR_DIS) && (c->tcr & TCR_DIE);
        ext = dev_ext_pending(c);
    }
done:
    sh_set(c, KVM_SH_INT_PENDING, dec || ext);
}

/* ---- SPRs ---- */
static bool mfspr(cpu440 *c, unsigned spr, uint32_t *v)
{
    if (spr >= SPR_SPRG0 && spr <= SPR_SPRG7) {
        *v = sh_get(c, k_sprg_off[spr - SPR_SPRG0]);
        return true;
    }
    if (spr >= SPR_SPRG4R && spr <= SPR_SPRG7R) {
        *v = sh_get(c, k_sprg_off[4 + spr - SPR_SPRG4R]);
        return true;
    }
    if (spr >= SPR_IVOR0 && spr <= SPR_IVOR15) {
        *v = c->ivor[spr - SPR_IVOR0];
        return true;
    }
    switch (spr) {
    case SPR_SRR0: *v = sh_get(c, KVM_SH_SRR0); return true;
    case SPR_SRR1: *v = sh_get(c, KVM_SH_SRR1); return true;
    case SPR_DEAR: *v = sh_get(c, KVM_SH_DAR); return true;
    case SPR_ESR: *v = sh_get(c, KVM_SH_ESR); return true;
    case SPR_CSRR0: *v = c->csrr0; return true;
    case SPR_CSRR1: *v = c->csrr1; return true;
    case SPR_PID: *v = tlb440_pid(c->tlb); return true;
    case SPR_MMUCR: *v = c->mmucr; return true;
    case SPR_CCR0: *v = c->ccr0; return true;
    case SPR_CCR1: *v = c->ccr1; return true;
    case SPR_IVPR: *v = c->ivpr; return true;
    case SPR_DEC: *v = booke_dec_now(c); return true;
    case SPR_DECAR: *v = c->decar; return true;
    case SPR_TCR: *v = c->tcr; return true;
    case SPR_TSR: *v = c->tsr; return true;
    case SPR_DBCR0: *v = c->dbcr0; return true;
    case SPR_DBCR1: *v = c->dbcr1; return true;
    case SPR_DBCR2: *v = c->dbcr2; return true;
    case SPR_DBSR: *v = c->dbsr; return true;
    case SPR_PVR: *v = 0x422218d3u; return true; /* a 440x5 (440EPx) */
    case SPR_PIR: *v = 0; return true;
    case SPR_MCSR: *v = c->mcsr; return true;
    case SPR_MCSRR0: *v = c->mcsrr0; return true;
    case SPR_MCSRR1: *v = c->mcsrr1; return true;
    case SPR_USPRG0: *v = c->usprg0; return true;
    case SPR_TBRL: *v = (uint32_t)cpu_gtb_now(c); return true;
    case SPR_TBRU: *v = (uint32_t)(cpu_gtb_now(c) >> 32); return true;
    default: return false;
    }
}

static bool mtspr(cpu440 *c, unsigned spr, uint32_t v)
{
    if (spr >= SPR_SPRG0 && spr <= SPR_SPRG7) {
        sh_set(c, k_sprg_off[spr - SPR_SPRG0], v);
        /* SPRG4-7 are readable natively in problem state: Unicorn's copy */
        if (spr >= SPR_SPRG4)
            iss_set_sprg(c->iss, spr - SPR_SPRG0, v);
        return true;
    }
    if (spr >= SPR_IVOR0 && spr <= SPR_IVOR15) {
        c->ivor[spr - SPR_IVOR0] = v;
        return true;
    }
    switch (spr) {
    case SPR_SRR0: sh_set(c, KVM_SH_SRR0, v); return true;
    case SPR_SRR1: sh_set(c, KVM_SH_SRR1, v); return true;
    case SPR_DEAR: sh_set(c, KVM_SH_DAR, v); return true;
    case SPR_ESR: sh_set(c, KVM_SH_ESR, v); return true;
    case SPR_CSRR0: c->csrr0 = v; return true;
    case SPR_CSRR1: c->csrr1 = v; return true;
    case SPR_PID:
        /* kvmppc_set_pid: a new PID releases the guest-user (TID 0)
         * shadow entries */
        tlb440_set_pid(c->tlb, v & 0xffu);
        return true;
    case SPR_MMUCR: c->mmucr = v; return true;
    case SPR_CCR0: c->ccr0 = v; return true;
    case SPR_CCR1: c->ccr1 = v; return true;
    case SPR_IVPR: c->ivpr = v & 0xffff0000u; return true;
    case SPR_DEC: dec_write(c, v); return true;
    case SPR_DECAR: c->decar = v; return true;
    case SPR_TCR: c->tcr = v; return true;   /* re-arms: DIE gates delivery */
    case SPR_TSR: c->tsr &= ~v; return true; /* write 1 to clear */
    case SPR_DBCR0: c->dbcr0 = v; return true;
    case SPR_DBCR1: c->dbcr1 = v; return true;
    case SPR_DBCR2: c->dbcr2 = v; return true;
    case SPR_DBSR: c->dbsr &= ~v; return true;
    case SPR_USPRG0: c->usprg0 = v; return true;
    case SPR_MCSR: c->mcsr &= ~v; return true; /* write 1 to clear */
    case SPR_MCSRR0: c->mcsrr0 = v; return true;
    case SPR_MCSRR1: c->mcsrr1 = v; return true;
    case SPR_TBWL:
    case SPR_TBWU: return true; /* ignored by KVM */
    default: return false;
    }
}

/* ---- guest TLB (44x_emulate.c / 44x_tlb.c) ---- */
static void gtlb_write_word(cpu440 *c, unsigned index, unsigned ws, uint32_t v)
{
    tlb440_entry e = *tlb440_gtlb(c->tlb, index);
    switch (ws) {
    case 0:
        e.tid = c->mmucr & MMUCR_STID; /* WS=0 takes TID from MMUCR[STID] */
        e.w0 = v;
        break;
    case 1: e.w1 = v; break;
    default: e.w2 = v; break;
    }
    tlb440_gtlb_write(c->tlb, index, &e);
    trace_rec r = {.kind = TREC_GTLB_WRITE,
                   .type = (uint8_t)index,
                   .irq = (uint8_t)e.tid,
                   .pc = e.w0,
                   .inst = e.w1,
                   .addr = e.w2,
                   .tb = cpu_tb_now(c)};
    cpu_record_state(c, &r);
    /* A "host safe" entry (valid, TS = MSR[IS], RAM) gets its first host
     * page mapped at once. */
    if (tlb440_gtlb_host_safe(c->tlb, index, (guest_msr(c) & MSR_IS) != 0))
        tlb440_map(c->tlb, tlbw_epn(e.w0), index, guest_pr(c), NULL);
}

/* tlbwe/tlbre: the entry index (rA) and word (WS); false if out of range
 * (EMULATE_FAIL). */
static bool tlb_operands(cpu440 *c, uint32_t inst, uint32_t *index,
                         unsigned *ws)
{
    *index = iss_gpr(c->iss, insn440_ra(inst));
    *ws = insn440_ws(inst);
    return *index < 64 && *ws <= 2;
}

static uint32_t gpr_or0(cpu440 *c, unsigned ra)
{
    return ra ? iss_gpr(c->iss, ra) : 0;
}

emul booke_emulate(cpu440 *c, uint32_t inst, uint32_t pc)
{
    iss *s = c->iss;
    unsigned rt = insn440_rt(inst), ra = insn440_ra(inst),
             rb = insn440_rb(inst);
    uint32_t v;
    c->type = EXIT_EMULINST; /* the default of kvmppc_emulate_instruction */
    switch (insn440_decode_op(inst)) {
    case INSN_OP_MFMSR:
        iss_set_gpr(s, rt, guest_msr(c));
        c->type = EXIT_EMUL_MFMSR;
        return EMUL_DONE;
    case INSN_OP_MTMSR:
        c->type = EXIT_EMUL_MTMSR;
        booke_set_msr(c, iss_gpr(s, rt)); /* may turn it into EMUL_WAIT */
        return EMUL_DONE;
    case INSN_OP_WRTEE:
        c->type = EXIT_EMUL_WRTEE;
        sh_set(c, KVM_SH_MSR,
               (guest_msr(c) & ~MSR_EE) | (iss_gpr(s, rt) & MSR_EE));
        return EMUL_DONE;
    case INSN_OP_WRTEEI:
        c->type = EXIT_EMUL_WRTEE;
        sh_set(c, KVM_SH_MSR, (guest_msr(c) & ~MSR_EE) | (inst & MSR_EE));
        return EMUL_DONE;
    case INSN_OP_RFI:
        c->type = EXIT_EMUL_RFI;
        c->pc = sh_get(c, KVM_SH_SRR0);
        booke_set_msr(c, sh_get(c, KVM_SH_SRR1));
        return EMUL_JUMPED;
    case INSN_OP_RFCI:
        c->pc = c->csrr0;
        booke_set_msr(c, c->csrr1);
        return EMUL_JUMPED;
    case INSN_OP_MFSPR: {
        unsigned spr = insn440_spr(inst);
        if (!mfspr(c, spr, &v))
            return EMUL_FAIL;
        iss_set_gpr(s, rt, v);
        if (classify_spr_has_subtype(spr))
            c->type = EXIT_EMUL_MFSPR;
        return EMUL_DONE;
    }
    case INSN_OP_MTSPR: {
        unsigned spr = insn440_spr(inst);
        if (!mtspr(c, spr, iss_gpr(s, rt)))
            return EMUL_FAIL;
        if (classify_spr_has_subtype(spr))
            c->type = EXIT_EMUL_MTSPR;
        return EMUL_DONE;
    }
    case INSN_OP_MFDCR:
    case INSN_OP_MTDCR: {
        unsigned dcrn = insn440_spr(inst);
        bool load = insn440_decode_op(inst) == INSN_OP_MFDCR;
        /* CPR0's address/data pair is served inside KVM (the guest sees
         * the real clocks); everything else goes to QEMU. */
        if (dcrn == DCR_CPR0_ADDR || dcrn == DCR_CPR0_DATA) {
            if (load)
                iss_set_gpr(s, rt, dcrn == DCR_CPR0_ADDR ? c->cpr0_addr : 0);
            else if (dcrn == DCR_CPR0_ADDR)
                c->cpr0_addr = iss_gpr(s, rt);
            return EMUL_DONE;
        }
        c->type = EXIT_DCR;
        if (load) {
            c->cnt.dcr_reads++;
            iss_set_gpr(s, rt, dev_dcr_read(c, dcrn));
        } else {
            c->cnt.dcr_writes++;
            dev_dcr_write(c, dcrn, iss_gpr(s, rt));
        }
        return EMUL_DCR_HEAVY;
    }
    case INSN_OP_TLBWE: {
        uint32_t index;
        unsigned ws;
        if (!tlb_operands(c, inst, &index, &ws))
            return EMUL_FAIL;
        c->type = EXIT_EMUL_TLBWE;
        gtlb_write_word(c, index, ws, iss_gpr(s, rt));
        return EMUL_DONE;
    }
    case INSN_OP_TLBSX: {
        uint32_t ea = gpr_or0(c, ra) + iss_gpr(s, rb);
        int i = tlb440_gtlb_search(c->tlb, ea, (c->mmucr & MMUCR_STS) != 0,
                                   c->mmucr & MMUCR_STID, NULL);
        iss_set_gpr(s, rt, (uint32_t)i);
        if (insn440_rc(inst)) {
            uint32_t cr = iss_cr(s);
            cr = i < 0 ? cr & ~0x20000000u : cr | 0x20000000u;
            iss_set_cr(s, cr);
        }
        c->type = EXIT_EMUL_TLBSX;
        return EMUL_DONE;
    }
    case INSN_OP_TLBRE: {
        /* Not emulated by 2.6.30 (EMULATE_FAIL); provided for guests that
         * read entries back, charged as plain EMULINST. */
        uint32_t index;
        unsigned ws;
        if (!tlb_operands(c, inst, &index, &ws))
            return EMUL_FAIL;
        const tlb440_entry *e = tlb440_gtlb(c->tlb, index);
        if (ws == 0)
            c->mmucr = (c->mmucr & ~MMUCR_STID) | (e->tid & MMUCR_STID);
        iss_set_gpr(s, rt, ws == 0 ? e->w0 : ws == 1 ? e->w1 : e->w2);
        return EMUL_DONE;
    }
    case INSN_OP_ICCCI:
    case INSN_OP_DCCCI:
    case INSN_OP_DCBI:
    case INSN_OP_TLBSYNC: return EMUL_DONE; /* no-ops for KVM */
    case INSN_OP_TW:
    case INSN_OP_TWI:
        /* the trap condition held (Unicorn trapped): program interrupt */
        sh_set(c, KVM_SH_ESR, ESR_PTR);
        c->pc = pc;
        booke_deliver(c, BOOKE_IRQ_PROGRAM);
        return EMUL_JUMPED;
    default: return EMUL_FAIL;
    }
}
