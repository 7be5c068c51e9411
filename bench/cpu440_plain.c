/* cpu440_plain: the reference rates for bench_cpu440.sh, on this machine,
 * in the same run:
 *   plain   the guest's user code (workloads/guest/user.c compute(), the
 *           background job's work without syscalls) on plain Unicorn 2.0.1,
 *           405D4, real mode, no hooks: the hook-free instruction rate;
 *   stub    a shadow-TLB miss the way cpu440 does it (iss: the 405 software
 *           TLB slot written by a real-mode stub), every access a miss;
 *   remap   the same misses done by uc_mem_map_ptr + uc_mem_unmap of 4 KiB
 *           regions in UC_HOOK_MEM_UNMAPPED (64 resident), the mechanism
 *           the feasibility study measured at ~28 us.
 * usage: cpu440_plain USER_BIN */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicorn/unicorn.h>

#include "iss.h"
#include "ppc_enc.h"

#define CK(x)                                                                  \
    do {                                                                       \
        uc_err e_ = (x);                                                       \
        if (e_) {                                                              \
            fprintf(stderr, "%s: %s\n", #x, uc_strerror(e_));                  \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- plain: user code, no hooks ---- */
static uint64_t g_insns;
static void count(uc_engine *uc, uint64_t a, uint32_t size, void *u)
{
    (void)uc;
    (void)a;
    (void)u;
    g_insns += size / 4;
}

static double plain(const char *path, uint64_t *insns)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    static uint8_t img[1 << 20];
    size_t n = fread(img, 1, sizeof img, f);
    fclose(f);
    uint32_t umain = get_be(img + 16);
    double best = 1e9;
    for (int pass = 0; pass < 4; pass++) {
        uc_engine *uc;
        CK(uc_open(UC_ARCH_PPC, UC_MODE_PPC32 | UC_MODE_BIG_ENDIAN, &uc));
        CK(uc_ctl_set_cpu_model(uc, UC_CPU_PPC32_405D4));
        CK(uc_mem_map(uc, 0x10000000, 4 << 20, UC_PROT_ALL));
        CK(uc_mem_write(uc, 0x10000000, img, n));
        uint32_t r1 = 0x10400000 - 64, r3 = 6 /* PROG_COMPUTE */,
                 r4 = 0x10200000, lr = 0x10380000;
        CK(uc_reg_write(uc, UC_PPC_REG_1, &r1));
        CK(uc_reg_write(uc, UC_PPC_REG_3, &r3));
        CK(uc_reg_write(uc, UC_PPC_REG_4, &r4));
        CK(uc_reg_write(uc, UC_PPC_REG_LR, &lr));
        uc_hook h;
        if (pass == 0) /* the instruction count, exact with BLOCK hooks */
            CK(uc_hook_add(uc, &h, UC_HOOK_BLOCK, (void *)count, NULL, 1, 0));
        double t0 = now();
        CK(uc_emu_start(uc, umain, lr, 0, 0));
        double t = now() - t0;
        if (pass > 0 && t < best)
            best = t;
        uc_close(uc);
    }
    *insns = g_insns;
    return best;
}

/* ---- the miss loop: lwzx/stwx over 128 pages, 63 resident ---- */
#define PAGES   128u
#define ROUNDS  400u
#define CODE_EA 0x10000000u
#define DATA_EA 0x20000000u
static void loop_code(uint8_t *p)
{
    uint32_t w[] = {
        E_LIS(9, DATA_EA >> 16),
        E_LI(10, 0),
        E_LI(11, 0),
        0x556c6026u,        /* 3: slwi r12,r11,12 */
        e_x(13, 9, 12, 23), /* lwzx r13,r9,r12 */
        E_ADDI(13, 13, 1),
        e_x(13, 9, 12, 151), /* stwx r13,r9,r12 */
        E_ADDI(11, 11, 1),
        0x2c0b0000u | PAGES, /* cmpwi r11,PAGES */
        0x4180ffe8u,         /* blt 3 */
        E_LI(11, 0),
        E_ADDI(10, 10, 1),
        0x2c0a0000u | ROUNDS, /* cmpwi r10,ROUNDS */
        0x4180ffd8u,          /* blt 3 */
        E_MFMSR(3),           /* trap: done */
        E_B_SELF,
    };
    for (size_t i = 0; i < sizeof w / 4; i++)
        put_be(p + 4 * i, w[i]);
}

/* stub: cpu440's mechanism through iss */
static iss *g_s;
static unsigned g_rr;
static uint64_t g_misses;
static void s_intr(void *ctx, unsigned intno, uint32_t pc)
{
    (void)ctx;
    if (intno == ISS_INT_ITLB) {
        iss_tlb_set(g_s, 63, CODE_EA, 0x1000, 0, true, false);
    } else if (intno == ISS_INT_DTLB) {
        uint32_t ea = iss_gpr(g_s, 9) + iss_gpr(g_s, 12);
        iss_tlb_set(g_s, g_rr, ea, 0x100000 + (ea - DATA_EA), 0, false, true);
        g_rr = (g_rr + 1) % 63;
        g_misses++;
    } else {
        iss_stop(g_s);
        return;
    }
    iss_set_pc(g_s, pc - ISS_PC_SKEW);
}
static void s_block(void *c, uint32_t pc, uint32_t n)
{
    (void)c;
    (void)pc;
    (void)n;
}

static double stub_cost(void)
{
    iss_hooks h = {.intr = s_intr, .block = s_block};
    iss_config c = {.ram_bytes = 4u << 20};
    if (iss_open(&g_s, &c, &h) != SIM_OK)
        exit(1);
    loop_code(iss_ram(g_s) + 0x1000);
    double t0 = now();
    if (iss_run(g_s, CODE_EA) != SIM_OK)
        exit(1);
    double t = now() - t0;
    iss_close(g_s);
    return t / (double)g_misses;
}

/* remap: 4 KiB regions mapped/unmapped in the unmapped hook */
static uint8_t *g_ram;
static uint32_t g_res[64];
static unsigned g_nres, g_victim;
static uint64_t g_rmisses;
static bool r_unmapped(uc_engine *uc, uc_mem_type t, uint64_t a, int size,
                       int64_t v, void *u)
{
    (void)t;
    (void)size;
    (void)v;
    (void)u;
    uint32_t page = (uint32_t)a & ~0xfffu;
    if (page < DATA_EA)
        return false;
    if (g_nres == 64) {
        CK(uc_mem_unmap(uc, g_res[g_victim], 4096));
        g_res[g_victim] = page;
        g_victim = (g_victim + 1) % 64;
    } else {
        g_res[g_nres++] = page;
    }
    CK(uc_mem_map_ptr(uc, page, 4096, UC_PROT_ALL,
                      g_ram + 0x100000 + (page - DATA_EA)));
    g_rmisses++;
    return true;
}
static void r_intr(uc_engine *uc, uint32_t intno, void *u)
{
    (void)intno;
    (void)u;
    uc_emu_stop(uc);
}

static double remap_cost(void)
{
    uc_engine *uc;
    CK(uc_open(UC_ARCH_PPC, UC_MODE_PPC32 | UC_MODE_BIG_ENDIAN, &uc));
    CK(uc_ctl_set_cpu_model(uc, UC_CPU_PPC32_405D4));
    g_ram = aligned_alloc(4096, 4 << 20);
    memset(g_ram, 0, 4 << 20);
    loop_code(g_ram + 0x1000);
    CK(uc_mem_map_ptr(uc, CODE_EA, 4096, UC_PROT_ALL, g_ram + 0x1000));
    uint32_t msr = 0x4000; /* PR: mfmsr traps at the end */
    CK(uc_reg_write(uc, UC_PPC_REG_MSR, &msr));
    uc_hook h1, h2;
    CK(uc_hook_add(uc, &h1, UC_HOOK_MEM_UNMAPPED, (void *)r_unmapped, NULL, 1,
                   0));
    CK(uc_hook_add(uc, &h2, UC_HOOK_INTR, (void *)r_intr, NULL, 1, 0));
    double t0 = now();
    CK(uc_emu_start(uc, CODE_EA, 0xffffffff, 0, 0));
    double t = now() - t0;
    uc_close(uc);
    free(g_ram);
    return t / (double)g_rmisses;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cpu440_plain USER_BIN\n");
        return 2;
    }
    uint64_t insns;
    double t = plain(argv[1], &insns);
    printf("plain %llu %.6f\n", (unsigned long long)insns, t);
    printf("stub_us %.3f\n", stub_cost() * 1e6);
    printf("remap_us %.3f\n", remap_cost() * 1e6);
    return 0;
}
