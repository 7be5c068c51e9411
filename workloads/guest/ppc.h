/* ppc: privileged-register access for the guest kernel, as Linux's
 * asm/reg.h / reg_booke.h spell it, in two flavours: native instructions
 * (each one a KVM exit), or with -DPV the magic-page accesses Linux's
 * kvm.c patches them into (docs/kvm440.md §5). */
#ifndef GUEST_PPC_H
#define GUEST_PPC_H

#include <stdint.h>

#include "booke_msr.h"
#include "kvm_para.h"

#define SPRN_DEC   22
#define SPRN_SRR0  26
#define SPRN_SRR1  27
#define SPRN_PID   48
#define SPRN_DEAR  61
#define SPRN_ESR   62
#define SPRN_IVPR  63
#define SPRN_SPRG0 272
#define SPRN_SPRG1 273
#define SPRN_SPRG2 274
#define SPRN_SPRG3 275
#define SPRN_TSR   336
#define SPRN_TCR   340
#define SPRN_IVOR0 400
#define SPRN_MMUCR 946
#define SPRN_CCR0  947

#define TSR_DIS 0x08000000u
#define TCR_DIE 0x04000000u

#define DCR_UIC0_SR  0x0c0
#define DCR_UIC0_ER  0x0c2
#define DCR_UIC0_CR  0x0c3
#define DCR_UIC0_PR  0x0c4
#define DCR_UIC0_TR  0x0c5
#define DCR_UIC0_MSR 0x0c6
#define DCR_UIC0_VCR 0x0c8
#define DCR_POWEROFF 0x0f0
#define UIC_UART     0x80000000u

#define STR_(x) #x
#define STR(x)  STR_(x)

#define mfspr_native(rn)                                                       \
    ({                                                                         \
        uint32_t v_;                                                           \
        __asm__ volatile("mfspr %0," STR(rn) : "=r"(v_));                      \
        v_;                                                                    \
    })
#define mtspr_native(rn, v)                                                    \
    __asm__ volatile("mtspr " STR(rn) ",%0" : : "r"((uint32_t)(v)) : "memory")
#define mfdcr(rn)                                                              \
    ({                                                                         \
        uint32_t v_;                                                           \
        __asm__ volatile("mfdcr %0," STR(rn) : "=r"(v_));                      \
        v_;                                                                    \
    })
#define mtdcr(rn, v)                                                           \
    __asm__ volatile("mtdcr " STR(rn) ",%0" : : "r"((uint32_t)(v)) : "memory")

static inline uint32_t mfmsr_native(void)
{
    uint32_t v;
    __asm__ volatile("mfmsr %0" : "=r"(v));
    return v;
}
static inline void mtmsr_native(uint32_t v)
{
    __asm__ volatile("mtmsr %0" : : "r"(v) : "memory");
}

#ifdef PV
/* The magic page at -4096: 32-bit values in the low word of each u64. */
#define MAGIC(off)   (*(volatile uint32_t *)(KVM_MAGIC_PAGE + KVM_SH_LO(off)))
#define MAGIC32(off) (*(volatile uint32_t *)(KVM_MAGIC_PAGE + (off)))
static inline uint32_t mfmsr(void)
{
    return MAGIC(KVM_SH_MSR);
}
/* kvm_emul.S kvm_emulate_mtmsr: stay in the guest when only EE changes
 * and no interrupt waits for EE = 1; otherwise the real (trapping) mtmsr */
static inline void mtmsr(uint32_t v)
{
    uint32_t old = MAGIC(KVM_SH_MSR);
    if (((old ^ v) & ~MSR_EE) == 0 &&
        !((v & MSR_EE) && MAGIC32(KVM_SH_INT_PENDING)))
        MAGIC(KVM_SH_MSR) = v;
    else
        mtmsr_native(v);
}
static inline void irq_disable(void) /* wrteei 0 template */
{
    MAGIC(KVM_SH_MSR) = MAGIC(KVM_SH_MSR) & ~MSR_EE;
}
static inline void irq_enable(void) /* wrteei 1 template */
{
    MAGIC(KVM_SH_MSR) = MAGIC(KVM_SH_MSR) | MSR_EE;
    if (MAGIC32(KVM_SH_INT_PENDING))
        __asm__ volatile("wrteei 1" : : : "memory");
}
#define mfspr(rn)                                                              \
    ((rn) == SPRN_SRR0    ? MAGIC(KVM_SH_SRR0)                                 \
     : (rn) == SPRN_SRR1  ? MAGIC(KVM_SH_SRR1)                                 \
     : (rn) == SPRN_DEAR  ? MAGIC(KVM_SH_DAR)                                  \
     : (rn) == SPRN_ESR   ? MAGIC32(KVM_SH_ESR)                                \
     : (rn) == SPRN_SPRG0 ? MAGIC(KVM_SH_SPRG0)                                \
     : (rn) == SPRN_SPRG1 ? MAGIC(KVM_SH_SPRG1)                                \
     : (rn) == SPRN_SPRG2 ? MAGIC(KVM_SH_SPRG2)                                \
     : (rn) == SPRN_SPRG3 ? MAGIC(KVM_SH_SPRG3)                                \
                          : mfspr_native(rn))
#define mtspr(rn, v)                                                           \
    do {                                                                       \
        uint32_t x_ = (v);                                                     \
        if ((rn) == SPRN_SRR0)                                                 \
            MAGIC(KVM_SH_SRR0) = x_;                                           \
        else if ((rn) == SPRN_SRR1)                                            \
            MAGIC(KVM_SH_SRR1) = x_;                                           \
        else if ((rn) == SPRN_SPRG2)                                           \
            MAGIC(KVM_SH_SPRG2) = x_;                                          \
        else if ((rn) == SPRN_SPRG3)                                           \
            MAGIC(KVM_SH_SPRG3) = x_;                                          \
        else                                                                   \
            mtspr_native(rn, x_);                                              \
    } while (0)
#define tlbsync()                                                              \
    do {                                                                       \
    } while (0) /* patched to a nop */
#else
static inline uint32_t mfmsr(void)
{
    return mfmsr_native();
}
static inline void mtmsr(uint32_t v)
{
    mtmsr_native(v);
}
static inline void irq_disable(void)
{
    __asm__ volatile("wrteei 0" : : : "memory");
}
static inline void irq_enable(void)
{
    __asm__ volatile("wrteei 1" : : : "memory");
}
#define mfspr(rn)    mfspr_native(rn)
#define mtspr(rn, v) mtspr_native(rn, v)
#define tlbsync()    __asm__ volatile("tlbsync" : : : "memory")
#endif

#endif
