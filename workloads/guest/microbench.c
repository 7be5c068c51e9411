/* microbench: cycles of one trap of each kind, measured in the guest like
 * kvm-unit-tests' powerpc tests: timebase before and after N iterations,
 * N doubled until the delta is large enough; a zero or negative delta is
 * refused with the reason instead of printed as 0 (the ARM attempt in the
 * seed printed 0). Built into the kernel; run when -DMICROBENCH. */
#include <stdint.h>

#include "ppc.h"

void microbench_print(const char *name, uint32_t iters, uint32_t delta,
                      int refused);

#define TBL()                                                                  \
    ({                                                                         \
        uint32_t t_;                                                           \
        __asm__ volatile("mfspr %0,268" : "=r"(t_));                           \
        t_;                                                                    \
    })

static void b_mfmsr(uint32_t n)
{
    while (n--) {
        uint32_t v;
        __asm__ volatile("mfmsr %0" : "=r"(v));
    }
}
static void b_mtmsr(uint32_t n)
{
    uint32_t v = mfmsr_native();
    while (n--)
        __asm__ volatile("mtmsr %0" : : "r"(v));
}
static void b_wrteei(uint32_t n)
{
    while (n--)
        __asm__ volatile("wrteei 0");
}
static void b_mfsprg(uint32_t n)
{
    while (n--) {
        uint32_t v;
        __asm__ volatile("mfspr %0,272" : "=r"(v));
    }
}
static void b_mtsprg(uint32_t n)
{
    while (n--)
        __asm__ volatile("mtspr 272,%0" : : "r"(n));
}
static void b_mfdear(uint32_t n)
{
    while (n--) {
        uint32_t v;
        __asm__ volatile("mfspr %0,61" : "=r"(v));
    }
}
static void b_mtmmucr(uint32_t n)
{
    while (n--)
        __asm__ volatile("mtspr 946,%0" : : "r"(0));
}
static void b_tlbsx(uint32_t n)
{
    while (n--) {
        uint32_t v;
        __asm__ volatile("tlbsx %0,0,%1" : "=r"(v) : "r"(0xc0000000u));
    }
}
static void b_tlbwe(uint32_t n)
{
    while (n--) /* word 2 of the spare entry 60 (invalid) */
        __asm__ volatile("tlbwe %0,%1,2" : : "r"(0), "r"(60));
}
static void b_iccci(uint32_t n)
{
    while (n--)
        __asm__ volatile("iccci 0,0");
}
static void b_mfdcr(uint32_t n)
{
    while (n--) {
        uint32_t v;
        __asm__ volatile("mfdcr %0,0xc2" : "=r"(v));
    }
}
static void b_mmio(uint32_t n)
{
    volatile uint8_t *lsr = (volatile uint8_t *)0xef600005u;
    while (n--)
        (void)*lsr;
}
static void b_hcall(uint32_t n)
{
    while (n--) {
        register uint32_t r0 __asm__("r0") = KVM_SC_MAGIC_R0;
        register uint32_t r11 __asm__("r11") = KVM_HCALL_TOKEN(KVM_HC_FEATURES);
        register uint32_t r3 __asm__("r3");
        register uint32_t r4 __asm__("r4");
        __asm__ volatile("sc"
                         : "=r"(r3), "=r"(r4)
                         : "r"(r0), "r"(r11)
                         : "memory", "cr0");
    }
}

static const struct {
    const char *name;
    void (*fn)(uint32_t);
} k_bench[] = {
    {"mfmsr", b_mfmsr},         {"mtmsr", b_mtmsr},
    {"wrteei", b_wrteei},       {"mfspr-sprg0", b_mfsprg},
    {"mtspr-sprg0", b_mtsprg},  {"mfspr-dear", b_mfdear},
    {"mtspr-mmucr", b_mtmmucr}, {"tlbsx", b_tlbsx},
    {"tlbwe", b_tlbwe},         {"iccci", b_iccci},
    {"mfdcr-uic", b_mfdcr},     {"mmio-load", b_mmio},
    {"hcall", b_hcall},
};

void microbench(void)
{
    for (unsigned i = 0; i < sizeof k_bench / sizeof k_bench[0]; i++) {
        uint32_t n = 1, d = 0;
        int refused = 0;
        for (;;) {
            uint32_t t0 = TBL();
            k_bench[i].fn(n);
            uint32_t t1 = TBL();
            d = t1 - t0;
            if ((int32_t)d <= 0) {
                refused = 1;
                break;
            }
            if (d >= 2000000u || n >= 65536u)
                break;
            n *= 2;
        }
        microbench_print(k_bench[i].name, n, d, refused);
    }
}
