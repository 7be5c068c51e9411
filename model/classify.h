/* classify: which exit-timing row the kernel charges for an exit, from what
 * a trace shows of it (kernel 2.6.29-2.6.37 rules, reference
 * docs/kvm440.md §1 and §4: booke.c kvmppc_handle_exit, emulate.c,
 * booke_emulate.c, 44x_emulate.c). Pure functions shared by the ftrace
 * importer and anything else that must agree with cpu440's classification
 * (cpu440/booke.c applies the same rules while it emulates). */
#ifndef CLASSIFY_H
#define CLASSIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "exits.h"

/* kvm_ppc_instr's `emulate` (enum emulation_result). */
enum classify_emulate {
    CLASSIFY_DONE = 0,
    CLASSIFY_DO_MMIO = 1,
    CLASSIFY_DO_DCR = 2,
    CLASSIFY_FAIL = 3,
    CLASSIFY_AGAIN = 4,     /* 3.x */
    CLASSIFY_EXIT_USER = 5, /* 3.x */
    CLASSIFY_UNKNOWN = -1,  /* no kvm_ppc_instr seen for the exit */
};

/* DCRs KVM serves itself (CPR0 address/data): a mfdcr/mtdcr of these is a
 * light EMULINST exit, every other DCR a heavy DCR exit. */
#define CLASSIFY_DCR_CPR0_ADDR 0x00cu
#define CLASSIFY_DCR_CPR0_DATA 0x00du

/* The PV magic page (EA = PA = -4096, docs/kvm440.md §5). */
#define CLASSIFY_MAGIC_PAGE 0xfffff000u

/* Whether an mfspr/mtspr of spr gets the EMUL_MFSPR/EMUL_MTSPR row: up to
 * 2.6.37 only the SPRs that reach booke_emulate.c / 44x_emulate.c (PID,
 * MMUCR, CCR0/1, DEAR, ESR, DBCR0/1, DBSR, TSR, TCR, SPRG4-7, IVPR,
 * IVOR0-15); SRR0/1, SPRG0-3, DEC, PVR, PIR, TB stay EMULINST. */
bool classify_spr_has_subtype(unsigned spr);

/* The row a 3.0+ kernel charges for an exit these rules (2.6.29-2.6.37)
 * put in row t with instruction word inst: 3.0 gave every mfspr/mtspr its
 * subtype row (docs/kvm440.md), so an EMULINST mfspr/mtspr (SRR0/1,
 * SPRG0-3, DEC, PVR, PIR, TB) is EMUL_MFSPR/EMUL_MTSPR; every other exit
 * keeps t. */
exit_type classify_row_3x(exit_type t, uint32_t inst);

/* DCR number of mfdcr/mtdcr (split field like an SPR's). */
static inline unsigned classify_dcrn(uint32_t inst)
{
    return ((inst >> 16) & 0x1fu) | ((inst >> 6) & 0x3e0u);
}

/* The row of a PROGRAM exit in guest supervisor mode that emulated inst
 * with the given outcome: EMULINST + EMUL_* subtype from the instruction,
 * DCR for a DCR access that went to QEMU, EMULINST on FAIL. With outcome
 * CLASSIFY_UNKNOWN the instruction alone decides (a DCR access other than
 * CPR0 is taken as DCR). Never EMUL_WAIT: whether mtmsr/rfi set MSR[WE]
 * depends on a register value (see classify_may_wait). */
exit_type classify_program(uint32_t inst, int emulate);

/* Whether inst is one whose emulation can put the guest to sleep (mtmsr,
 * rfi into MSR[WE]): the EMUL_WAIT candidates. */
bool classify_may_wait(uint32_t inst);

/* The row of an exit by its BookE interrupt number alone, for the
 * interrupts that need no more than that and guest MSR[PR]: DSI, ISI,
 * EXTINT, DEC, FP_UNAVAIL, DEBUG, USR_PR_INST (PROGRAM with PR=1), SYSCALL
 * with PR=1. Returns -1 where more is needed (PROGRAM with PR=0, TLB
 * misses, SYSCALL with PR=0) or where the kernel sets no type and the
 * previous exit's type is kept (machine check, alignment, FIT, watchdog,
 * critical, SPE, ...): see classify_keeps_previous. */
int classify_by_irq(unsigned irq, bool guest_pr);
/* Whether the kernel's handler for irq sets no exit type, so the row of
 * the previous exit is charged again (docs/kvm440.md §1). */
bool classify_keeps_previous(unsigned irq);

#endif
