/* classify: exit rows from what a trace shows (2.6.29-2.6.37 rules; kernel
 * booke.c, emulate.c, booke_emulate.c, 44x_emulate.c; docs/kvm440.md §1,
 * §4). */
#include "classify.h"

#include "insn440.h"

bool classify_spr_has_subtype(unsigned spr)
{
    switch (spr) {
    case 48:  /* PID */
    case 946: /* MMUCR */
    case 947: /* CCR0 */
    case 888: /* CCR1 */
    case 61:  /* DEAR */
    case 62:  /* ESR */
    case 308: /* DBCR0 */
    case 309: /* DBCR1 */
    case 304: /* DBSR */
    case 336: /* TSR */
    case 340: /* TCR */
    case 63: /* IVPR */ return true;
    default:
        return (spr >= 276 && spr <= 279) || /* SPRG4-7 */
               (spr >= 400 && spr <= 415);   /* IVOR0-15 */
    }
}

exit_type classify_row_3x(exit_type t, uint32_t inst)
{
    if (t != EXIT_EMULINST || !inst)
        return t;
    switch (insn440_decode(inst)) {
    case INSN_MFSPR: return EXIT_EMUL_MFSPR;
    case INSN_MTSPR: return EXIT_EMUL_MTSPR;
    default: return t;
    }
}

exit_type classify_program(uint32_t inst, int emulate)
{
    /* kvmppc_emulate_instruction sets EMULINST first; a subtype is set only
     * by a successful emulation, DCR only when the access goes to QEMU */
    if (emulate == CLASSIFY_FAIL || emulate == CLASSIFY_DO_MMIO)
        return EXIT_EMULINST;
    insn_class c = insn440_decode(inst);
    switch (c) {
    case INSN_MFMSR: return EXIT_EMUL_MFMSR;
    case INSN_MTMSR: return EXIT_EMUL_MTMSR;
    case INSN_WRTEE: return EXIT_EMUL_WRTEE;
    case INSN_MFSPR:
        return classify_spr_has_subtype(insn440_spr(inst)) ? EXIT_EMUL_MFSPR
                                                           : EXIT_EMULINST;
    case INSN_MTSPR:
        return classify_spr_has_subtype(insn440_spr(inst)) ? EXIT_EMUL_MTSPR
                                                           : EXIT_EMULINST;
    case INSN_RFI:
        /* rfci has its own row only from 3.5; before, plain EMULINST */
        return inst == 0x4c000064u ? EXIT_EMUL_RFI : EXIT_EMULINST;
    case INSN_TLBWE: return EXIT_EMUL_TLBWE;
    case INSN_TLBSX: return EXIT_EMUL_TLBSX;
    case INSN_DCR: {
        if (emulate == CLASSIFY_DO_DCR)
            return EXIT_DCR;
        if (emulate != CLASSIFY_UNKNOWN)
            return EXIT_EMULINST; /* served in the kernel (CPR0) */
        unsigned dcrn = classify_dcrn(inst);
        return dcrn == CLASSIFY_DCR_CPR0_ADDR || dcrn == CLASSIFY_DCR_CPR0_DATA
                   ? EXIT_EMULINST
                   : EXIT_DCR;
    }
    default: return EXIT_EMULINST;
    }
}

bool classify_may_wait(uint32_t inst)
{
    return insn440_decode(inst) == INSN_MTMSR || inst == 0x4c000064u;
}

int classify_by_irq(unsigned irq, bool guest_pr)
{
    switch (irq) {
    case BOOKE_IRQ_DATA_STORAGE: return EXIT_DSI;
    case BOOKE_IRQ_INST_STORAGE: return EXIT_ISI;
    case BOOKE_IRQ_EXTERNAL: return EXIT_EXTINT;
    case BOOKE_IRQ_DECREMENTER: return EXIT_DEC;
    case BOOKE_IRQ_FP_UNAVAIL: return EXIT_FP_UNAVAIL;
    case BOOKE_IRQ_DEBUG: return EXIT_DEBUG;
    case BOOKE_IRQ_PROGRAM: return guest_pr ? EXIT_USR_PR_INST : -1;
    case BOOKE_IRQ_SYSCALL: return guest_pr ? EXIT_SYSCALL : -1;
    default: return -1;
    }
}

bool classify_keeps_previous(unsigned irq)
{
    switch (irq) {
    case BOOKE_IRQ_DATA_STORAGE:
    case BOOKE_IRQ_INST_STORAGE:
    case BOOKE_IRQ_EXTERNAL:
    case BOOKE_IRQ_DECREMENTER:
    case BOOKE_IRQ_FP_UNAVAIL:
    case BOOKE_IRQ_DEBUG:
    case BOOKE_IRQ_PROGRAM:
    case BOOKE_IRQ_SYSCALL:
    case BOOKE_IRQ_DTLB_MISS:
    case BOOKE_IRQ_ITLB_MISS: return false;
    default: return true;
    }
}
