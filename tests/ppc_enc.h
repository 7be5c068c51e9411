/* ppc_enc: a few PowerPC instruction encoders for hand-written test guests
 * (Power ISA / PPC440x5 UM encodings). */
#ifndef PPC_ENC_H
#define PPC_ENC_H

#include <stdint.h>

/* Macros, so encodings can initialise static tables. */
#define e_d(op, rt, ra, d)                                                     \
    ((uint32_t)(op) << 26 | (uint32_t)(rt) << 21 | (uint32_t)(ra) << 16 |      \
     ((uint32_t)(d)&0xffffu))
#define e_x(rt, ra, rb, xo)                                                    \
    (31u << 26 | (uint32_t)(rt) << 21 | (uint32_t)(ra) << 16 |                 \
     (uint32_t)(rb) << 11 | (uint32_t)(xo) << 1)
#define E_ADDI(rt, ra, si)      e_d(14, rt, ra, si)
#define E_LI(rt, si)            e_d(14, rt, 0, si)
#define E_LIS(rt, si)           e_d(15, rt, 0, si)
#define E_ORI(ra, rs, ui)       e_d(24, rs, ra, ui)
#define E_LWZ(rt, d, ra)        e_d(32, rt, ra, d)
#define E_STW(rs, d, ra)        e_d(36, rs, ra, d)
#define E_LBZ(rt, d, ra)        e_d(34, rt, ra, d)
#define E_STB(rs, d, ra)        e_d(38, rs, ra, d)
#define E_MFMSR(rt)             e_x(rt, 0, 0, 83)
#define E_MTMSR(rs)             e_x(rs, 0, 0, 146)
#define E_WRTEEI(e)             (0x7c000146u | ((e) ? 0x8000u : 0u))
#define E_RFI                   0x4c000064u
#define E_SC                    0x44000002u
#define E_B_SELF                0x48000000u
#define E_NOP                   0x60000000u
#define E_TLBWE(rs, ra, ws)     e_x(rs, ra, ws, 978)
#define E_TLBSX(rt, ra, rb)     e_x(rt, ra, rb, 914)
#define E_TLBSX_DOT(rt, ra, rb) (e_x(rt, ra, rb, 914) | 1u)
#define E_TLBRE(rt, ra, ws)     e_x(rt, ra, ws, 946)
#define e_spr(rt, spr, xo)                                                     \
    (31u << 26 | (uint32_t)(rt) << 21 | ((uint32_t)(spr)&31u) << 16 |          \
     ((uint32_t)(spr) >> 5) << 11 | (uint32_t)(xo) << 1)
#define E_MFSPR(rt, spr)  e_spr(rt, spr, 339)
#define E_MTSPR(spr, rs)  e_spr(rs, spr, 467)
#define E_MFDCR(rt, dcr)  e_spr(rt, dcr, 323)
#define E_MTDCR(dcr, rs)  e_spr(rs, dcr, 451)
#define E_MFTB(rt)        e_spr(rt, 268, 339)
#define E_ICCCI           e_x(0, 0, 0, 966)
#define E_TLBSYNC         e_x(0, 0, 0, 566)
#define E_DCBI(ra, rb)    e_x(0, ra, rb, 470)
#define E_LFD(ft, d, ra)  e_d(50, ft, ra, d)
#define E_STFD(fs, d, ra) e_d(54, fs, ra, d)

static inline void put_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
static inline uint32_t get_be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

#endif
