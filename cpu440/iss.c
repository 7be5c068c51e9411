/* iss: Unicorn 2.0.1 harness for the PPC440 guest (405D4 model, PR=1, the
 * 405 software TLB as the 440 UTLB); see iss.h and docs/cpu440.md ("What
 * Unicorn 2.0.1 does") for the measured behaviour it relies on. */
#include "iss.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unicorn/unicorn.h>

/* Every uc_* call goes through UC_CHECK: a failure records "unicorn: <call>:
 * <uc_strerror>" as the harness's error (the first one wins), asks the run
 * to stop (hooks have nobody to return an error to; iss_run returns it) and
 * makes the expression false. UC_TRY is the same in functions returning
 * sim_err. */
#define UC_CHECK(s, call) uc_check((s), (call), #call)
#define UC_TRY(s, call)                                                        \
    do {                                                                       \
        if (!UC_CHECK(s, call))                                                \
            return (s)->err;                                                   \
    } while (0)

#define PAGE          4096u
#define MSR_GUEST     0x4030u /* PR | IR | DR: every guest access translated */
#define ZPR_CHECK_TLB 0x40000000u /* zone 0 = 01: permissions from the TLB */
#define STUB_TABLE    0x400u      /* command table offset in the stub page */
#define STUB_MAX_OPS  ((PAGE - STUB_TABLE) / 16u)

/* 405 TLB word layout (QEMU target/ppc/mmu_helper.c PPC4XX_TLB*): these are
 * Unicorn's internal words, not the 440's (those are model/tlbword.h). */
#define T405_HI_V       0x40u
#define T405_HI_SIZE_4K (1u << 7)
#define T405_LO_EX      0x200u
#define T405_LO_WR      0x100u

struct iss {
    uc_engine *uc;
    iss_hooks h;
    uint8_t *ram, *stub, *magic;
    uint32_t ram_bytes;
    uint32_t stub_pa, halt_pa;
    void *presence;
    size_t presence_bytes;
    uc_hook hk_intr, hk_block;
    /* queued slot writes: nops general ones, then nrw rewrites */
    uint32_t ops[STUB_MAX_OPS][4];
    uint32_t rw[STUB_MAX_OPS][4];
    unsigned nops, nrw;
    unsigned pid; /* Unicorn's PID register: the shadow PID */
    bool pid_dirty;
    bool in_stub;
    uint32_t saved[11]; /* r3..r11, ctr, pc around a stub run */
    uint32_t sprg[4];   /* SPRG4-7 as the guest last wrote them */
    bool sprg_dirty;    /* Unicorn's copies must be set by the stub */
    uint64_t stub_runs, tlbia_runs;
    bool stop;
    sim_err err; /* the first failed uc_* call */
    uint32_t resume_pc;
    /* In a block hook Unicorn's PC register is not the block's address:
     * TCG updates it only where it must, so inside chained blocks (a loop)
     * it still holds an older block's. The block hook keeps the address it
     * was called with, and what restarts the guest after the hook (the
     * stub's return, a stop's resume) uses it unless the hook wrote the PC
     * itself (an interrupt delivered, iss_set_pc). */
    uint32_t hook_pc;
    bool hook_pc_known;
    /* What each slot of Unicorn's 405 TLB holds once the queued writes
     * have run ({hi, lo, tid}), and whether the stub must first flush
     * QEMU's whole TLB: tlbwe-hi flushes the old entry's pages in a loop
     * `page < EPN + size`, which is empty for the page at 0xfffff000 (the
     * end wraps to 0), so a slot that held the magic page is rewritten
     * after a tlbia, with every valid slot written again. */
    uint32_t cur[ISS_TLB_SLOTS][3];
    bool need_tlbia;
};

static bool uc_check(iss *s, uc_err e, const char *call)
{
    if (e == UC_ERR_OK)
        return true;
    if (s->err == SIM_OK)
        s->err =
            sim_fail(SIM_ERR_UNSUPP, "unicorn: %s: %s", call, uc_strerror(e));
    s->stop = true;
    return false;
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* ---- the privileged stub ---- */
static uint32_t enc_mtspr(unsigned spr, unsigned rs)
{
    return 31u << 26 | rs << 21 | ((spr & 31u) << 16) | ((spr >> 5) << 11) |
           467u << 1;
}
static uint32_t enc_lwz(unsigned rd, int d, unsigned ra)
{
    return 32u << 26 | rd << 21 | ra << 16 | ((uint32_t)d & 0xffffu);
}
static uint32_t enc_tlbwe(unsigned rs, unsigned ra, unsigned ws)
{
    return 31u << 26 | rs << 21 | ra << 16 | ws << 11 | 978u << 1;
}
static uint32_t enc_rlwinm(unsigned ra, unsigned rs, unsigned sh,
                           unsigned mb, unsigned me)
{
    return 21u << 26 | rs << 21 | ra << 16 | sh << 11 | mb << 6 | me << 1;
}
static uint32_t enc_b(int off)
{
    return 18u << 26 | ((uint32_t)off & 0x03fffffcu);
}
static uint32_t enc_addi(unsigned rd, unsigned ra, int si)
{
    return 14u << 26 | rd << 21 | ra << 16 | ((uint32_t)si & 0xffffu);
}

/* SPRG4-7, which the guest reads natively in problem state (SPRG4R-7R),
 * are set by every stub run from the 16 bytes before the table. */
#define STUB_SPRG (STUB_TABLE - 16u)

/* r3 = table, r4 = 1 + general entries, r11 = 1 + rewrites (each loop is
 * entered at its bdnz, so a count of 0 runs no entry), r9 = ZPR, r10 = the
 * PID to leave. Per entry {slot, hi, lo, tid}: PID = tid (tlbwe-hi captures
 * the PID as the entry's TID), then hi, lo, hi. QEMU 5's 405 tlbwe-lo clears
 * the valid bit and only a valid entry's old pages are flushed by tlbwe-hi,
 * hence the first hi (flushes the old page, which must fault again) and the
 * last (sets V, flushes the new page). The first hi is written with V clear: a
 * valid hi would flush the new page there too, a second time, and each
 * flush walks every MMU index of QEMU's TLB (the stub's main cost).
 * A rewrite (the same entry again, to flush its page) follows the general
 * entries as lo, hi: lo clears V without a flush, so the page is flushed
 * once, by hi, instead of by both his. */
static void stub_write(uint8_t *p)
{
    static const uint32_t k_bdnz = 16u << 26 | 16u << 21;
    uint32_t code[] = {
        0x7c0002e4u, /* tlbia: entered here only to flush QEMU's TLB */
        enc_lwz(5, -16, 3),
        enc_mtspr(276, 5), /* SPRG4W */
        enc_lwz(5, -12, 3),
        enc_mtspr(277, 5),
        enc_lwz(5, -8, 3),
        enc_mtspr(278, 5),
        enc_lwz(5, -4, 3),
        enc_mtspr(279, 5), /* SPRG7W */
        enc_mtspr(944, 9), /* ZPR */
        enc_mtspr(9, 4),   /* CTR */
        enc_b(11 * 4),     /* to the first bdnz */
        enc_lwz(5, 0, 3),
        enc_lwz(6, 4, 3),
        enc_lwz(7, 8, 3),
        enc_lwz(8, 12, 3),
        enc_mtspr(945, 8),          /* PID = tid */
        enc_rlwinm(8, 6, 0, 26, 24), /* r8 = hi without V (0x40) */
        enc_tlbwe(8, 5, 0),
        enc_tlbwe(7, 5, 1),
        enc_tlbwe(6, 5, 0),
        enc_addi(3, 3, 16),
        k_bdnz | ((uint32_t)(-10 * 4) & 0xfffcu), /* to the first lwz */
        enc_mtspr(9, 11),                         /* CTR */
        enc_b(9 * 4),                             /* to the second bdnz */
        enc_lwz(5, 0, 3),
        enc_lwz(6, 4, 3),
        enc_lwz(7, 8, 3),
        enc_lwz(8, 12, 3),
        enc_mtspr(945, 8), /* PID = tid */
        enc_tlbwe(7, 5, 1),
        enc_tlbwe(6, 5, 0),
        enc_addi(3, 3, 16),
        k_bdnz | ((uint32_t)(-8 * 4) & 0xfffcu), /* to its first lwz */
        enc_mtspr(945, 10),                      /* PID = shadow PID */
        0x44000002u,                             /* sc: back to us */
    };
    for (size_t i = 0; i < sizeof code / sizeof code[0]; i++)
        put_be32(p + 4 * i, code[i]);
}

#define NSAVED 11
static const int k_saved_regs[NSAVED] = {
    UC_PPC_REG_3,  UC_PPC_REG_4,  UC_PPC_REG_5,   UC_PPC_REG_6,
    UC_PPC_REG_7,  UC_PPC_REG_8,  UC_PPC_REG_9,   UC_PPC_REG_10,
    UC_PPC_REG_11, UC_PPC_REG_CTR, UC_PPC_REG_PC};

static void queue(iss *s, unsigned slot, uint32_t hi, uint32_t lo,
                  unsigned tid);

/* Starts the stub for the queued writes, or parks the CPU at the halt
 * address when a stop was asked for. Called at the end of every hook. */
static void after_hook_slow(iss *s)
{
    if ((s->nops || s->nrw || s->pid_dirty || s->sprg_dirty) && !s->in_stub) {
        if (!s->nops && !s->nrw) /* a PID or SPRG change alone: a harmless
                                    write of slot 63 */
            queue(s, ISS_TLB_SLOTS - 1, T405_HI_SIZE_4K, 0, 0);
        bool tlbia = s->need_tlbia;
        if (tlbia) { /* every slot again, after the flush */
            s->nops = s->nrw = 0;
            for (unsigned i = 0; i < ISS_TLB_SLOTS; i++)
                if (s->cur[i][0] & T405_HI_V) {
                    s->ops[s->nops][0] = i;
                    memcpy(&s->ops[s->nops][1], s->cur[i], sizeof s->cur[i]);
                    s->nops++;
                }
            if (!s->nops) /* keep the stub's one-entry minimum */
                queue(s, ISS_TLB_SLOTS - 1, T405_HI_SIZE_4K, 0, 0);
            s->need_tlbia = false;
            s->tlbia_runs++;
        }
        void *vals[NSAVED];
        for (int i = 0; i < NSAVED; i++)
            vals[i] = &s->saved[i];
        (void)UC_CHECK(
            s, uc_reg_read_batch(s->uc, (int *)k_saved_regs, vals, NSAVED));
        if (s->hook_pc_known)
            s->saved[NSAVED - 1] = s->hook_pc;
        for (unsigned i = 0; i < s->nops; i++)
            for (unsigned k = 0; k < 4; k++)
                put_be32(s->stub + STUB_TABLE + 16 * i + 4 * k, s->ops[i][k]);
        for (unsigned i = 0; i < s->nrw; i++)
            for (unsigned k = 0; k < 4; k++)
                put_be32(s->stub + STUB_TABLE + 16 * (s->nops + i) + 4 * k,
                         s->rw[i][k]);
        uint32_t v[9] = {s->stub_pa + STUB_TABLE, s->nops + 1, 0, 0, 0, 0,
                         ZPR_CHECK_TLB,           s->pid,      s->nrw + 1};
        void *pv[9];
        for (int i = 0; i < 9; i++)
            pv[i] = &v[i];
        (void)UC_CHECK(s,
                       uc_reg_write_batch(s->uc, (int *)k_saved_regs, pv, 9));
        for (unsigned i = 0; i < 4; i++)
            put_be32(s->stub + STUB_SPRG + 4 * i, s->sprg[i]);
        s->pid_dirty = false;
        s->sprg_dirty = false;
        uint32_t msr = 0, pc = s->stub_pa + (tlbia ? 0 : 4);
        (void)UC_CHECK(s, uc_reg_write(s->uc, UC_PPC_REG_MSR, &msr));
        (void)UC_CHECK(s, uc_reg_write(s->uc, UC_PPC_REG_PC, &pc));
        s->nops = 0;
        s->nrw = 0;
        s->in_stub = true;
        s->stub_runs++;
        return;
    }
    if (s->stop && !s->in_stub) {
        (void)UC_CHECK(s, uc_reg_read(s->uc, UC_PPC_REG_PC, &s->resume_pc));
        if (s->hook_pc_known)
            s->resume_pc = s->hook_pc;
        /* Writing the PC cancels uc_emu_stop in 2.0.1, so a stop is a jump
         * to the `until` address of uc_emu_start, in real mode where that
         * page exists and holds no code. */
        uint32_t msr = 0, pc = s->halt_pa;
        (void)UC_CHECK(s, uc_reg_write(s->uc, UC_PPC_REG_MSR, &msr));
        (void)UC_CHECK(s, uc_reg_write(s->uc, UC_PPC_REG_PC, &pc));
    }
}

/* The block hook runs for every translation block and almost never has
 * anything to do: the common case is one inlined test, not a call. */
static inline void after_hook(iss *s)
{
    if (s->nops || s->nrw || s->pid_dirty || s->sprg_dirty || s->stop)
        after_hook_slow(s);
}

static void stub_return(iss *s)
{
    void *vals[NSAVED];
    for (int i = 0; i < NSAVED; i++)
        vals[i] = &s->saved[i];
    uint32_t msr = MSR_GUEST;
    (void)UC_CHECK(s, uc_reg_write(s->uc, UC_PPC_REG_MSR, &msr));
    (void)UC_CHECK(
        s, uc_reg_write_batch(s->uc, (int *)k_saved_regs, vals, NSAVED));
    s->in_stub = false;
    after_hook(s); /* writes queued meanwhile, or a stop */
}

/* ---- hooks ---- */
static void hook_intr(uc_engine *uc, uint32_t intno, void *ud)
{
    iss *s = ud;
    uint32_t pc;
    (void)UC_CHECK(s, uc_reg_read(uc, UC_PPC_REG_PC, &pc));
    if (s->in_stub) {
        if (intno == ISS_INT_SYSCALL && pc - ISS_PC_SKEW - s->stub_pa < PAGE) {
            stub_return(s);
            return;
        }
        if (s->err == SIM_OK)
            s->err = sim_fail(SIM_ERR_CHECK,
                              "cpu440: interrupt %u in the TLB stub at "
                              "0x%08x",
                              intno, pc);
        s->in_stub = false; /* let the stop park the CPU */
        s->stop = true;
        after_hook(s);
        return;
    }
    s->h.intr(s->h.ctx, intno, pc);
    after_hook(s);
}

static void hook_block(uc_engine *uc, uint64_t addr, uint32_t size, void *ud)
{
    (void)uc;
    iss *s = ud;
    if (s->in_stub || addr - s->stub_pa < 2 * PAGE)
        return;
    s->hook_pc = (uint32_t)addr;
    s->hook_pc_known = true;
    s->h.block(s->h.ctx, (uint32_t)addr, size / 4);
    after_hook(s);
    s->hook_pc_known = false;
}

static void hook_insn(uc_engine *uc, uint64_t addr, uint32_t size, void *ud)
{
    (void)uc;
    (void)size;
    iss *s = ud;
    if (s->in_stub)
        return;
    s->h.insn(s->h.ctx, (uint32_t)addr);
    after_hook(s);
}

static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *ud)
{
    (void)uc;
    iss *s = ud;
    return s->h.mmio_read ? s->h.mmio_read(s->h.ctx, (uint32_t)off, size) : 0;
}

static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t v,
                       void *ud)
{
    (void)uc;
    iss *s = ud;
    if (s->h.mmio_write)
        s->h.mmio_write(s->h.ctx, (uint32_t)off, size, (uint32_t)v);
}

/* ---- set-up ---- */
static sim_err map_regions(iss *s)
{
    UC_TRY(s, uc_mem_map_ptr(s->uc, 0, s->ram_bytes, UC_PROT_ALL, s->ram));
    UC_TRY(s, uc_mem_map_ptr(s->uc, s->stub_pa, PAGE, UC_PROT_ALL, s->stub));
    UC_TRY(s,
           uc_mmio_map(s->uc, ISS_UART_PA, PAGE, mmio_read, s, mmio_write, s));
    UC_TRY(s, uc_mem_map_ptr(s->uc, ISS_MAGIC_PA, PAGE, UC_PROT_ALL, s->magic));
    /* Presence regions: the rest of the effective-address space, backed by
     * one untouched reservation (both regions alias it; nothing reaches it
     * because every guest access is translated to a physical page first). */
    uint32_t lo1 = s->stub_pa + PAGE, hi1 = ISS_UART_PA;
    uint32_t lo2 = ISS_UART_PA + PAGE, hi2 = ISS_MAGIC_PA;
    s->presence_bytes = (size_t)(hi1 - lo1 > hi2 - lo2 ? hi1 - lo1 : hi2 - lo2);
    s->presence = mmap(NULL, s->presence_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s->presence == MAP_FAILED) {
        s->presence = NULL;
        return sim_fail(SIM_ERR_NOMEM,
                        "cpu440: cannot reserve %zu bytes "
                        "of address space",
                        s->presence_bytes);
    }
    UC_TRY(s, uc_mem_map_ptr(s->uc, lo1, hi1 - lo1, UC_PROT_ALL, s->presence));
    UC_TRY(s, uc_mem_map_ptr(s->uc, lo2, hi2 - lo2, UC_PROT_ALL, s->presence));
    return SIM_OK;
}

sim_err iss_open(iss **out, const iss_config *c, const iss_hooks *h)
{
    *out = NULL;
    if (c->ram_bytes == 0 || c->ram_bytes % PAGE || c->ram_bytes > 0x40000000u)
        return sim_fail(SIM_ERR_RANGE,
                        "cpu440: guest RAM of %u bytes: "
                        "expected a multiple of 4 KiB up to 1 GiB",
                        c->ram_bytes);
    iss *s = calloc(1, sizeof *s);
    if (!s)
        return sim_fail(SIM_ERR_NOMEM, "cpu440: out of memory");
    s->h = *h;
    s->ram_bytes = c->ram_bytes;
    s->stub_pa = c->ram_bytes;
    s->halt_pa = c->ram_bytes + PAGE;
    /* anonymous memory: zero, and only the pages the guest touches cost */
    s->ram = mmap(NULL, c->ram_bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (s->ram == MAP_FAILED)
        s->ram = NULL;
    s->stub = aligned_alloc(PAGE, PAGE);
    s->magic = aligned_alloc(PAGE, PAGE);
    if (!s->ram || !s->stub || !s->magic) {
        iss_close(s);
        return sim_fail(SIM_ERR_NOMEM,
                        "cpu440: out of memory for %u bytes "
                        "of guest RAM",
                        c->ram_bytes);
    }
    memset(s->stub, 0, PAGE);
    memset(s->magic, 0, PAGE);
    stub_write(s->stub);

    sim_err e = SIM_OK;
    /* 405D4: traps every 440 privileged instruction with 6 and has the
     * software TLB we use as the UTLB (docs/cpu440.md, "What Unicorn 2.0.1
     * does"). */
    if (!UC_CHECK(s, uc_open(UC_ARCH_PPC, UC_MODE_PPC32 | UC_MODE_BIG_ENDIAN,
                             &s->uc))) {
        s->uc = NULL;
        e = s->err;
        goto fail;
    }
    if (!UC_CHECK(s, uc_ctl_set_cpu_model(s->uc, UC_CPU_PPC32_405D4)) ||
        map_regions(s) != SIM_OK ||
        !UC_CHECK(s, uc_hook_add(s->uc, &s->hk_intr, UC_HOOK_INTR,
                                 (void *)hook_intr, s, 1, 0)) ||
        !UC_CHECK(s, uc_hook_add(s->uc, &s->hk_block, UC_HOOK_BLOCK,
                                 (void *)hook_block, s, 1, 0))) {
        e = s->err;
        goto fail;
    }
    s->stop = false;
    *out = s;
    return SIM_OK;
fail:
    iss_close(s);
    return e;
}

void iss_close(iss *s)
{
    if (!s)
        return;
    if (s->uc) {
        /* Unicorn frees a page's self-modifying-code bitmap (built after
         * ten writes to a page holding translated code: the PV boot
         * patching the kernel's text) only when it flushes its
         * translations, not in uc_close: flush first (UC_CTL_TB_FLUSH,
         * which unicorn.h calls uc_ctl_flush_tlb) */
        uc_ctl_flush_tlb(s->uc);
        uc_close(s->uc);
    }
    if (s->presence)
        munmap(s->presence, s->presence_bytes);
    if (s->ram)
        munmap(s->ram, s->ram_bytes);
    free(s->stub);
    free(s->magic);
    free(s);
}

uint8_t *iss_ram(iss *s)
{
    return s->ram;
}
uint32_t iss_ram_bytes(const iss *s)
{
    return s->ram_bytes;
}
uint8_t *iss_magic(iss *s)
{
    return s->magic;
}

sim_err iss_run(iss *s, uint32_t pc)
{
    s->stop = false;
    uint32_t msr = MSR_GUEST, begin = pc;
    UC_TRY(s, uc_reg_write(s->uc, UC_PPC_REG_MSR, &msr));
    UC_TRY(s, uc_reg_write(s->uc, UC_PPC_REG_PC, &pc));
    if (s->nops || s->nrw || s->pid_dirty || s->sprg_dirty) {
        /* slot writes queued between runs: the stub goes first */
        after_hook(s);
        UC_TRY(s, uc_reg_read(s->uc, UC_PPC_REG_PC, &begin)); /* its entry */
    }
    UC_TRY(s, uc_emu_start(s->uc, begin, s->halt_pa, 0, 0));
    if (s->err != SIM_OK) /* a uc_* call failed inside a hook */
        return s->err;
    if (s->in_stub)
        return sim_fail(SIM_ERR_CHECK, "cpu440: Unicorn stopped inside the "
                                       "TLB stub");
    return SIM_OK;
}

void iss_stop(iss *s)
{
    s->stop = true;
}
uint32_t iss_resume_pc(const iss *s)
{
    return s->resume_pc;
}
bool iss_stopped(const iss *s)
{
    return s->stop;
}

static uint32_t reg_get(iss *s, int id)
{
    uint32_t v;
    (void)UC_CHECK(s, uc_reg_read(s->uc, id, &v));
    return v;
}
static void reg_set(iss *s, int id, uint32_t v)
{
    (void)UC_CHECK(s, uc_reg_write(s->uc, id, &v));
}

uint32_t iss_gpr(iss *s, unsigned n)
{
    return reg_get(s, UC_PPC_REG_0 + (int)n);
}
void iss_set_gpr(iss *s, unsigned n, uint32_t v)
{
    reg_set(s, UC_PPC_REG_0 + (int)n, v);
}
uint32_t iss_pc(iss *s)
{
    return reg_get(s, UC_PPC_REG_PC);
}
void iss_set_pc(iss *s, uint32_t pc)
{
    s->hook_pc_known = false; /* the register now holds the right PC */
    reg_set(s, UC_PPC_REG_PC, pc);
}
uint32_t iss_cr(iss *s)
{
    return reg_get(s, UC_PPC_REG_CR);
}
void iss_set_cr(iss *s, uint32_t cr)
{
    reg_set(s, UC_PPC_REG_CR, cr);
}
uint32_t iss_xer(iss *s)
{
    return reg_get(s, UC_PPC_REG_XER);
}
void iss_set_xer(iss *s, uint32_t v)
{
    reg_set(s, UC_PPC_REG_XER, v);
}

/* The stub's table is full: only a harness bug (flushing every slot twice
 * over in one hook) gets here; the run stops with the error. */
static bool stub_full(iss *s)
{
    if (s->nops + s->nrw < STUB_MAX_OPS)
        return false;
    if (s->err == SIM_OK)
        s->err = sim_fail(SIM_ERR_CHECK,
                          "cpu440: more than %u TLB writes in one hook",
                          (unsigned)STUB_MAX_OPS);
    s->stop = true;
    return true;
}

/* The 405 TLB words of a valid 4 KiB entry ea -> pa. */
static uint32_t tlb_hi(uint32_t ea)
{
    return (ea & ~(PAGE - 1)) | T405_HI_SIZE_4K | T405_HI_V;
}
static uint32_t tlb_lo(uint32_t pa, bool exec, bool write)
{
    return (pa & ~(PAGE - 1)) | (exec ? T405_LO_EX : 0) |
           (write ? T405_LO_WR : 0);
}

static void queue(iss *s, unsigned slot, uint32_t hi, uint32_t lo, unsigned tid)
{
    /* the rewrites run after the general writes: a rewrite of this slot
     * queued before this write would otherwise undo it (this write
     * flushes the old page anyway) */
    for (unsigned i = 0; i < s->nrw; i++)
        if (s->rw[i][0] == slot)
            s->rw[i][0] = ISS_TLB_SLOTS; /* dropped below */
    unsigned k = 0;
    for (unsigned i = 0; i < s->nrw; i++)
        if (s->rw[i][0] != ISS_TLB_SLOTS)
            memcpy(s->rw[k++], s->rw[i], sizeof s->rw[i]);
    s->nrw = k;
    if (stub_full(s))
        return;
    if ((s->cur[slot][0] & T405_HI_V) &&
        (s->cur[slot][0] & ~(PAGE - 1)) == 0u - PAGE)
        s->need_tlbia = true; /* the wrapping page: see struct iss */
    s->cur[slot][0] = hi;
    s->cur[slot][1] = lo;
    s->cur[slot][2] = tid;
    s->ops[s->nops][0] = slot;
    s->ops[s->nops][1] = hi;
    s->ops[s->nops][2] = lo;
    s->ops[s->nops][3] = tid;
    s->nops++;
}

void iss_tlb_set(iss *s, unsigned slot, uint32_t ea, uint32_t pa, unsigned tid,
                 bool exec, bool write)
{
    queue(s, slot, tlb_hi(ea), tlb_lo(pa, exec, write), tid & 0xffu);
}

void iss_tlb_rewrite(iss *s, unsigned slot, uint32_t ea, uint32_t pa,
                     unsigned tid, bool exec, bool write)
{
    if (stub_full(s))
        return;
    uint32_t *o = s->rw[s->nrw++];
    o[0] = slot;
    o[1] = tlb_hi(ea);
    o[2] = tlb_lo(pa, exec, write);
    o[3] = tid & 0xffu;
}

void iss_tlb_clear(iss *s, unsigned slot)
{
    queue(s, slot, T405_HI_SIZE_4K, 0, 0);
}

void iss_set_pid(iss *s, unsigned pid)
{
    if (pid != s->pid) {
        s->pid = pid;
        s->pid_dirty = true;
    }
}

void iss_set_sprg(iss *s, unsigned n, uint32_t v)
{
    if (n >= 4 && n <= 7 && s->sprg[n - 4] != v) {
        s->sprg[n - 4] = v;
        s->sprg_dirty = true;
    }
}

uint64_t iss_stub_runs(const iss *s)
{
    return s->stub_runs;
}

sim_err iss_hook_insn(iss *s, uint32_t ea)
{
    uc_hook hk;
    UC_TRY(s,
           uc_hook_add(s->uc, &hk, UC_HOOK_CODE, (void *)hook_insn, s, ea, ea));
    return SIM_OK;
}

/* A failing uc_mem_read/uc_mem_write here is the answer (nothing mapped at
 * pa), not an error of the harness, so these two are not UC_CHECKed. */
bool iss_phys_read(iss *s, uint32_t pa, unsigned size, uint32_t *v)
{
    uint8_t b[4] = {0};
    if (size == 0 || size > 4 || uc_mem_read(s->uc, pa, b, size) != UC_ERR_OK)
        return false;
    uint32_t x = 0;
    for (unsigned i = 0; i < size; i++)
        x = x << 8 | b[i];
    *v = x;
    return true;
}

bool iss_phys_write(iss *s, uint32_t pa, unsigned size, uint32_t v)
{
    uint8_t b[4];
    if (size == 0 || size > 4)
        return false;
    for (unsigned i = 0; i < size; i++)
        b[i] = (uint8_t)(v >> (8 * (size - 1 - i)));
    return uc_mem_write(s->uc, pa, b, size) == UC_ERR_OK;
}
