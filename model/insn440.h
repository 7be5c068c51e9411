/* insn440: the instructions the 440 core traps on and KVM/440 emulates
 * (kernel emulate.c, booke_emulate.c, 44x_emulate.c of 2.6.30;
 * docs/kvm440.md §4), the loads/stores of the MMIO path and the FP instructions the 405 model
 * lacks, decoded by ONE match/mask table whose last row is the illegal
 * catch-all. Each row carries the op cpu440 dispatches on and the class the
 * cost model prices, so the core and the model cannot disagree. */
#ifndef INSN440_H
#define INSN440_H

#include <stdbool.h>
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

/* Encodings: D-form rows key on the primary opcode, X-form rows on the
 * primary opcode and the extended opcode (bits 21-30, Rc ignored as KVM's
 * get_op/get_xop do). */
#define INSN440_D(op)     ((uint32_t)(op) << 26)
#define INSN440_DMASK     0xfc000000u
#define INSN440_X(op, xo) (((uint32_t)(op) << 26) | ((uint32_t)(xo) << 1))
#define INSN440_XMASK     0xfc0007feu

/* The table. Classes the model never priced stay ILLEGAL so pricing is
 * unchanged by the merge: mfdcrx/mtdcrx are 3.x-only (cpu440 fails them);
 * lhax/lhaux are 3.x additions; FP loads/stores and FP arithmetic are not
 * emulated by KVM (cpu440 runs them for the 405 model, which lacks FP).
 *    op        mnemonic     match                     mask           class */
#define INSN440_LIST(X)                                                        \
    X(TWI, "twi", INSN440_D(3), INSN440_DMASK, TRAP)                           \
    X(TW, "tw", INSN440_X(31, 4), INSN440_XMASK, TRAP)                         \
    X(MFMSR, "mfmsr", INSN440_X(31, 83), INSN440_XMASK, MFMSR)                 \
    X(MTMSR, "mtmsr", INSN440_X(31, 146), INSN440_XMASK, MTMSR)                \
    X(WRTEE, "wrtee", INSN440_X(31, 131), INSN440_XMASK, WRTEE)                \
    X(WRTEEI, "wrteei", INSN440_X(31, 163), INSN440_XMASK, WRTEE)              \
    X(RFI, "rfi", INSN440_X(19, 50), INSN440_XMASK, RFI)                       \
    X(RFCI, "rfci", INSN440_X(19, 51), INSN440_XMASK, RFI)                     \
    X(MFSPR, "mfspr", INSN440_X(31, 339), INSN440_XMASK, MFSPR)                \
    X(MTSPR, "mtspr", INSN440_X(31, 467), INSN440_XMASK, MTSPR)                \
    X(MFDCR, "mfdcr", INSN440_X(31, 323), INSN440_XMASK, DCR)                  \
    X(MTDCR, "mtdcr", INSN440_X(31, 451), INSN440_XMASK, DCR)                  \
    X(MFDCRX, "mfdcrx", INSN440_X(31, 259), INSN440_XMASK, DCR)                \
    X(MTDCRX, "mtdcrx", INSN440_X(31, 387), INSN440_XMASK, DCR)                \
    X(TLBWE, "tlbwe", INSN440_X(31, 978), INSN440_XMASK, TLBWE)                \
    X(TLBSX, "tlbsx", INSN440_X(31, 914), INSN440_XMASK, TLBSX)                \
    X(TLBRE, "tlbre", INSN440_X(31, 946), INSN440_XMASK, TLBRE)                \
    X(ICCCI, "iccci", INSN440_X(31, 966), INSN440_XMASK, CACHE)                \
    X(DCCCI, "dccci", INSN440_X(31, 454), INSN440_XMASK, CACHE)                \
    X(DCBI, "dcbi", INSN440_X(31, 470), INSN440_XMASK, CACHE)                  \
    X(TLBSYNC, "tlbsync", INSN440_X(31, 566), INSN440_XMASK, CACHE)            \
    X(LWZ, "lwz", INSN440_D(32), INSN440_DMASK, LOADSTORE)                     \
    X(LWZU, "lwzu", INSN440_D(33), INSN440_DMASK, LOADSTORE)                   \
    X(LBZ, "lbz", INSN440_D(34), INSN440_DMASK, LOADSTORE)                     \
    X(LBZU, "lbzu", INSN440_D(35), INSN440_DMASK, LOADSTORE)                   \
    X(STW, "stw", INSN440_D(36), INSN440_DMASK, LOADSTORE)                     \
    X(STWU, "stwu", INSN440_D(37), INSN440_DMASK, LOADSTORE)                   \
    X(STB, "stb", INSN440_D(38), INSN440_DMASK, LOADSTORE)                     \
    X(STBU, "stbu", INSN440_D(39), INSN440_DMASK, LOADSTORE)                   \
    X(LHZ, "lhz", INSN440_D(40), INSN440_DMASK, LOADSTORE)                     \
    X(LHZU, "lhzu", INSN440_D(41), INSN440_DMASK, LOADSTORE)                   \
    X(LHA, "lha", INSN440_D(42), INSN440_DMASK, LOADSTORE)                     \
    X(LHAU, "lhau", INSN440_D(43), INSN440_DMASK, LOADSTORE)                   \
    X(STH, "sth", INSN440_D(44), INSN440_DMASK, LOADSTORE)                     \
    X(STHU, "sthu", INSN440_D(45), INSN440_DMASK, LOADSTORE)                   \
    X(LWZX, "lwzx", INSN440_X(31, 23), INSN440_XMASK, LOADSTORE)               \
    X(LWZUX, "lwzux", INSN440_X(31, 55), INSN440_XMASK, LOADSTORE)             \
    X(LBZX, "lbzx", INSN440_X(31, 87), INSN440_XMASK, LOADSTORE)               \
    X(LBZUX, "lbzux", INSN440_X(31, 119), INSN440_XMASK, LOADSTORE)            \
    X(STWX, "stwx", INSN440_X(31, 151), INSN440_XMASK, LOADSTORE)              \
    X(STWUX, "stwux", INSN440_X(31, 183), INSN440_XMASK, LOADSTORE)            \
    X(STBX, "stbx", INSN440_X(31, 215), INSN440_XMASK, LOADSTORE)              \
    X(STBUX, "stbux", INSN440_X(31, 247), INSN440_XMASK, LOADSTORE)            \
    X(LHZX, "lhzx", INSN440_X(31, 279), INSN440_XMASK, LOADSTORE)              \
    X(LHZUX, "lhzux", INSN440_X(31, 311), INSN440_XMASK, LOADSTORE)            \
    X(LHAX, "lhax", INSN440_X(31, 343), INSN440_XMASK, ILLEGAL)                \
    X(LHAUX, "lhaux", INSN440_X(31, 375), INSN440_XMASK, ILLEGAL)              \
    X(STHX, "sthx", INSN440_X(31, 407), INSN440_XMASK, LOADSTORE)              \
    X(STHUX, "sthux", INSN440_X(31, 439), INSN440_XMASK, LOADSTORE)            \
    X(LWBRX, "lwbrx", INSN440_X(31, 534), INSN440_XMASK, LOADSTORE)            \
    X(STWBRX, "stwbrx", INSN440_X(31, 662), INSN440_XMASK, LOADSTORE)          \
    X(LHBRX, "lhbrx", INSN440_X(31, 790), INSN440_XMASK, LOADSTORE)            \
    X(STHBRX, "sthbrx", INSN440_X(31, 918), INSN440_XMASK, LOADSTORE)          \
    X(LFS, "lfs", INSN440_D(48), INSN440_DMASK, ILLEGAL)                       \
    X(LFSU, "lfsu", INSN440_D(49), INSN440_DMASK, ILLEGAL)                     \
    X(LFD, "lfd", INSN440_D(50), INSN440_DMASK, ILLEGAL)                       \
    X(LFDU, "lfdu", INSN440_D(51), INSN440_DMASK, ILLEGAL)                     \
    X(STFS, "stfs", INSN440_D(52), INSN440_DMASK, ILLEGAL)                     \
    X(STFSU, "stfsu", INSN440_D(53), INSN440_DMASK, ILLEGAL)                   \
    X(STFD, "stfd", INSN440_D(54), INSN440_DMASK, ILLEGAL)                     \
    X(STFDU, "stfdu", INSN440_D(55), INSN440_DMASK, ILLEGAL)                   \
    X(FP59, "fp-single", INSN440_D(59), INSN440_DMASK, ILLEGAL)                \
    X(FP63, "fp-double", INSN440_D(63), INSN440_DMASK, ILLEGAL)                \
    X(ILLEGAL, "illegal", 0x00000000u, 0x00000000u, ILLEGAL)

typedef enum insn_op {
#define X(op, name, match, mask, cls) INSN_OP_##op,
    INSN440_LIST(X)
#undef X
        INSN_OP__COUNT
} insn_op;

typedef struct insn_row {
    uint32_t match, mask;
    insn_class cls; /* what the cost model prices */
    const char *mnemonic;
    insn_op op; /* what cpu440 dispatches on */
} insn_row;

/* The table in op order, ending with the catch-all ILLEGAL row (mask 0);
 * no two rows overlap (tests/test_insn440.c), so order is not priority. */
const insn_row *insn440_table(unsigned *n);
/* The row of inst: indexed by primary (and extended) opcode, O(1). */
const insn_row *insn440_lookup(uint32_t inst);
/* The same by scanning every row in order: the reference the index is
 * tested against. */
const insn_row *insn440_lookup_linear(uint32_t inst);
static inline insn_class insn440_decode(uint32_t inst)
{
    return insn440_lookup(inst)->cls;
}
static inline insn_op insn440_decode_op(uint32_t inst)
{
    return insn440_lookup(inst)->op;
}
const char *insn440_class_name(insn_class c);
const char *insn440_op_name(insn_op op);

/* Memory access an instruction of the MMIO path makes. */
typedef struct insn_mem {
    unsigned size; /* 1, 2, 4, 8 */
    bool store;
    bool update;    /* rA = EA afterwards */
    bool indexed;   /* EA = (rA|0) + rB, else (rA|0) + d */
    bool byterev;   /* lwbrx/lhbrx/stwbrx/sthbrx */
    bool algebraic; /* lha: sign-extend */
} insn_mem;
/* Fills *m for a load/store op (integer or FP); false for any other op. */
bool insn440_mem_info(insn_op op, insn_mem *m);
/* Whether op is a floating-point instruction (FP_UNAVAIL when MSR[FP]=0). */
static inline bool insn440_is_fp(insn_op op)
{
    return op >= INSN_OP_LFS && op <= INSN_OP_FP63;
}

/* SPR groups by emulation path. */
typedef enum spr_group {
    SPRG_GENERIC, /* SRR0/1, SPRG0-3, PVR, PIR, TB (emulate.c) */
    SPRG_BOOKE,   /* DEAR, ESR, DBCR/DBSR, IVPR, IVORs, SPRG4-7 */
    SPRG_TIMER,   /* DEC, DECAR, TCR, TSR: re-arm the guest decrementer */
    SPRG_MMU,     /* PID, MMUCR, CCR0, CCR1 (44x_emulate.c) */
} spr_group;
spr_group insn440_spr_group(unsigned spr);

/* Field accessors (big-endian bit numbering as in the manuals). */
static inline unsigned insn440_rt(uint32_t i)
{
    return (i >> 21) & 31u;
}
static inline unsigned insn440_ra(uint32_t i)
{
    return (i >> 16) & 31u;
}
static inline unsigned insn440_rb(uint32_t i)
{
    return (i >> 11) & 31u;
}
static inline int32_t insn440_d(uint32_t i)
{
    return (int16_t)(i & 0xffffu);
}
static inline unsigned insn440_rc(uint32_t i)
{
    return i & 1u;
}
/* SPR / DCR number of mfspr/mtspr/mfdcr/mtdcr: the two 5-bit halves are
 * swapped in the encoding. */
static inline unsigned insn440_spr(uint32_t inst)
{
    return ((inst >> 16) & 0x1fu) | ((inst >> 6) & 0x3e0u);
}
/* tlbwe/tlbre word select (the rB field). */
static inline unsigned insn440_ws(uint32_t i)
{
    return (i >> 11) & 31u;
}

#endif
