/* tlbword: the PPC440 TLB entry layout (three 32-bit words + TID) as static
 * inline accessors, after the kernel's arch/powerpc/kvm/44x_tlb.h and
 * asm/mmu-44x.h and the PPC440x5 UM ch. 5. The one place that knows the bit
 * positions; used by the soft TLB (model/tlb440) and by cpu440.
 *
 *   word0: EPN[0:21] (mask 0xfffffc00) | V 0x200 | TS 0x100 | SIZE (w0>>4)&0xf
 *   word1: RPN[0:21] (mask 0xfffffc00) | ERPN (w1 & 0xf, real address bits
 *          32..35)
 *   word2: U0-U3 0xf000 | W 0x800 | I 0x400 | M 0x200 | G 0x100 | E 0x80 |
 *          UX 0x20 | UW 0x10 | UR 0x08 | SX 0x04 | SW 0x02 | SR 0x01
 *   TID:   8 bits, kept outside the words (MMUCR[STID] at tlbwe); 0 matches
 *          every PID. */
#ifndef TLBWORD_H
#define TLBWORD_H

#include <stdbool.h>
#include <stdint.h>

/* word0 */
#define TLBW0_EPN_MASK   0xfffffc00u
#define TLBW0_V          0x00000200u
#define TLBW0_TS         0x00000100u
#define TLBW0_SIZE_SHIFT 4
#define TLBW0_SIZE_MASK  0x000000f0u
/* SIZE codes the 440 implements (mmu-44x.h PPC44x_TLB_*). */
#define TLBSZ_1K   0u
#define TLBSZ_4K   1u
#define TLBSZ_16K  2u
#define TLBSZ_64K  3u
#define TLBSZ_256K 4u
#define TLBSZ_1M   5u
#define TLBSZ_16M  7u
#define TLBSZ_256M 9u
/* word1 */
#define TLBW1_RPN_MASK  0xfffffc00u
#define TLBW1_ERPN_MASK 0x0000000fu
/* word2 */
#define TLBW2_U_MASK    0x0000f000u
#define TLBW2_W         0x00000800u
#define TLBW2_I         0x00000400u
#define TLBW2_M         0x00000200u
#define TLBW2_G         0x00000100u
#define TLBW2_E         0x00000080u
#define TLBW2_UX        0x00000020u
#define TLBW2_UW        0x00000010u
#define TLBW2_UR        0x00000008u
#define TLBW2_SX        0x00000004u
#define TLBW2_SW        0x00000002u
#define TLBW2_SR        0x00000001u
#define TLBW2_PERM_MASK 0x0000003fu
#define TLBW2_S_PERMS   (TLBW2_SX | TLBW2_SW | TLBW2_SR)
#define TLBW2_U_PERMS   (TLBW2_UX | TLBW2_UW | TLBW2_UR)

static inline uint32_t tlbw_epn(uint32_t w0)
{
    return w0 & TLBW0_EPN_MASK;
}
static inline bool tlbw_v(uint32_t w0)
{
    return (w0 & TLBW0_V) != 0;
}
static inline unsigned tlbw_ts(uint32_t w0)
{
    return (w0 >> 8) & 1u;
}
static inline unsigned tlbw_size(uint32_t w0)
{
    return (w0 & TLBW0_SIZE_MASK) >> TLBW0_SIZE_SHIFT;
}
/* Whether a SIZE code is one the 440 implements (6, 8 and >9 are not). */
static inline bool tlbw_size_valid(unsigned size)
{
    return size <= 5 || size == 7 || size == 9;
}
/* Page bytes: 1024 << 2*SIZE (44x_tlb.h get_tlb_bytes). 64-bit because
 * SIZE 15 would overflow 32 bits; callers check tlbw_size_valid. */
static inline uint64_t tlbw_bytes(uint32_t w0)
{
    return (uint64_t)1024u << (2u * tlbw_size(w0));
}
/* Last effective address of the page (get_tlb_end). As in the kernel, the
 * EPN is used as written: low EPN bits of a large page are not masked. */
static inline uint64_t tlbw_end(uint32_t w0)
{
    return (uint64_t)tlbw_epn(w0) + tlbw_bytes(w0) - 1u;
}
static inline uint32_t tlbw_rpn(uint32_t w1)
{
    return w1 & TLBW1_RPN_MASK;
}
static inline unsigned tlbw_erpn(uint32_t w1)
{
    return w1 & TLBW1_ERPN_MASK;
}
/* 36-bit real address of the page start (get_tlb_raddr). */
static inline uint64_t tlbw_raddr(uint32_t w1)
{
    return ((uint64_t)tlbw_erpn(w1) << 32) | tlbw_rpn(w1);
}
static inline unsigned tlbw_perms(uint32_t w2)
{
    return w2 & TLBW2_PERM_MASK;
}
static inline unsigned tlbw_tid(uint32_t tid)
{
    return tid & 0xffu;
}

/* word0 from its fields. */
static inline uint32_t tlbw_make_w0(uint32_t epn, unsigned size, bool v,
                                    unsigned ts)
{
    return (epn & TLBW0_EPN_MASK) | (v ? TLBW0_V : 0u) | (ts ? TLBW0_TS : 0u) |
           ((size << TLBW0_SIZE_SHIFT) & TLBW0_SIZE_MASK);
}
/* word1 from a 36-bit real address. */
static inline uint32_t tlbw_make_w1(uint64_t raddr)
{
    return ((uint32_t)raddr & TLBW1_RPN_MASK) |
           ((uint32_t)(raddr >> 32) & TLBW1_ERPN_MASK);
}

/* Whether an entry translates ea for address space `as` and PID `pid`, in
 * the order of kvmppc_44x_tlb_index: range, TID (0 = wildcard), V, TS. */
static inline bool tlbw_match(uint32_t tid, uint32_t w0, uint32_t ea,
                              unsigned as, unsigned pid)
{
    if (ea < tlbw_epn(w0) || (uint64_t)ea > tlbw_end(w0))
        return false;
    unsigned t = tlbw_tid(tid);
    if (t && t != (pid & 0xffu))
        return false;
    return tlbw_v(w0) && tlbw_ts(w0) == (as & 1u);
}

#endif
