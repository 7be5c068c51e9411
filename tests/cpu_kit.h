/* cpu_kit: hand-written guest programs for the cpu440 suites. The image is
 * loaded at physical 0, which the guest's reset TLB entry 0 maps at EA 0
 * (16 MB, S and U permissions). Every interrupt goes to a stub at
 * KIT_VEC + 0x100 * n that stores SRR0/SRR1/ESR/DEAR in r20-r23, n in r24
 * and powers off, unless a test writes its own handler there. */
#ifndef CPU_KIT_H
#define CPU_KIT_H

#include <stdlib.h>
#include <string.h>

#include "cpu440_priv.h"
#include "ppc_enc.h"
#include "testlib.h"

#define KIT_VEC    0x8000u
#define KIT_WORDS  0x4000u /* 64 KiB image */
#define E_POWEROFF E_MTDCR(0x0f0, 0)

typedef struct kit {
    cpu440 *cpu;
    uint32_t img[KIT_WORDS];
    unsigned n;    /* next word of the main program */
    uint32_t body; /* EA of the first word after the kit's set-up */
    trace_rec recs[4096];
    unsigned nrec;
    unsigned types[EXIT__COUNT];
    cpu440_end end;
    sim_err err;
    cpu440_boot boot; /* applied when has_boot */
    bool has_boot;
    cpu440_coster coster; /* applied when has_coster */
    bool has_coster;
} kit;

static sim_err kit_put(void *ctx, const trace_rec *r)
{
    kit *k = ctx;
    if (k->nrec < sizeof k->recs / sizeof k->recs[0])
        k->recs[k->nrec++] = *r;
    if (r->kind == TREC_EXIT)
        k->types[r->type]++;
    return SIM_OK;
}

static inline void kit_emit(kit *k, uint32_t w)
{
    k->img[k->n++] = w;
}

/* li32 */
static inline void kit_li(kit *k, unsigned r, uint32_t v)
{
    kit_emit(k, E_LIS(r, v >> 16));
    kit_emit(k, E_ORI(r, r, v & 0xffffu));
}

static inline void kit_handler(kit *k, unsigned irq, const uint32_t *w,
                               unsigned n)
{
    memcpy(&k->img[(KIT_VEC + 0x100 * irq) / 4], w, 4 * n);
}

/* A kit with the default vectors and the IVPR/IVOR set-up emitted. Host
 * interrupt sources are off unless the test turns them on. */
static inline kit *kit_new(void)
{
    kit *k = calloc(1, sizeof *k);
    for (unsigned irq = 0; irq < 16; irq++) {
        uint32_t h[] = {E_MFSPR(20, 26),    E_MFSPR(21, 27),
                        E_MFSPR(22, 62),    E_MFSPR(23, 61),
                        E_LI(24, (int)irq), E_LI(0, 0),
                        E_POWEROFF,         E_B_SELF};
        kit_handler(k, irq, h, sizeof h / 4);
    }
    kit_emit(k, E_LI(3, 0));
    kit_emit(k, E_MTSPR(63, 3)); /* IVPR = 0 */
    for (unsigned irq = 0; irq < 16; irq++) {
        kit_li(k, 3, KIT_VEC + 0x100 * irq);
        kit_emit(k, E_MTSPR(400 + irq, 3));
    }
    kit_emit(k, E_LI(24, -1)); /* no interrupt yet */
    k->body = 4 * k->n;
    return k;
}

/* User code: guest entry 10 maps KIT_USER_EA (4 KB, TID 1 = PID 1, all
 * permissions) to physical KIT_USER_PA, so guest user mode can reach it
 * (the reset entry has TID 0: a global kernel mapping, whose shadow has TID
 * 1 and is invisible in guest user mode). Emits the set-up; the test puts
 * the user code at k->img[KIT_USER_PA / 4]. */
#define KIT_USER_EA 0x10000000u
#define KIT_USER_PA 0x4000u
static inline void kit_user(kit *k)
{
    kit_emit(k, E_LI(3, 1));
    kit_emit(k, E_MTSPR(48, 3));  /* PID 1 */
    kit_emit(k, E_MTSPR(946, 3)); /* MMUCR[STID] 1 */
    kit_emit(k, E_LI(4, 10));
    kit_li(k, 3, KIT_USER_EA | 0x200u | 0x10u);
    kit_emit(k, E_TLBWE(3, 4, 0));
    kit_li(k, 3, KIT_USER_PA);
    kit_emit(k, E_TLBWE(3, 4, 1));
    kit_emit(k, E_LI(3, 0x3f));
    kit_emit(k, E_TLBWE(3, 4, 2));
}

static inline void kit_config(cpu440_config *c)
{
    cpu440_config_default(c);
    c->ram_bytes = 4u << 20;
    c->host_tick_hz = c->extint_hz = c->signal_hz = 0;
}

/* Runs the program (the test has emitted its body and E_POWEROFF). */
static inline void kit_run_cfg(kit *k, const cpu440_config *c,
                               uint64_t max_exits)
{
    CU_ASSERT_FATAL(cpu440_new(&k->cpu, c) == SIM_OK);
    uint8_t *be = malloc(sizeof k->img);
    for (unsigned i = 0; i < KIT_WORDS; i++)
        put_be(be + 4 * i, k->img[i]);
    CU_ASSERT_FATAL(cpu440_load(k->cpu, 0, 0, be, sizeof k->img) == SIM_OK);
    free(be);
    cpu440_sink s = {k, kit_put};
    cpu440_set_sink(k->cpu, &s);
    if (k->has_boot)
        cpu440_set_boot(k->cpu, &k->boot);
    if (k->has_coster)
        cpu440_set_coster(k->cpu, &k->coster);
    cpu440_limits lim = {.max_exits = max_exits};
    k->err = cpu440_run(k->cpu, &lim, &k->end);
    if (k->err != SIM_OK)
        fprintf(stderr, "cpu440_run: %s\n", sim_errmsg());
}

static inline void kit_run(kit *k)
{
    cpu440_config c;
    kit_config(&c);
    kit_run_cfg(k, &c, 100000);
}

static inline uint32_t kit_gpr(kit *k, unsigned n)
{
    return iss_gpr(k->cpu->iss, n);
}

/* The exits of the test's body in order (pc at or after k->body), without
 * the instruction-fetch misses of its code pages. */
static inline unsigned kit_exits(kit *k, exit_type *out, unsigned cap)
{
    unsigned n = 0;
    for (unsigned i = 0; i < k->nrec; i++) {
        const trace_rec *r = &k->recs[i];
        if (r->kind == TREC_EXIT && r->pc >= k->body &&
            r->type != EXIT_ITLBVIRT && n < cap)
            out[n++] = (exit_type)r->type;
    }
    return n;
}

static inline void kit_free(kit *k)
{
    cpu440_free(k->cpu);
    free(k);
}

#endif
