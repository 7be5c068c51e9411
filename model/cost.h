/* cost: the cycle model of one KVM/440 exit (docs/kvm440.md §8,
 * docs/cost-model.md).
 * Each exit path is a sequence of named stages (COST_STAGES) whose costs in
 * core cycles come from the parameters (model/params.h), plus state-
 * dependent terms: handler code refilled after every entry's iccci, D-cache
 * warmth decaying with guest time, host pages competing for UTLB slots with
 * guest shadow entries (model/tlb440, shared round-robin index), emulation
 * priced by the instruction class decoded from the trace's instruction word
 * (model/insn440), heavy exits paying vcpu_put/vcpu_load and a QEMU round
 * trip drawn from a lognormal, and host interrupts arriving in simulated
 * time, serviced inside the exit, with rare heavy-tailed preemption (GSL
 * mt19937 seeded by the `seed` parameter). Same records + params -> same
 * cycles. Variability comes only from these mechanisms.
 *
 * Two users: `sim replay` (cost_replay_hook, state read from the trace) and
 * cpu440, which classifies with cost_tlb() and calls cost_exit with the
 * guest instruction count it measured. */
#ifndef COST_H
#define COST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "exits.h"
#include "insn440.h"
#include "params.h"
#include "replay.h"
#include "sim_err.h"
#include "table.h"
#include "tlb440.h"
#include "trace.h"

/* X(name, guest_side, what). guest_side stages lie between the entry and
 * the next exit's timebase reads, so the kernel charges them to
 * TIMEINGUEST; the others are the exit's handler time. */
#define COST_STAGES(X)                                                         \
    X(exit_asm, 0, "exit asm after the timebase read (+ last_inst fetch)")     \
    X(timing, 0, "exit-timing bookkeeping: software 64-bit divides")           \
    X(dispatch, 0, "C dispatch, irq enable/disable, deliver, signal check")    \
    X(icache, 0, "I-cache refill of the handler's code (cold after iccci)")    \
    X(dcache, 0, "D-cache lines evicted by the guest since the last exit")     \
    X(utlb, 0, "host TLB misses on unpinned host pages")                       \
    X(emulate, 0, "decode + emulation of the instruction class")               \
    X(tlbsearch, 0, "guest TLB search / tlbsx / shadow invalidation scans")    \
    X(shadowmap, 0, "kvmppc_mmu_map: gfn_to_page, release, tlbwe x3")          \
    X(reflect, 0, "interrupt reflected to the guest")                          \
    X(heavy, 0, "KVM_RUN return and re-entry, vcpu_put + vcpu_load")           \
    X(qemu, 0, "QEMU user-space round trip")                                   \
    X(hostwork, 0, "host interrupts serviced inside the exit")                 \
    X(preempt, 0, "host preemption of the vcpu thread")                        \
    X(wait, 0, "guest idle until its next tick (EMUL_WAIT)")                   \
    X(resume, 0, "resume asm: PID, iccci, IVPR, SPRG reload")                  \
    X(stub, 1, "vector + stub + save before the exit timebase read")           \
    X(tail, 1, "after the entry timebase read: last insns + rfi")              \
    X(guest, 1, "guest instructions")                                          \
    X(grefill, 1, "guest I-cache + shadow TLB refill after the entry")

typedef enum cost_stage {
#define X(n, g, s) CSTAGE_##n,
    COST_STAGES(X)
#undef X
        CSTAGE__COUNT
} cost_stage;
const char *cost_stage_name(cost_stage s);
int cost_stage_guest_side(cost_stage s);

typedef struct cost_model cost_model;

/* Builds the model from resolved parameters (copied). core_hz and tb_hz
 * set the cycle->tick ratio (0 = the core_hz parameter, tb = core).
 * Parameters that break params_check (a cache of part lines) are refused:
 * SIM_ERR_RANGE. */
SIM_MUST_CHECK sim_err cost_new(cost_model **m, const params *p);
void cost_free(cost_model *m);
/* Restarts: soft TLB reset, generator reseeded, clock and stage sums 0.
 * tb_hz/core_hz from a trace header (0 = the core_hz parameter). */
void cost_reset(cost_model *m, uint64_t tb_hz, uint64_t core_hz);

/* The parameters the model was built with. */
const params *cost_params(const cost_model *m);

/* The soft TLB the model keeps (cpu440 classifies its misses with it). */
tlb440 *cost_tlb(cost_model *m);

/* A state record (guest tlbwe -> soft TLB; shadow writes and markers are
 * the model's own business and ignored). */
void cost_state(cost_model *m, const trace_rec *r);

/* Cost of one exit, in core cycles. guest_insns: instructions the guest
 * runs after this exit's entry, or COST_DRAW for an exponential draw with
 * mean `guest_insns`. *handler: exit -> entry (the exit's row), *guest:
 * entry -> next exit (TIMEINGUEST). Advances the model's clock. */
#define COST_DRAW UINT64_MAX
void cost_exit(cost_model *m, const trace_rec *r, uint64_t guest_insns,
               uint64_t *handler, uint64_t *guest);

/* Which guest time a replay uses (docs/cost-model.md, "Guest time").
 * COST_GUEST_TRACE (default): a record that carries guest ticks
 * (TRF_GUEST_KNOWN) keeps them, the measured entry -> next exit time;
 * only records without them get the modelled guest_insns x guest_cpi +
 * refills. COST_GUEST_MODEL: every guest interval is modelled. */
typedef enum cost_guest_mode { COST_GUEST_TRACE, COST_GUEST_MODEL } cost_guest_mode;
void cost_set_guest_mode(cost_model *m, cost_guest_mode mode);
/* Whether record r's guest interval is taken from the trace. */
bool cost_guest_from_trace(const cost_model *m, const trace_rec *r);
/* cost_exit for a replayed record: the guest time from the trace when
 * cost_guest_from_trace, else drawn (COST_DRAW). */
void cost_exit_replay(cost_model *m, const trace_rec *r, uint64_t *handler,
                      uint64_t *guest);
/* Exits since the last reset whose guest time came from the trace, and
 * those whose guest time the model made. */
void cost_guest_counts(const cost_model *m, uint64_t *from_trace,
                       uint64_t *modelled);

/* Unit-cost features: the sufficient statistics of a parameter sweep
 * (model/sweep.c, docs/sweep.md). Every exit's handler cycles are
 *   sum_j n_j * cost_feature_unit(j) + r
 * where the counts n_j (one exit, one emulated instruction of a class,
 * guest TLB entries scanned, UTLB misses, shadow entries saved ...) and the
 * remainder r (D-cache, QEMU, host interrupt work drawn from distributions,
 * EMUL_WAIT idling) do not depend on any unit; the guest side likewise
 * with gexit/glines/grefill (modelled guest intervals only). With tracking
 * on, cost_feature_sum gives the counts summed over the exits the
 * accounting charges (all but the last one since the reset). Direct path
 * only: the SystemC platform's deliver/signal tails are not tracked. */
typedef enum cost_feature {
    CFEAT_exit,     /* the type's fixed handler stages */
    CFEAT_gexit,    /* the type's fixed guest-side stages (stub, tail) */
    CFEAT_scan,     /* guest TLB entries searched (tlb_scan_cycles) */
    CFEAT_refscan,  /* shadow-ref scans of the UTLB (tlbwe, PID change) */
    CFEAT_scanall,  /* whole guest TLB scans (tlbsx) */
    CFEAT_release,  /* shadow entries released (release_cycles) */
    CFEAT_put,      /* vcpu_put entries (vcpu_put_cycles) */
    CFEAT_load,     /* vcpu_load entries (vcpu_load_cycles) */
    CFEAT_hostmiss, /* host UTLB misses (host_tlb_miss_cycles) */
    CFEAT_tick,     /* host ticks serviced (host_tick_cycles) */
    CFEAT_hostirq,  /* host interrupt code refills (lines x miss) */
    CFEAT_glines,   /* guest I-cache lines refetched (icache_miss_cycles) */
    CFEAT_grefill,  /* guest shadow TLB refills (shadow_refill_cycles) */
    CFEAT_spr0,     /* mfspr/mtspr by SPR group: 4 features */
    CFEAT_emul0 = CFEAT_spr0 + 4, /* other emulated classes: INSN__COUNT */
    CFEAT__COUNT = CFEAT_emul0 + INSN__COUNT
} cost_feature;
/* A model for cost_feature_unit only (a sweep evaluates thousands of
 * points): the guest-run quantile table is not built, so it must not cost
 * exits. */
SIM_MUST_CHECK sim_err cost_new_units(cost_model **m, const params *p);
/* Tracking is off by default (one predictable branch per count). */
void cost_track_features(cost_model *m, bool on);
uint64_t cost_feature_sum(const cost_model *m, exit_type t, cost_feature j);
/* Cycles of one unit of feature j for an exit of type t at the model's
 * parameters (whole cycles except for the rounded features). */
double cost_feature_unit(const cost_model *m, exit_type t, cost_feature j);
/* 1 for the features whose cycles are rounded per exit (n x unit, the UTLB
 * misses of one access group, vcpu_put + vcpu_load): their sums are linear
 * in the unit only while the unit is a whole number. */
int cost_feature_rounded(cost_feature j);
/* 1 if feature j adds to the guest interval (TIMEINGUEST), 0 if to the
 * handler (the exit's own row). */
int cost_feature_guest_side(cost_feature j);

/* What-if support (model/whatif): the guest instructions' cycles of the
 * run after r's entry as cost_exit would draw or take them, without the
 * entry's own stages (stub, tail, refill) - a removed exit's run continues
 * in the guest; and the guest run after the last exit growing by `cycles`
 * (clock, D-cache decay, host arrivals in guest time skipped). insns (may
 * be NULL) gets the run's instructions. */
uint64_t cost_guest_run(cost_model *m, const trace_rec *r, uint64_t *insns);
/* The modelled guest interval after an exit of type t whose run is n
 * instructions, less the instructions' own cycles (guest_cpi x n): the
 * entry's stub and tail and the refills the run needs (cost_exit's stub,
 * tail and grefill stages), in core cycles. A model from cost_new_units
 * will do. synth --like sizes the guest runs with it (docs/calibration.md,
 * "Guest run lengths"). */
uint64_t cost_guest_entry(const cost_model *m, exit_type t, uint64_t n);
/* The entry's refills (guest I-cache lines after the iccci, shadow D-TLB
 * entries; cost_exit's grefill stage) of a run of n + add instructions
 * after an exit of type t, less those of a run of n: what a run that grows
 * by `add` instructions (a removed exit's) refills more. */
uint64_t cost_refill_growth(const cost_model *m, exit_type t, uint64_t n,
                            uint64_t add);
/* The kernel's iccci on every guest entry (KVM/440 2.6.26-3.10: on); off
 * is the what-if no-iccci: handler and guest code lines then survive the
 * exit like its data lines (docs/whatif.md). Recomputes the fixed costs. */
void cost_set_iccci(cost_model *m, bool on);
/* Every exit's handler `cycles` longer (its dispatch stage): a price change
 * only, for the what-if null's measurement of the lockstep (docs/whatif.md
 * "null"). 0, the default, is the kernel. Recomputes the fixed costs. */
void cost_set_handler_extra(cost_model *m, uint64_t cycles);
/* What-if inkernel-mmio: MMIO exits are served by an in-kernel device
 * (3.9+'s kvm_io_bus): no KVM_RUN return, vcpu_put/load or QEMU; the device
 * costs a second pass of the MMIO decode's size (emul_mmio_insns). */
void cost_set_mmio_in_kernel(cost_model *m, bool on);
/* What-if lazy-tlb (2.6.28's policy): every entry tests the shadow
 * entries' modified flags (hwater+1 scans); vcpu_put is _tlbia (host
 * entries lost too, no tlbre save), vcpu_load rewrites every shadow entry. */
void cost_set_lazy_tlb(cost_model *m, bool on);
void cost_guest_extend(cost_model *m, uint64_t cycles);
/* A recorder prices each exit before the guest run after it is known
 * (cpu440/modelcost.c): this gives the model the run just before the exit
 * about to be priced, in instructions, so that the exit finds the handler
 * data the run really left warm, as a replay of the recording does (there
 * the run is the previous record's guest interval). The model's clock and
 * the previous exit's accounting are left as they were. */
void cost_guest_before(cost_model *m, uint64_t insns);

/* Host work inside an exit, for the timed platform which decides *when*
 * host interrupts arrive: a host tick (with the preemption draw) or a
 * device interrupt serviced now. Returns cycles; accounted to `type`'s
 * hostwork/preempt stages. */
uint64_t cost_host_tick(cost_model *m, exit_type type);
uint64_t cost_host_irq(cost_model *m, exit_type type);
/* QEMU cycles inside the last cost_exit's handler (0 for light exits):
 * the platform spends them in its QEMU module. */
uint64_t cost_last_qemu(const cost_model *m);
/* A signal found pending at the end of a light exit of type t turns it into
 * SIGNAL (kernel: last writer wins) and sends it to user space: returns the
 * extra non-QEMU cycles (KVM_RUN return, vcpu_put/load), *qemu gets the
 * QEMU cycles. The exit, all its stages, is then charged to SIGNAL's row. */
uint64_t cost_signal_tail(cost_model *m, exit_type t, uint64_t *qemu);
/* deliver_interrupts of a pending guest decrementer at entry. */
uint64_t cost_deliver(cost_model *m, exit_type t);
/* Whether the model itself draws host interrupt arrivals inside handler
 * windows (direct path: yes; the timed platform turns it off). */
void cost_set_internal_host(cost_model *m, int on);

/* Cycles -> timebase ticks at the current ratio. */
uint64_t cost_to_ticks(const cost_model *m, uint64_t cycles);
uint64_t cost_core_hz(const cost_model *m);

/* Cycles of `stage` summed over every costed exit of `type` (the one in
 * progress included), and their count. */
uint64_t cost_stage_sum(const cost_model *m, exit_type type, cost_stage s);
uint64_t cost_type_count(const cost_model *m, exit_type type);
/* What the exit-timing table charges to row `type`: its exits so far but
 * the last one costed (the kernel charges an exit when the next one comes),
 * a light exit a signal turned into SIGNAL under SIGNAL. Returns the count;
 * sums (may be NULL) gets the cycles of each stage. */
uint64_t cost_charged(const cost_model *m, exit_type type,
                      uint64_t sums[CSTAGE__COUNT]);
/* The stage report (`sim replay --stages`) of the exits the table charges
 * (cost_charged), per exit type, the non-zero stages in core cycles:
 * TFMT_CSV one document with the header below, one row per type and stage;
 * TFMT_JSON one document (cost_stages_json); any other format text lines
 * to print after a text table. */
#define COST_STAGES_CSV_HEADER                                                 \
    "type,exits,stage,side,cycles,cycles_per_exit,share_percent"
SIM_MUST_CHECK sim_err cost_write_stages(const cost_model *m, FILE *f,
                                         table_fmt fmt);
/* {"unit": "core cycles", "types": [{type, exits, handler_cycles_per_exit,
 * guest_cycles_per_exit, stages: [{stage, side, cycles, cycles_per_exit,
 * share_percent}]}], "soft_tlb": {...}}; NULL if out of memory. */
json_t *cost_stages_json(const cost_model *m);
/* Two models' stage reports side by side (`sim whatif --stages`): per exit
 * type either charged, its exits and the handler's and guest side's
 * cycles per exit, then each stage non-zero on either side, as ref, new
 * and new - ref in cycles per exit of its own side's exits; then both soft
 * TLBs' counters. Text lines, each started with `prefix`. */
void cost_write_stages_diff(const cost_model *ref, const cost_model *other,
                            FILE *f, const char *prefix);

/* The replay hook (model/replay.h): begin resets with the trace header,
 * cost converts cycles to ticks (capped at 2^32-1). hook->ctx = m. */
void cost_replay_hook(cost_model *m, replay_cost_model *hook);

#endif
