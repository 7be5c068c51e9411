/* insn440: classes of the instructions KVM/440 emulates, decoded from the
 * instruction word by a match/mask table (kernel emulate.c, booke_emulate.c,
 * 44x_emulate.c; reference §4), and the SPR groups whose emulation costs
 * differ. The cost model prices an emulation exit by its class; cpu440 can
 * use the same decoder. */
#ifndef INSN440_H
#define INSN440_H

#include <stdint.h>

/*      class        what */
#define INSN_CLASS_LIST(X)                                                     \
    X(MFMSR, "mfmsr")                                                          \
    X(MTMSR, "mtmsr")                                                          \
    X(WRTEE, "wrtee / wrteei")                                                 \
    X(MFSPR, "mfspr")                                                          \
    X(MTSPR, "mtspr")                                                          \
    X(RFI, "rfi / rfci")                                                       \
    X(TLBWE, "tlbwe (one word)")                                               \
    X(TLBSX, "tlbsx")                                                          \
    X(TLBRE, "tlbre (not emulated: FAIL)")                                     \
    X(CACHE, "iccci, dccci, dcbi, tlbsync (no-ops)")                           \
    X(DCR, "mfdcr / mtdcr (and x forms)")                                      \
    X(TRAP, "tw / twi (program interrupt queued)")                             \
    X(LOADSTORE, "load/store (MMIO path)")                                     \
    X(ILLEGAL, "anything else")

typedef enum insn_class {
#define X(c, s) INSN_##c,
    INSN_CLASS_LIST(X)
#undef X
        INSN__COUNT
} insn_class;

/* SPR groups by emulation path. */
typedef enum spr_group {
    SPRG_GENERIC, /* SRR0/1, SPRG0-3, PVR, PIR, TB (emulate.c) */
    SPRG_BOOKE,   /* DEAR, ESR, DBCR/DBSR, IVPR, IVORs, SPRG4-7 */
    SPRG_TIMER,   /* DEC, DECAR, TCR, TSR: re-arm the guest decrementer */
    SPRG_MMU,     /* PID, MMUCR, CCR0, CCR1 (44x_emulate.c) */
} spr_group;

typedef struct insn_row {
    uint32_t match, mask;
    insn_class cls;
    const char *mnemonic;
} insn_row;

/* The decode table, ending with the catch-all ILLEGAL row (mask 0). */
const insn_row *insn440_table(unsigned *n);
insn_class insn440_decode(uint32_t inst);
const char *insn440_class_name(insn_class c);
/* SPR number of mfspr/mtspr (split field). */
static inline unsigned insn440_spr(uint32_t inst)
{
    return ((inst >> 16) & 0x1fu) | ((inst >> 6) & 0x3e0u);
}
spr_group insn440_spr_group(unsigned spr);

#endif
