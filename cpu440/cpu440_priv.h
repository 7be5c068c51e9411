/* cpu440_priv: state shared by the modules of the core (cpu440.c: exits,
 * time, shadow mirror; booke.c: privileged architecture; dev.c: devices).
 * BookE facts from the PPC440x5 UM and asm/reg_booke.h. */
#ifndef CPU440_PRIV_H
#define CPU440_PRIV_H

#include "booke_msr.h"
#include "cpu440.h"
#include "insn440.h"
#include "iss.h"
#include "kvm_para.h"
#include "hostpages.h"
#include "tlb440.h"

/* ESR */
#define ESR_PIL 0x08000000u
#define ESR_PPR 0x04000000u
#define ESR_PTR 0x02000000u
#define ESR_ST  0x00800000u
/* TSR / TCR */
#define TSR_DIS 0x08000000u
#define TCR_DIE 0x04000000u
#define TCR_ARE 0x00400000u
/* MMUCR */
#define MMUCR_STS  0x00010000u
#define MMUCR_STID 0x000000ffu

/* SPR numbers (asm/reg.h, reg_booke.h) */
enum {
    SPR_XER = 1,
    SPR_LR = 8,
    SPR_CTR = 9,
    SPR_DEC = 22,
    SPR_SRR0 = 26,
    SPR_SRR1 = 27,
    SPR_PID = 48,
    SPR_DECAR = 54,
    SPR_CSRR0 = 58,
    SPR_CSRR1 = 59,
    SPR_DEAR = 61,
    SPR_ESR = 62,
    SPR_IVPR = 63,
    SPR_USPRG0 = 256,
    SPR_SPRG4R = 260,
    SPR_SPRG7R = 263,
    SPR_TBRL = 268,
    SPR_TBRU = 269,
    SPR_SPRG0 = 272,
    SPR_SPRG3 = 275,
    SPR_SPRG4 = 276,
    SPR_SPRG7 = 279,
    SPR_TBWL = 284,
    SPR_TBWU = 285,
    SPR_PIR = 286,
    SPR_PVR = 287,
    SPR_DBSR = 304,
    SPR_DBCR0 = 308,
    SPR_DBCR1 = 309,
    SPR_DBCR2 = 310,
    SPR_TSR = 336,
    SPR_TCR = 340,
    SPR_MCSRR0 = 570,
    SPR_MCSRR1 = 571,
    SPR_MCSR = 572,
    SPR_IVOR0 = 400,
    SPR_IVOR15 = 415,
    SPR_CCR1 = 888,
    SPR_MMUCR = 946,
    SPR_CCR0 = 947,
};

/* DCRs: the UIC0 block (ppc4xx UIC), CPR0's address/data pair (served
 * inside KVM), and a simulator power-off register. */
enum {
    DCR_CPR0_ADDR = 0x00c,
    DCR_CPR0_DATA = 0x00d,
    DCR_UIC0_SR = 0x0c0,
    DCR_UIC0_ER = 0x0c2,
    DCR_UIC0_CR = 0x0c3,
    DCR_UIC0_PR = 0x0c4,
    DCR_UIC0_TR = 0x0c5,
    DCR_UIC0_MSR = 0x0c6,
    DCR_UIC0_VR = 0x0c7,
    DCR_UIC0_VCR = 0x0c8,
    DCR_POWEROFF = 0x0f0,
};
#define UIC_UART_BIT 0x80000000u /* UIC0 input 0 */

/* 16550 UART registers at ISS_UART_PA (as 44x boards wire it), with the
 * behaviour of QEMU's hw/char/serial.c (the oracle's UART): transmission
 * is instantaneous, so THRE (and its interrupt, when IER[ETBEI]) comes
 * back right after each THR write. */
typedef struct uart {
    uint8_t ier, iir, lcr, mcr, lsr, msr, scr, fcr;
    uint16_t divider;
    bool thr_ipending;
    char rx[256];
    unsigned rx_head, rx_len;
    void (*console)(void *ctx, int ch);
    void *console_ctx;
} uart;

/* UIC0 (QEMU hw/intc/ppc-uic.c): level inputs keep SR set while high. */
typedef struct uic {
    uint32_t sr, er, cr, pr, tr, vcr, level;
} uic;

/* What an emulation did (kernel enum emulation_result). */
typedef enum emul {
    EMUL_DONE,      /* advance past the instruction */
    EMUL_JUMPED,    /* the PC was set (rfi, delivered interrupt) */
    EMUL_DCR_HEAVY, /* a DCR access that went to user space */
    EMUL_FAIL,      /* not emulated: a program interrupt is queued */
} emul;

/* The Unicorn slot contents that mirror a UTLB slot. */
typedef struct mirror_slot {
    bool valid;
    uint8_t tid;
    bool x, w;
    uint32_t ea, pa;
} mirror_slot;

struct cpu440 {
    cpu440_config c;
    iss *iss;
    tlb440 *tlb;
    cpu440_sink sink;
    cpu440_coster coster; /* exit == NULL: flat default ticks */
    uint32_t guest_extra; /* guest-side path ticks after the last entry */
    uint8_t *sh; /* the shared (magic) page: MSR, SRR0/1, SPRG0-7, DEAR, ESR */

    /* BookE registers kept here (the rest are in the shared page) */
    uint32_t csrr0, csrr1, ivpr, ivor[16], mmucr, ccr0, ccr1;
    uint32_t tcr, tsr, decar, dbcr0, dbcr1, dbcr2, dbsr, usprg0;
    uint32_t mcsr, mcsrr0, mcsrr1;
    uint64_t dec_expiry; /* guest tb at which DEC reaches 0; 0 = stopped */
    uint64_t hidden;     /* exit ticks the guest's clock does not see */
    uint32_t cpr0_addr;
    bool magic_mapped;
    uint64_t fpr[32];

    /* the current exit */
    uint32_t pc;  /* where the guest resumes */
    uint32_t upc; /* where Unicorn resumes unless told otherwise */
    bool in_exit;
    exit_type type;
    uint32_t extra_ticks; /* idle time of EMUL_WAIT */
    bool poweroff;
    sim_err err; /* first error inside a hook */

    /* time: tb = tb_entry + (icount - icount_entry) * cpi while in guest */
    uint64_t icount, icount_entry, tb_entry;
    uint64_t next_host_tick, next_extint, next_signal, next_input;
    uint64_t next_event;
    uint64_t rng;

    /* buffered records: the last exit and the state events of its handling
     * (its guest ticks are known at the next exit) */
    trace_rec pend[512];
    unsigned npend;

    /* Unicorn mirror of the UTLB: uni[s] is what UTLB slot s shows the
     * guest as last synced (and recorded in the trace), held in Unicorn's
     * slot uslot[s] (-1: not held; owner[] the reverse). With at most 64
     * round-robin slots each has Unicorn's slot of its own number (the
     * 440); with more, Unicorn's 64 hold them as a cache, a free slot or
     * the next of a round robin (uni_next) taken for an entry. */
    mirror_slot uni[TLB440_MAX];
    int16_t uslot[TLB440_MAX];
    int16_t owner[ISS_TLB_SLOTS];
    unsigned uni_next;
    unsigned shadow_pid;
    uint32_t ver_seen[TLB440_MAX]; /* tlb440_slot_versions at the sync */
    bool magic_seen;
    hostpages hp; /* the host's own UTLB fills (model/hostpages) */

    uart uart;
    uic uic;
    char *input;
    size_t input_len, input_pos;

    cpu440_boot boot;
    uint64_t delivered[16][2]; /* booke_deliver, by irq and guest PR */

    const cpu440_limits *lim;
    bool stop_asked;
    cpu440_counters cnt;
    uint64_t mftb_reads;
};

/* ---- booke.c ---- */
uint32_t sh_get(const cpu440 *c, unsigned off);
void sh_set(cpu440 *c, unsigned off, uint32_t v);
static inline uint32_t guest_msr(const cpu440 *c)
{
    return sh_get(c, KVM_SH_MSR);
}
static inline bool guest_pr(const cpu440 *c)
{
    return (guest_msr(c) & MSR_PR) != 0;
}
void booke_reset(cpu440 *c);
/* kvmppc_set_msr: a new guest MSR (WE blocks the vcpu: EMUL_WAIT). */
void booke_set_msr(cpu440 *c, uint32_t msr);
/* Emulates a trapped privileged instruction of the guest kernel at pc;
 * sets c->type to the subtype the kernel would charge. */
emul booke_emulate(cpu440 *c, uint32_t inst, uint32_t pc);
/* Delivers interrupt irq to the guest through IVPR/IVORn: SRR0 = c->pc,
 * SRR1 = MSR, MSR &= CE|ME|DE, PC = IVPR | IVORn. */
void booke_deliver(cpu440 *c, unsigned irq);
/* Delivers a pending DEC or external interrupt if MSR[EE]; updates the
 * shared page's int_pending. */
void booke_deliver_pending(cpu440 *c);
/* Guest decrementer */
uint32_t booke_dec_now(const cpu440 *c);
void booke_dec_check(cpu440 *c, uint64_t tb);

/* ---- dev.c ---- */
uint32_t dev_mmio_read(cpu440 *c, uint32_t off, unsigned size);
void dev_mmio_write(cpu440 *c, uint32_t off, unsigned size, uint32_t v);
uint32_t dev_dcr_read(cpu440 *c, unsigned dcrn);
void dev_dcr_write(cpu440 *c, unsigned dcrn, uint32_t v);
bool dev_ext_pending(const cpu440 *c);
void dev_uart_input(cpu440 *c, const char *s, size_t n);
bool dev_uart_rx_wakes(const cpu440 *c);
void dev_reset(cpu440 *c);

/* ---- cpu440.c ---- */
uint64_t cpu_tb_now(const cpu440 *c);
/* The guest-visible timebase: cpu_tb_now less the hidden exit time. */
static inline uint64_t cpu_gtb_now(const cpu440 *c)
{
    return cpu_tb_now(c) - c->hidden;
}
/* The decrementer's expiry on the trace clock (0: stopped). */
static inline uint64_t cpu_dec_expiry_tb(const cpu440 *c)
{
    return c->dec_expiry ? c->dec_expiry + c->hidden : 0;
}
void cpu_record_state(cpu440 *c, const trace_rec *r);
/* Guest translation (guest TLB, current PID) of ea in address space as. */
bool cpu_translate(const cpu440 *c, uint32_t ea, unsigned as, uint64_t *pa);
/* Reads/writes guest RAM at a physical address (big-endian). */
bool cpu_phys_read(cpu440 *c, uint64_t pa, unsigned size, uint32_t *v);
bool cpu_phys_write(cpu440 *c, uint64_t pa, unsigned size, uint32_t v);
uint64_t cpu_next_wake(const cpu440 *c);

#endif
