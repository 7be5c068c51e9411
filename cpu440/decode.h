/* decode: the instructions the 440 core traps on and KVM emulates (kernel
 * emulate.c, booke_emulate.c, 44x_emulate.c of 2.6.30; reference §4), the
 * loads/stores of the MMIO path, and the FP instructions the 405 model lacks,
 * decoded by ONE match/mask table whose last row is the illegal catch-all. */
#ifndef DECODE_H
#define DECODE_H

#include <stdbool.h>
#include <stdint.h>

/*    op       mnemonic   match        mask */
#define DECODE_LIST(X)                                                         \
    X(TWI, "twi", 0x0c000000u, 0xfc000000u)                                    \
    X(TW, "tw", 0x7c000008u, 0xfc0007feu)                                      \
    X(MFMSR, "mfmsr", 0x7c0000a6u, 0xfc0007feu)                                \
    X(MTMSR, "mtmsr", 0x7c000124u, 0xfc0007feu)                                \
    X(WRTEE, "wrtee", 0x7c000106u, 0xfc0007feu)                                \
    X(WRTEEI, "wrteei", 0x7c000146u, 0xfc0007feu)                              \
    X(RFI, "rfi", 0x4c000064u, 0xfc0007feu)                                    \
    X(RFCI, "rfci", 0x4c000066u, 0xfc0007feu)                                  \
    X(MFSPR, "mfspr", 0x7c0002a6u, 0xfc0007feu)                                \
    X(MTSPR, "mtspr", 0x7c0003a6u, 0xfc0007feu)                                \
    X(MFDCR, "mfdcr", 0x7c000286u, 0xfc0007feu)                                \
    X(MTDCR, "mtdcr", 0x7c000386u, 0xfc0007feu)                                \
    X(TLBWE, "tlbwe", 0x7c0007a4u, 0xfc0007feu)                                \
    X(TLBSX, "tlbsx", 0x7c000724u, 0xfc0007feu)                                \
    X(TLBRE, "tlbre", 0x7c000764u, 0xfc0007feu)                                \
    X(ICCCI, "iccci", 0x7c00078cu, 0xfc0007feu)                                \
    X(DCCCI, "dccci", 0x7c00038cu, 0xfc0007feu)                                \
    X(DCBI, "dcbi", 0x7c0003acu, 0xfc0007feu)                                  \
    X(TLBSYNC, "tlbsync", 0x7c00046cu, 0xfc0007feu)                            \
    X(LWZ, "lwz", 0x80000000u, 0xfc000000u)                                    \
    X(LWZU, "lwzu", 0x84000000u, 0xfc000000u)                                  \
    X(LBZ, "lbz", 0x88000000u, 0xfc000000u)                                    \
    X(LBZU, "lbzu", 0x8c000000u, 0xfc000000u)                                  \
    X(STW, "stw", 0x90000000u, 0xfc000000u)                                    \
    X(STWU, "stwu", 0x94000000u, 0xfc000000u)                                  \
    X(STB, "stb", 0x98000000u, 0xfc000000u)                                    \
    X(STBU, "stbu", 0x9c000000u, 0xfc000000u)                                  \
    X(LHZ, "lhz", 0xa0000000u, 0xfc000000u)                                    \
    X(LHZU, "lhzu", 0xa4000000u, 0xfc000000u)                                  \
    X(LHA, "lha", 0xa8000000u, 0xfc000000u)                                    \
    X(LHAU, "lhau", 0xac000000u, 0xfc000000u)                                  \
    X(STH, "sth", 0xb0000000u, 0xfc000000u)                                    \
    X(STHU, "sthu", 0xb4000000u, 0xfc000000u)                                  \
    X(LWZX, "lwzx", 0x7c00002eu, 0xfc0007feu)                                  \
    X(LWZUX, "lwzux", 0x7c00006eu, 0xfc0007feu)                                \
    X(LBZX, "lbzx", 0x7c0000aeu, 0xfc0007feu)                                  \
    X(LBZUX, "lbzux", 0x7c0000eeu, 0xfc0007feu)                                \
    X(STWX, "stwx", 0x7c00012eu, 0xfc0007feu)                                  \
    X(STWUX, "stwux", 0x7c00016eu, 0xfc0007feu)                                \
    X(STBX, "stbx", 0x7c0001aeu, 0xfc0007feu)                                  \
    X(STBUX, "stbux", 0x7c0001eeu, 0xfc0007feu)                                \
    X(LHZX, "lhzx", 0x7c00022eu, 0xfc0007feu)                                  \
    X(LHZUX, "lhzux", 0x7c00026eu, 0xfc0007feu)                                \
    X(LHAX, "lhax", 0x7c0002aeu, 0xfc0007feu)                                  \
    X(LHAUX, "lhaux", 0x7c0002eeu, 0xfc0007feu)                                \
    X(STHX, "sthx", 0x7c00032eu, 0xfc0007feu)                                  \
    X(STHUX, "sthux", 0x7c00036eu, 0xfc0007feu)                                \
    X(LWBRX, "lwbrx", 0x7c00042cu, 0xfc0007feu)                                \
    X(STWBRX, "stwbrx", 0x7c00052cu, 0xfc0007feu)                              \
    X(LHBRX, "lhbrx", 0x7c00062cu, 0xfc0007feu)                                \
    X(STHBRX, "sthbrx", 0x7c00072cu, 0xfc0007feu)                              \
    X(LFS, "lfs", 0xc0000000u, 0xfc000000u)                                    \
    X(LFSU, "lfsu", 0xc4000000u, 0xfc000000u)                                  \
    X(LFD, "lfd", 0xc8000000u, 0xfc000000u)                                    \
    X(LFDU, "lfdu", 0xcc000000u, 0xfc000000u)                                  \
    X(STFS, "stfs", 0xd0000000u, 0xfc000000u)                                  \
    X(STFSU, "stfsu", 0xd4000000u, 0xfc000000u)                                \
    X(STFD, "stfd", 0xd8000000u, 0xfc000000u)                                  \
    X(STFDU, "stfdu", 0xdc000000u, 0xfc000000u)                                \
    X(FP59, "fp-single", 0xec000000u, 0xfc000000u)                             \
    X(FP63, "fp-double", 0xfc000000u, 0xfc000000u)                             \
    X(ILLEGAL, "illegal", 0x00000000u, 0x00000000u)

typedef enum decode_op {
#define X(op, name, match, mask) DOP_##op,
    DECODE_LIST(X)
#undef X
        DOP__COUNT
} decode_op;

typedef struct decode_row {
    decode_op op;
    const char *name;
    uint32_t match, mask;
} decode_row;

/* The table in priority order (first match wins; ILLEGAL last). */
const decode_row *decode_table(unsigned *n);
decode_op decode(uint32_t inst);
const char *decode_name(decode_op op);

/* Memory access an instruction of the MMIO path makes. */
typedef struct decode_mem {
    unsigned size; /* 1, 2, 4, 8 */
    bool store;
    bool update;    /* rA = EA afterwards */
    bool indexed;   /* EA = (rA|0) + rB, else (rA|0) + d */
    bool byterev;   /* lwbrx/lhbrx/stwbrx/sthbrx */
    bool algebraic; /* lha: sign-extend */
} decode_mem;
/* Fills *m for a load/store op (integer or FP); false for any other op. */
bool decode_mem_info(decode_op op, decode_mem *m);
/* Whether op is a floating-point instruction (FP_UNAVAIL when MSR[FP]=0). */
bool decode_is_fp(decode_op op);

/* Field accessors (big-endian bit numbering as in the manuals). */
static inline unsigned dec_rt(uint32_t i)
{
    return (i >> 21) & 31u;
}
static inline unsigned dec_ra(uint32_t i)
{
    return (i >> 16) & 31u;
}
static inline unsigned dec_rb(uint32_t i)
{
    return (i >> 11) & 31u;
}
static inline int32_t dec_d(uint32_t i)
{
    return (int16_t)(i & 0xffffu);
}
static inline unsigned dec_rc(uint32_t i)
{
    return i & 1u;
}
/* SPR / DCR number: the two 5-bit halves are swapped in the encoding. */
static inline unsigned dec_spr(uint32_t i)
{
    return ((i >> 16) & 31u) | (((i >> 11) & 31u) << 5);
}
/* tlbwe/tlbre word select (the rB field). */
static inline unsigned dec_ws(uint32_t i)
{
    return (i >> 11) & 31u;
}

#endif
