/* decode: the match/mask table of the instructions KVM/440 emulates
 * (reference §4; kernel emulate.c, booke_emulate.c, 44x_emulate.c). */
#include "decode.h"

#include <stddef.h>

static const decode_row k_table[] = {
#define X(op, name, match, mask) {DOP_##op, name, match, mask},
    DECODE_LIST(X)
#undef X
};
_Static_assert(sizeof k_table / sizeof k_table[0] == DOP__COUNT,
               "one row per op");

const decode_row *decode_table(unsigned *n)
{
    *n = DOP__COUNT;
    return k_table;
}

decode_op decode(uint32_t inst)
{
    for (unsigned i = 0; i < DOP__COUNT; i++)
        if ((inst & k_table[i].mask) == k_table[i].match)
            return k_table[i].op;
    return DOP_ILLEGAL; /* unreachable: the last row matches everything */
}

const char *decode_name(decode_op op)
{
    return (unsigned)op < DOP__COUNT ? k_table[op].name : "?";
}

bool decode_mem_info(decode_op op, decode_mem *m)
{
    /* size, store, update, indexed, byterev, algebraic */
    static const struct {
        decode_op op;
        decode_mem m;
    } k_mem[] = {
        {DOP_LWZ, {4, 0, 0, 0, 0, 0}},   {DOP_LWZU, {4, 0, 1, 0, 0, 0}},
        {DOP_LBZ, {1, 0, 0, 0, 0, 0}},   {DOP_LBZU, {1, 0, 1, 0, 0, 0}},
        {DOP_STW, {4, 1, 0, 0, 0, 0}},   {DOP_STWU, {4, 1, 1, 0, 0, 0}},
        {DOP_STB, {1, 1, 0, 0, 0, 0}},   {DOP_STBU, {1, 1, 1, 0, 0, 0}},
        {DOP_LHZ, {2, 0, 0, 0, 0, 0}},   {DOP_LHZU, {2, 0, 1, 0, 0, 0}},
        {DOP_LHA, {2, 0, 0, 0, 0, 1}},   {DOP_LHAU, {2, 0, 1, 0, 0, 1}},
        {DOP_STH, {2, 1, 0, 0, 0, 0}},   {DOP_STHU, {2, 1, 1, 0, 0, 0}},
        {DOP_LWZX, {4, 0, 0, 1, 0, 0}},  {DOP_LWZUX, {4, 0, 1, 1, 0, 0}},
        {DOP_LBZX, {1, 0, 0, 1, 0, 0}},  {DOP_LBZUX, {1, 0, 1, 1, 0, 0}},
        {DOP_STWX, {4, 1, 0, 1, 0, 0}},  {DOP_STWUX, {4, 1, 1, 1, 0, 0}},
        {DOP_STBX, {1, 1, 0, 1, 0, 0}},  {DOP_STBUX, {1, 1, 1, 1, 0, 0}},
        {DOP_LHZX, {2, 0, 0, 1, 0, 0}},  {DOP_LHZUX, {2, 0, 1, 1, 0, 0}},
        {DOP_LHAX, {2, 0, 0, 1, 0, 1}},  {DOP_LHAUX, {2, 0, 1, 1, 0, 1}},
        {DOP_STHX, {2, 1, 0, 1, 0, 0}},  {DOP_STHUX, {2, 1, 1, 1, 0, 0}},
        {DOP_LWBRX, {4, 0, 0, 1, 1, 0}}, {DOP_STWBRX, {4, 1, 0, 1, 1, 0}},
        {DOP_LHBRX, {2, 0, 0, 1, 1, 0}}, {DOP_STHBRX, {2, 1, 0, 1, 1, 0}},
        {DOP_LFS, {4, 0, 0, 0, 0, 0}},   {DOP_LFSU, {4, 0, 1, 0, 0, 0}},
        {DOP_LFD, {8, 0, 0, 0, 0, 0}},   {DOP_LFDU, {8, 0, 1, 0, 0, 0}},
        {DOP_STFS, {4, 1, 0, 0, 0, 0}},  {DOP_STFSU, {4, 1, 1, 0, 0, 0}},
        {DOP_STFD, {8, 1, 0, 0, 0, 0}},  {DOP_STFDU, {8, 1, 1, 0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof k_mem / sizeof k_mem[0]; i++)
        if (k_mem[i].op == op) {
            *m = k_mem[i].m;
            return true;
        }
    return false;
}

bool decode_is_fp(decode_op op)
{
    return op >= DOP_LFS && op <= DOP_FP63;
}
