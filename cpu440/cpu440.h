/* cpu440: a PPC440 guest core under KVM trap-and-emulate (2.6.29-2.6.37
 * semantics, docs/kvm440.md §1, §3, §4, §5, §7). Unicorn runs
 * the guest's unprivileged instructions in problem state (cpu440/iss); this
 * module is what KVM virtualizes: the BookE privileged architecture, the
 * guest TLB and its shadow in the UTLB (model/tlb440; the 440's 64 slots,
 * or the parameters' utlb_entries of a what-if core), the devices,
 * the host's time-driven interrupts, and the classification of every exit as
 * the kernel's exit timing would charge it. Exits go to a sink as trace
 * records (model/trace.h) carrying flat default ticks per path until the
 * cycle model replaces them (CPU440_COST_LABEL). */
#ifndef CPU440_H
#define CPU440_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exits.h"
#include "sim_err.h"
#include "trace.h"

/* What the trace header's cost_label says about the ticks cpu440 writes. */
#define CPU440_COST_LABEL "flat-default/path (cpu440)"

typedef struct cpu440 cpu440;

typedef struct cpu440_config {
    uint32_t ram_bytes; /* guest RAM at physical 0 (default 32 MiB) */
    uint64_t tb_hz;     /* timebase = core clock (default 667 MHz) */
    /* Host interrupt arrivals per simulated second. One arriving while the
     * guest runs is an exit; one arriving during an exit is serviced
     * inside it (no exit), except a signal, which turns a light exit in
     * progress into SIGNAL. Defaults: the parameters host_tick_hz,
     * host_irq_hz and signal_hz (model/params.h, docs/parameters.md). */
    double host_tick_hz; /* host decrementer interrupts (DEC exits) */
    double extint_hz;    /* host device interrupts (EXTINT) */
    double signal_hz;    /* signals to the vcpu thread (SIGNAL) */
    /* The host's own UTLB fills (model/hostpages: the cycle model's rule,
     * docs/cost-model.md "UTLB"): unpinned kvm.ko pages every exit touches
     * as its handler starts, more on the emulation, TLB-map and MMIO
     * paths, QEMU's and the host's during a heavy exit's round trip, a
     * host interrupt handler's for each host interrupt serviced (a DEC or
     * EXTINT exit's own, and each arriving during an exit). Each miss
     * takes a UTLB slot from the shared round-robin index. Defaults: the
     * parameters common_host_pages, path_host_pages, qemu_host_pages and
     * hostirq_host_pages (model/params.h, docs/parameters.md). */
    unsigned common_host_pages, path_host_pages;
    unsigned qemu_host_pages, hostirq_host_pages;
    /* The UTLB's geometry (model/tlb440): utlb_entries slots, the top
     * utlb_pinned of them the host's pinned lowmem, the round robin over
     * the rest (tlb_44x_hwater = utlb_entries - 1 - utlb_pinned).
     * Defaults: the parameters utlb_entries and utlb_pinned (the 440: 64
     * and 1); more than 64 is a hypothetical core (the what-if
     * tlb-slots=N). Unicorn's own TLB has 64 slots (ISS_TLB_SLOTS): with
     * more UTLB slots it holds the guest-visible entries as a cache, and
     * a fault on an entry the UTLB holds is refilled without an exit. */
    unsigned utlb_entries, utlb_pinned;
    double think_s;     /* delay before each scripted console line (0.02 s) */
    /* timebase ticks per guest instruction: guest_cpi / guest_cpi_den
     * (1 / 1) */
    unsigned guest_cpi, guest_cpi_den;
    /* The guest's clock (timebase, decrementer) does not see the time the
     * exits take: it advances only with guest instructions and idle waits,
     * as QEMU's -icount clock does (the oracle's time rule). The trace
     * keeps the exits' ticks. Default false: a real 440's timebase runs
     * on through every exit. */
    bool exit_time_hidden;
    /* What-if: shadow entries of guest user pages made in guest supervisor
     * mode keep the guest's user permissions (tlb440_config). */
    bool union_user_perms;
    /* What-if (3.9+'s kvm_io_bus devices, docs/whatif.md "inkernel-mmio"):
     * an MMIO exit is served in the kernel, a light exit (no KVM_RUN
     * return, no round trip to QEMU and its host pages; a signal arriving
     * in it makes it SIGNAL as any light exit). Default false: QEMU. */
    bool mmio_in_kernel;
    bool tb_frozen;     /* stress switch: guest timebase reads return a
                           constant (pins the microbench's refusal) */
} cpu440_config;

void cpu440_config_default(cpu440_config *c);
/* The host pages of a parameter set (common_host_pages, path_host_pages,
 * qemu_host_pages, hostirq_host_pages): those the cycle model pricing or
 * predicting the run uses. */
struct params;
void cpu440_config_host_pages(cpu440_config *c, const struct params *p);
/* The UTLB geometry of a parameter set (utlb_entries, utlb_pinned): the
 * one the cycle model's soft TLB has when it prices or predicts the run. */
void cpu440_config_utlb(cpu440_config *c, const struct params *p);

/* Where records go: exit records (with handler and guest ticks) in time
 * order, each followed by the state records of its handling. */
typedef struct cpu440_sink {
    void *ctx;
    sim_err (*put)(void *ctx, const trace_rec *r);
} cpu440_sink;

/* Prices exits while recording (the cycle model, model/cost) instead of the
 * flat default: exit() is called at the end of each exit's handling with
 * its record (final type; handler/guest not set yet) and the guest
 * instructions run before it (since the previous entry); it returns the
 * handler ticks (exit -> entry; for EMUL_WAIT without the idle time, which
 * cpu440 adds as it measured it) and the ticks the guest side of the path
 * adds before the guest's own instructions; state() then gets the state
 * records of that handling. Same order as a replay of the trace. */
typedef struct cpu440_coster {
    void *ctx;
    void (*exit)(void *ctx, const trace_rec *r, uint64_t guest_insns_before,
                 uint32_t *handler, uint32_t *guest_extra);
    void (*state)(void *ctx, const trace_rec *r);
} cpu440_coster;

SIM_MUST_CHECK sim_err cpu440_new(cpu440 **out, const cpu440_config *c);
void cpu440_free(cpu440 *cpu);

/* Copies an image into guest RAM at physical pa and hooks every timebase
 * read (mftb, mfspr 268/269) in it, found by scanning the image as code
 * linked at effective address ea. */
SIM_MUST_CHECK sim_err cpu440_load(cpu440 *cpu, uint32_t pa, uint32_t ea,
                                   const void *img, size_t len);
/* Hooks every timebase read (mftb, mfspr 268/269) in the code already in
 * RAM at physical pa, linked at effective address ea. */
SIM_MUST_CHECK sim_err cpu440_scan_timebase(cpu440 *cpu, uint32_t pa,
                                            uint32_t ea, size_t len);
/* Copies data into guest RAM at physical pa (no timebase scan). */
SIM_MUST_CHECK sim_err cpu440_load_data(cpu440 *cpu, uint32_t pa,
                                        const void *data, size_t len);

/* How the guest is entered. The default (all zero) is the 2.6.29 host's
 * vcpu set-up our own guest kernel expects: a 16 MB entry at 0 and one
 * for the UART. A Linux kernel is entered as QEMU's bamboo loader entered
 * KVM guests: one 256 MB entry EA 0 -> PA 0 (supervisor RWX), r1 = stack,
 * r3 = device tree, MSR 0, PC 0. */
typedef struct cpu440_boot {
    bool linux_entry;   /* the QEMU bamboo convention above */
    uint32_t r1, r3;    /* with linux_entry */
    bool halt_loop_ends;/* a `b .` with MSR[EE] off ends the run
                           (Linux's machine_halt after power-off) */
} cpu440_boot;
void cpu440_set_boot(cpu440 *cpu, const cpu440_boot *b);

void cpu440_set_sink(cpu440 *cpu, const cpu440_sink *sink);
/* NULL: the flat default per path (cpu440_flat_ticks). */
void cpu440_set_coster(cpu440 *cpu, const cpu440_coster *k);
/* The cycle model (model/cost, reset by the caller with the run's timebase)
 * as a coster (cpu440/modelcost.c). */
struct cost_model;
void cpu440_model_coster(cpu440_coster *k, struct cost_model *m);
/* Console: bytes the guest writes to the UART go to fn (may be NULL). */
void cpu440_set_console(cpu440 *cpu, void (*fn)(void *ctx, int ch), void *ctx);
/* Lines typed on the console, each offered think_s after the guest has
 * consumed the previous one (or after boot for the first). Copied. */
SIM_MUST_CHECK sim_err cpu440_set_input(cpu440 *cpu, const char *text);

#define CPU440_POLL_EXITS 1024u

typedef struct cpu440_limits {
    uint64_t max_exits; /* 0 = none */
    double max_seconds; /* simulated guest seconds, 0 = none */
    /* stop is polled every CPU440_POLL_EXITS exits (returning true stops:
     * Ctrl-C), progress every 64 polls */
    bool (*stop)(void *ctx);
    void (*progress)(void *ctx, uint64_t exits, double seconds);
    void *ctx;
} cpu440_limits;

/* Why cpu440_run returned. */
typedef enum cpu440_end {
    CPU440_POWEROFF, /* the guest powered off */
    CPU440_LIMIT,    /* max_exits / max_seconds reached */
    CPU440_STOPPED,  /* lim->stop returned true */
} cpu440_end;

/* Runs the guest from its reset state (pc 0, guest supervisor mode) and
 * flushes the last exit to the sink. */
SIM_MUST_CHECK sim_err cpu440_run(cpu440 *cpu, const cpu440_limits *lim,
                                  cpu440_end *end);

typedef struct cpu440_counters {
    uint64_t exits;
    uint64_t by_type[EXIT__COUNT];
    uint64_t guest_insns; /* guest instructions executed (block counts) */
    uint64_t tb;          /* simulated timebase now */
    uint64_t stub_runs;   /* shadow TLB updates carried into Unicorn */
    /* guest faults on an entry the UTLB holds but Unicorn's 64 slots did
     * not (a UTLB of more than 64 entries): refilled, no exit */
    uint64_t mirror_refills;
    uint64_t shadow_maps; /* kvmppc_mmu_map calls */
    uint64_t host_fills;  /* host TLB misses taking a UTLB slot */
    uint64_t host_evicted_guest;
    /* host interrupts serviced inside exits: each DEC and EXTINT exit's
     * own and those arriving while an exit is handled */
    uint64_t host_irqs;
    uint64_t mftb; /* timebase reads emulated */
    /* Interrupts delivered to the guest (through its IVORs), by BookE
     * interrupt number and by the guest mode they interrupted
     * ([n][0] supervisor, [n][1] user): what the guest itself saw. */
    uint64_t delivered[16][2];
    /* device register accesses (MMIO and DCR exits; reads, writes) */
    uint64_t mmio_reads, mmio_writes, dcr_reads, dcr_writes;
} cpu440_counters;
void cpu440_get_counters(const cpu440 *cpu, cpu440_counters *out);

/* The flat default handler ticks of an exit path (documented in
 * docs/cpu440.md: the seed table's minimum for that row, in usec, times
 * the timebase rate; EMUL_WAIT adds the guest's idle time). */
uint32_t cpu440_flat_ticks(exit_type t, uint64_t tb_hz);

#endif
