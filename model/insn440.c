/* insn440: the match/mask decode table of the instructions KVM/440 emulates
 * (PowerPC Book E encodings; kernel emulate.c, booke_emulate.c,
 * 44x_emulate.c). Rows must not overlap (tests/test_cost.c checks it); the
 * catch-all ILLEGAL row is last. */
#include "insn440.h"

#define XO(xo)    (0x7c000000u | ((uint32_t)(xo) << 1)) /* opcode 31, X-form */
#define XMASK     0xfc0007feu
#define DFORM(op) ((uint32_t)(op) << 26)
#define DMASK     0xfc000000u

static const insn_row rows[] = {
    {XO(83), XMASK, INSN_MFMSR, "mfmsr"},
    {XO(146), XMASK, INSN_MTMSR, "mtmsr"},
    {XO(131), XMASK, INSN_WRTEE, "wrtee"},
    {XO(163), XMASK, INSN_WRTEE, "wrteei"},
    {XO(339), XMASK, INSN_MFSPR, "mfspr"},
    {XO(467), XMASK, INSN_MTSPR, "mtspr"},
    {0x4c000064u, 0xffffffffu, INSN_RFI, "rfi"},
    {0x4c000066u, 0xffffffffu, INSN_RFI, "rfci"},
    {XO(978), XMASK, INSN_TLBWE, "tlbwe"},
    {XO(914) & ~1u, 0xfc0007feu, INSN_TLBSX, "tlbsx"},
    {XO(946), XMASK, INSN_TLBRE, "tlbre"},
    {XO(966), XMASK, INSN_CACHE, "iccci"},
    {XO(454), XMASK, INSN_CACHE, "dccci"},
    {XO(470), XMASK, INSN_CACHE, "dcbi"},
    {XO(566), XMASK, INSN_CACHE, "tlbsync"},
    {XO(323), XMASK, INSN_DCR, "mfdcr"},
    {XO(451), XMASK, INSN_DCR, "mtdcr"},
    {XO(259), XMASK, INSN_DCR, "mfdcrx"},
    {XO(387), XMASK, INSN_DCR, "mtdcrx"},
    {XO(4), XMASK, INSN_TRAP, "tw"},
    {DFORM(3), DMASK, INSN_TRAP, "twi"},
    {DFORM(32), DMASK, INSN_LOADSTORE, "lwz"},
    {DFORM(33), DMASK, INSN_LOADSTORE, "lwzu"},
    {DFORM(34), DMASK, INSN_LOADSTORE, "lbz"},
    {DFORM(35), DMASK, INSN_LOADSTORE, "lbzu"},
    {DFORM(36), DMASK, INSN_LOADSTORE, "stw"},
    {DFORM(37), DMASK, INSN_LOADSTORE, "stwu"},
    {DFORM(38), DMASK, INSN_LOADSTORE, "stb"},
    {DFORM(39), DMASK, INSN_LOADSTORE, "stbu"},
    {DFORM(40), DMASK, INSN_LOADSTORE, "lhz"},
    {DFORM(41), DMASK, INSN_LOADSTORE, "lhzu"},
    {DFORM(42), DMASK, INSN_LOADSTORE, "lha"},
    {DFORM(43), DMASK, INSN_LOADSTORE, "lhau"},
    {DFORM(44), DMASK, INSN_LOADSTORE, "sth"},
    {DFORM(45), DMASK, INSN_LOADSTORE, "sthu"},
    {XO(23), XMASK, INSN_LOADSTORE, "lwzx"},
    {XO(55), XMASK, INSN_LOADSTORE, "lwzux"},
    {XO(87), XMASK, INSN_LOADSTORE, "lbzx"},
    {XO(119), XMASK, INSN_LOADSTORE, "lbzux"},
    {XO(151), XMASK, INSN_LOADSTORE, "stwx"},
    {XO(183), XMASK, INSN_LOADSTORE, "stwux"},
    {XO(215), XMASK, INSN_LOADSTORE, "stbx"},
    {XO(247), XMASK, INSN_LOADSTORE, "stbux"},
    {XO(279), XMASK, INSN_LOADSTORE, "lhzx"},
    {XO(311), XMASK, INSN_LOADSTORE, "lhzux"},
    {XO(407), XMASK, INSN_LOADSTORE, "sthx"},
    {XO(439), XMASK, INSN_LOADSTORE, "sthux"},
    {XO(534), XMASK, INSN_LOADSTORE, "lwbrx"},
    {XO(662), XMASK, INSN_LOADSTORE, "stwbrx"},
    {XO(790), XMASK, INSN_LOADSTORE, "lhbrx"},
    {XO(918), XMASK, INSN_LOADSTORE, "sthbrx"},
    {0, 0, INSN_ILLEGAL, "(illegal)"},
};

const insn_row *insn440_table(unsigned *n)
{
    *n = sizeof rows / sizeof rows[0];
    return rows;
}

insn_class insn440_decode(uint32_t inst)
{
    for (const insn_row *r = rows;; r++)
        if ((inst & r->mask) == r->match)
            return r->cls;
}

const char *insn440_class_name(insn_class c)
{
    static const char *const names[] = {
#define X(c, s) s,
        INSN_CLASS_LIST(X)
#undef X
    };
    return (unsigned)c < INSN__COUNT ? names[c] : "?";
}

spr_group insn440_spr_group(unsigned spr)
{
    switch (spr) {
    case 26:
    case 27: /* SRR0/1 */
    case 268:
    case 269: /* TBL/TBU (read) */
    case 272:
    case 273:
    case 274:
    case 275: /* SPRG0-3 */
    case 284:
    case 285: /* TBWL/TBWU */
    case 286:
    case 287: /* PIR, PVR */ return SPRG_GENERIC;
    case 22:
    case 54:
    case 336:
    case 340: /* DEC, DECAR, TSR, TCR */ return SPRG_TIMER;
    case 48:
    case 946:
    case 947:
    case 888: /* PID, MMUCR, CCR0, CCR1 */ return SPRG_MMU;
    default: return SPRG_BOOKE;
    }
}
