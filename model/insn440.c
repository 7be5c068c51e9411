/* insn440: the one match/mask decode table of the instructions KVM/440
 * emulates (PowerPC Book E encodings; kernel emulate.c, booke_emulate.c,
 * 44x_emulate.c of 2.6.30), shared by cpu440 and the cycle model. Rows must
 * not overlap (tests/test_insn440.c checks it); the ILLEGAL row is last. */
#include "insn440.h"

#include <assert.h>
#include <stddef.h>
#include <threads.h>

static const insn_row rows[] = {
#define X(op, name, match, mask, cls)                                          \
    {match, mask, INSN_##cls, name, INSN_OP_##op},
    INSN440_LIST(X)
#undef X
};
_Static_assert(sizeof rows / sizeof rows[0] == INSN_OP__COUNT,
               "one row per op");
_Static_assert(INSN_OP__COUNT < 0x80, "row indexes stay below XSLOT");

const insn_row *insn440_table(unsigned *n)
{
    *n = INSN_OP__COUNT;
    return rows;
}

/* The index: cpu440 decodes on every emulation exit, so a lookup must not
 * scan the table. by_prim[primary] is a row, NONE, or XSLOT + s for a
 * primary opcode whose rows are X-forms, looked up in by_xo[s][xo]. Only
 * opcodes 19 and 31 have X-form rows. */
enum { NONE = INSN_OP_ILLEGAL, XSLOT = 0x80, NSLOT = 2 };
static uint8_t by_prim[64];
static uint8_t by_xo[NSLOT][1024];
static once_flag index_once = ONCE_FLAG_INIT;

static void index_build(void)
{
    unsigned nslot = 0;
    for (unsigned p = 0; p < 64; p++)
        by_prim[p] = NONE;
    for (unsigned i = 0; i + 1 < INSN_OP__COUNT; i++) {
        unsigned p = rows[i].match >> 26;
        if (rows[i].mask == INSN440_DMASK) {
            assert(by_prim[p] == NONE && "one D-form row per primary opcode");
            by_prim[p] = (uint8_t)i;
            continue;
        }
        /* a row of any other shape would need a new index level */
        assert(rows[i].mask == INSN440_XMASK);
        if (by_prim[p] == NONE) {
            assert(nslot < NSLOT);
            for (unsigned x = 0; x < 1024; x++)
                by_xo[nslot][x] = NONE;
            by_prim[p] = (uint8_t)(XSLOT + nslot++);
        }
        assert(by_prim[p] >= XSLOT && "D-form and X-form rows share opcode");
        uint8_t *slot =
            &by_xo[by_prim[p] - XSLOT][(rows[i].match >> 1) & 0x3ffu];
        assert(*slot == NONE && "one row per extended opcode");
        *slot = (uint8_t)i;
    }
}

const insn_row *insn440_lookup(uint32_t inst)
{
    call_once(&index_once, index_build);
    unsigned e = by_prim[inst >> 26];
    if (e >= XSLOT)
        e = by_xo[e - XSLOT][(inst >> 1) & 0x3ffu];
    const insn_row *r = &rows[e];
    /* the index keys on the opcode fields only; the mask has the last word */
    return (inst & r->mask) == r->match ? r : &rows[INSN_OP_ILLEGAL];
}

const insn_row *insn440_lookup_linear(uint32_t inst)
{
    for (const insn_row *r = rows;; r++)
        if ((inst & r->mask) == r->match)
            return r; /* ends at the ILLEGAL row, which matches everything */
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

const char *insn440_op_name(insn_op op)
{
    return (unsigned)op < INSN_OP__COUNT ? rows[op].mnemonic : "?";
}

bool insn440_mem_info(insn_op op, insn_mem *m)
{
    /* size, store, update, indexed, byterev, algebraic; size 0: not a
     * memory access */
    static const insn_mem k_mem[INSN_OP__COUNT] = {
        [INSN_OP_LWZ] = {4, 0, 0, 0, 0, 0},
        [INSN_OP_LWZU] = {4, 0, 1, 0, 0, 0},
        [INSN_OP_LBZ] = {1, 0, 0, 0, 0, 0},
        [INSN_OP_LBZU] = {1, 0, 1, 0, 0, 0},
        [INSN_OP_STW] = {4, 1, 0, 0, 0, 0},
        [INSN_OP_STWU] = {4, 1, 1, 0, 0, 0},
        [INSN_OP_STB] = {1, 1, 0, 0, 0, 0},
        [INSN_OP_STBU] = {1, 1, 1, 0, 0, 0},
        [INSN_OP_LHZ] = {2, 0, 0, 0, 0, 0},
        [INSN_OP_LHZU] = {2, 0, 1, 0, 0, 0},
        [INSN_OP_LHA] = {2, 0, 0, 0, 0, 1},
        [INSN_OP_LHAU] = {2, 0, 1, 0, 0, 1},
        [INSN_OP_STH] = {2, 1, 0, 0, 0, 0},
        [INSN_OP_STHU] = {2, 1, 1, 0, 0, 0},
        [INSN_OP_LWZX] = {4, 0, 0, 1, 0, 0},
        [INSN_OP_LWZUX] = {4, 0, 1, 1, 0, 0},
        [INSN_OP_LBZX] = {1, 0, 0, 1, 0, 0},
        [INSN_OP_LBZUX] = {1, 0, 1, 1, 0, 0},
        [INSN_OP_STWX] = {4, 1, 0, 1, 0, 0},
        [INSN_OP_STWUX] = {4, 1, 1, 1, 0, 0},
        [INSN_OP_STBX] = {1, 1, 0, 1, 0, 0},
        [INSN_OP_STBUX] = {1, 1, 1, 1, 0, 0},
        [INSN_OP_LHZX] = {2, 0, 0, 1, 0, 0},
        [INSN_OP_LHZUX] = {2, 0, 1, 1, 0, 0},
        [INSN_OP_LHAX] = {2, 0, 0, 1, 0, 1},
        [INSN_OP_LHAUX] = {2, 0, 1, 1, 0, 1},
        [INSN_OP_STHX] = {2, 1, 0, 1, 0, 0},
        [INSN_OP_STHUX] = {2, 1, 1, 1, 0, 0},
        [INSN_OP_LWBRX] = {4, 0, 0, 1, 1, 0},
        [INSN_OP_STWBRX] = {4, 1, 0, 1, 1, 0},
        [INSN_OP_LHBRX] = {2, 0, 0, 1, 1, 0},
        [INSN_OP_STHBRX] = {2, 1, 0, 1, 1, 0},
        [INSN_OP_LFS] = {4, 0, 0, 0, 0, 0},
        [INSN_OP_LFSU] = {4, 0, 1, 0, 0, 0},
        [INSN_OP_LFD] = {8, 0, 0, 0, 0, 0},
        [INSN_OP_LFDU] = {8, 0, 1, 0, 0, 0},
        [INSN_OP_STFS] = {4, 1, 0, 0, 0, 0},
        [INSN_OP_STFSU] = {4, 1, 1, 0, 0, 0},
        [INSN_OP_STFD] = {8, 1, 0, 0, 0, 0},
        [INSN_OP_STFDU] = {8, 1, 1, 0, 0, 0},
    };
    if ((unsigned)op >= INSN_OP__COUNT || !k_mem[op].size)
        return false;
    *m = k_mem[op];
    return true;
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
