/* params: every parameter of the cycle model, declared once in PARAM_LIST
 * (name, kind, unit, default, range, where the default comes from, help).
 * The table drives the INI reader (Debian libinih), `--set name=value`,
 * `sim params show` and docs/parameters.md. Defaults come from
 * docs/kvm440.md (instruction counts of the real paths, 440
 * geometry) or are labelled assumptions; none is fitted to a table. */
#ifndef PARAMS_H
#define PARAMS_H

#include <stdio.h>

#include "sim_err.h"

/* Kinds: PK_INT values must be whole numbers; PK_REAL any finite number;
 * PK_POW2 a whole power of two; PK_LINES whole bytes that make whole cache
 * lines (a multiple of cache_line_bytes: checked by params_check, once
 * every value is known). */
#define PK_INT   0
#define PK_REAL  1
#define PK_POW2  2
#define PK_LINES 3

/* Where a default comes from (kept short: it is printed in the docs). */
#define SRC_REF7   "docs/kvm440.md §7 (PPC440x5 UM)"
#define SRC_REF8   "docs/kvm440.md §8 (booke_interrupts.S, booke.c)"
#define SRC_REF3   "docs/kvm440.md §3 (44x_tlb.c, head_44x.S)"
#define SRC_REF4   "docs/kvm440.md §4 (emulate.c, 44x_emulate.c)"
#define SRC_REF2   "docs/kvm440.md §2 (timing.c)"
#define SRC_ASSUME "assumption, to calibrate"
/* An exit rate of validation/hw/ppc440-ubuntu-boot-nopv.txt, divided by its
 * guest-time share where only arrivals during guest time are exits. That
 * kernel (2.6.29) truncated every sample to whole usec before adding it
 * up, so the table's sums lose ~0.5 usec per sample (fractions uniform):
 * 20M samples make 212.24 s for the printed 202.24 and 15.86 s of guest
 * time for the printed 10.86 (7.47%, not 5.37%). A synthetic trace drawn
 * from that table confirms it: its true guest time x 1068/s gives its DEC
 * count (docs/parameters.md). */
#define SRC_SEED_RATE "no-PV table: exits/s / guest share"

/* X(name, kind, unit, default, min, max, source, help) */
#define PARAM_LIST(X)                                                          \
    /* ---- clock and geometry ---- */                                         \
    X(core_hz, PK_INT, "Hz", 667e6, 1e6, 4e9, SRC_REF7,                        \
      "core clock; the timebase runs at it on 440EP/EPx (CCR1[TCS]=0). Used "  \
      "when a trace does not give one; another value than a trace's own "     \
      "is refused (make the trace at that clock: --tb-hz)")                    \
    X(icache_bytes, PK_LINES, "bytes", 32768, 8192, 32768, SRC_REF7,           \
      "I-cache size (32 KB on 440EP/EPx); handler + guest refills are capped " \
      "at its line count")                                                     \
    X(dcache_bytes, PK_LINES, "bytes", 32768, 8192, 32768, SRC_REF7,           \
      "D-cache size (32 KB on 440EP/EPx)")                                     \
    X(cache_line_bytes, PK_POW2, "bytes", 32, 16, 128, SRC_REF7,               \
      "cache line size (32 bytes on the 440)")                                 \
    X(utlb_entries, PK_INT, "entries", 64, 8, 128, SRC_REF7,                   \
      "hardware unified TLB entries (64 on the 440)")                          \
    X(utlb_pinned, PK_INT, "entries", 1, 1, 8, SRC_REF3,                       \
      "UTLB slots pinned for host lowmem (256 MB each, from slot 63 down); "   \
      "hwater = utlb_entries - 1 - utlb_pinned")                               \
    X(gtlb_entries, PK_INT, "entries", 64, 1, 64, SRC_REF3,                    \
      "guest TLB entries (kvm's guest_tlb[64]); tlbsx and misses scan them")   \
    X(itlb_shadow, PK_INT, "entries", 4, 1, 16, SRC_REF7,                      \
      "instruction shadow TLB entries, flushed by every interrupt and rfi")    \
    X(dtlb_shadow, PK_INT, "entries", 8, 1, 16, SRC_REF7,                      \
      "data shadow TLB entries, flushed by every interrupt and rfi")           \
    X(shadow_refill_cycles, PK_INT, "cycles", 3, 0, 100, SRC_REF7,             \
      "shadow TLB miss that hits the UTLB")                                    \
    X(guest_ram_mb, PK_INT, "MiB", 256, 1, 2048, SRC_ASSUME,                   \
      "guest RAM; a guest-TLB hit whose real address lies above it is MMIO")   \
    /* ---- common path (docs/kvm440.md §8: 170-190 asm instructions) ---- */  \
    X(cpi, PK_REAL, "cycles/insn", 1.2, 0.3, 20, SRC_ASSUME,                   \
      "cycles per handler instruction with warm caches (dual issue, but "      \
      "system instructions serialise in the complex-integer pipe)")            \
    X(stub_insns, PK_INT, "insns", 32, 0, 1000, SRC_REF2,                      \
      "IVPR stub (~12) + save before the exit timebase read (~20); charged "   \
      "to "                                                                    \
      "TIMEINGUEST")                                                           \
    X(exit_asm_insns, PK_INT, "insns", 60, 0, 2000, SRC_REF8,                  \
      "exit asm after the timebase read: register save, host r1/r2/PID/IVPR")  \
    X(lastinst_insns, PK_INT, "insns", 25, 0, 1000, SRC_REF8,                  \
      "PROGRAM/DTLB/DEBUG only: last_inst fetch (2x mtmsr+isync), save "       \
      "r15-r31, DEAR/ESR")                                                     \
    X(dispatch_insns, PK_INT, "insns", 250, 0, 10000, SRC_ASSUME,              \
      "C: kvmppc_handle_exit switch, local_irq_enable/disable, "               \
      "deliver_interrupts, signal check")                                      \
    X(timing_divides, PK_INT, "calls", 2, 0, 4, SRC_REF2,                      \
      "64-bit do_div calls of exit timing per exit (2 up to 3.0, 0 in 3.1+)")  \
    X(do_div_cycles, PK_INT, "cycles", 180, 0, 5000, SRC_ASSUME,               \
      "one software 64-bit do_div on a 32-bit core")                           \
    X(resume_insns, PK_INT, "insns", 70, 0, 2000, SRC_REF8,                    \
      "resume asm: NV reload, shadow PID, volatiles, IVPR, SPRG4-7")           \
    X(iccci_cycles, PK_INT, "cycles", 40, 0, 5000, SRC_ASSUME,                 \
      "the iccci of every guest entry (whole I-cache invalidate)")             \
    X(entry_tail_insns, PK_INT, "insns", 22, 0, 1000, SRC_REF2,                \
      "after the entry timebase read: last ~20 insns + rfi; charged to "       \
      "TIMEINGUEST")                                                           \
    /* ---- caches ---- */                                                     \
    X(icache_miss_cycles, PK_INT, "cycles", 50, 0, 1000, SRC_ASSUME,           \
      "one I-cache line refill (32 bytes from DDR over the PLB, ~75 ns)")      \
    X(dcache_miss_cycles, PK_INT, "cycles", 50, 0, 1000, SRC_ASSUME,           \
      "one D-cache line refill")                                               \
    X(common_code_lines, PK_INT, "lines", 80, 0, 1024, SRC_ASSUME,             \
      "I-cache lines of the common path (asm + C dispatch), refilled on "      \
      "every exit after the last entry's iccci")                               \
    X(stub_code_lines, PK_INT, "lines", 5, 0, 1024, SRC_REF2,                  \
      "I-cache lines of the vector stub + pre-timebase save (TIMEINGUEST): "   \
      "the vector's line and one per 8 of stub_insns, all cold (the last "     \
      "entry's iccci emptied the cache, the guest run brings none)")           \
    X(tail_code_lines, PK_INT, "lines", 3, 0, 1024, SRC_REF2,                  \
      "I-cache lines of the entry tail after the timebase read "               \
      "(TIMEINGUEST): one per 8 of entry_tail_insns, fetched right after "     \
      "the iccci (none without it)")                                           \
    X(emul_code_lines, PK_INT, "lines", 40, 0, 1024, SRC_ASSUME,               \
      "I-cache lines of kvmppc_emulate_instruction and its switch")            \
    X(tlbmiss_code_lines, PK_INT, "lines", 20, 0, 1024, SRC_ASSUME,            \
      "I-cache lines of the TLB miss handlers (guest TLB search)")             \
    X(map_code_lines, PK_INT, "lines", 40, 0, 1024, SRC_ASSUME,                \
      "I-cache lines of kvmppc_mmu_map + gfn_to_page")                         \
    X(reflect_code_lines, PK_INT, "lines", 10, 0, 1024, SRC_ASSUME,            \
      "I-cache lines of interrupt reflection (queue + deliver)")               \
    X(heavy_code_lines, PK_INT, "lines", 150, 0, 1024, SRC_ASSUME,             \
      "I-cache lines of the KVM_RUN return/re-entry and vcpu_put/load")        \
    X(hostirq_code_lines, PK_INT, "lines", 80, 0, 1024, SRC_ASSUME,            \
      "I-cache lines of the host interrupt path (do_IRQ/timer_interrupt)")     \
    X(guest_code_lines, PK_INT, "lines", 8, 0, 1024, SRC_ASSUME,               \
      "guest I-cache lines refetched after every entry (iccci), at most one "  \
      "per 8 guest instructions")                                              \
    X(common_data_lines, PK_INT, "lines", 24, 0, 1024, SRC_ASSUME,             \
      "D-cache lines every exit touches (vcpu, stack, timing stats)")          \
    X(dcache_decay_cycles, PK_INT, "cycles", 20000, 1, 1e9, SRC_ASSUME,        \
      "guest time that evicts 1-1/e of the handler's D-cache lines")           \
    /* ---- UTLB (host pages the handler touches) ---- */                      \
    X(host_tlb_miss_cycles, PK_INT, "cycles", 40, 0, 5000, SRC_ASSUME,         \
      "host D/I TLB miss handler (head_44x.S) incl. tlbwe x3")                 \
    X(common_host_pages, PK_INT, "pages", 3, 0, 16, SRC_ASSUME,                \
      "unpinned 4 KiB host pages (kvm module text/data in vmalloc space) "     \
      "every exit touches")                                                    \
    X(path_host_pages, PK_INT, "pages", 1, 0, 16, SRC_ASSUME,                  \
      "further unpinned host pages of emulation and TLB-map paths")            \
    X(qemu_host_pages, PK_INT, "pages", 24, 0, 64, SRC_ASSUME,                 \
      "UTLB fills by the host and QEMU during a heavy exit's round trip")      \
    X(hostirq_host_pages, PK_INT, "pages", 4, 0, 64, SRC_ASSUME,               \
      "UTLB fills by a host interrupt handler")                                \
    /* ---- emulation (docs/kvm440.md §4) ---- */                              \
    X(decode_insns, PK_INT, "insns", 30, 0, 1000, SRC_ASSUME,                  \
      "kvmppc_emulate_instruction: get_op/get_xop switch")                     \
    X(emul_msr_insns, PK_INT, "insns", 12, 0, 1000, SRC_REF4,                  \
      "mfmsr, wrtee, wrteei")                                                  \
    X(emul_mtmsr_insns, PK_INT, "insns", 45, 0, 1000, SRC_REF4,                \
      "mtmsr: kvmppc_set_msr (PR switch sets the shadow PID)")                 \
    X(emul_spr_gen_insns, PK_INT, "insns", 15, 0, 1000, SRC_REF4,              \
      "mfspr/mtspr SRR0/1, SPRG0-3, PVR, PIR, TB (emulate.c)")                 \
    X(emul_spr_booke_insns, PK_INT, "insns", 25, 0, 1000, SRC_REF4,            \
      "mfspr/mtspr DEAR, ESR, DBCR/DBSR, IVPR, IVORs, SPRG4-7")                \
    X(emul_spr_timer_insns, PK_INT, "insns", 200, 0, 10000, SRC_REF4,          \
      "mtspr DEC/TCR/TSR: re-arms the guest decrementer timer")                \
    X(emul_spr_mmu_insns, PK_INT, "insns", 30, 0, 1000, SRC_REF4,              \
      "mfspr/mtspr PID, MMUCR, CCR0/1 (PID change also releases TID-0 "        \
      "shadows)")                                                              \
    X(emul_rfi_insns, PK_INT, "insns", 30, 0, 1000, SRC_REF4,                  \
      "rfi: SRR0/1 to PC/MSR through kvmppc_set_msr")                          \
    X(emul_tlbwe_insns, PK_INT, "insns", 60, 0, 1000, SRC_REF3,                \
      "one tlbwe word: index check, word update, trace")                       \
    X(emul_tlbsx_insns, PK_INT, "insns", 30, 0, 1000, SRC_REF3,                \
      "tlbsx besides its scan")                                                \
    X(emul_cache_insns, PK_INT, "insns", 8, 0, 1000, SRC_REF4,                 \
      "iccci, dcbi, tlbsync (no-ops)")                                         \
    X(emul_dcr_insns, PK_INT, "insns", 40, 0, 1000, SRC_REF4,                  \
      "mfdcr/mtdcr decode and kvm_run set-up")                                 \
    X(emul_mmio_insns, PK_INT, "insns", 120, 0, 5000, SRC_REF4,                \
      "kvmppc_emulate_mmio: load/store decode, memslot miss, kvm_run set-up")  \
    X(tlb_scan_cycles, PK_INT, "cycles", 5, 0, 100, SRC_REF3,                  \
      "one entry of a 64-entry linear scan (tlbsx, guest TLB search, shadow "  \
      "invalidation)")                                                         \
    X(release_cycles, PK_INT, "cycles", 60, 0, 5000, SRC_REF3,                 \
      "release one shadow entry: tlbwe invalid, put_page, trace")              \
    /* ---- TLB misses (docs/kvm440.md §3) ---- */                             \
    X(tlbmiss_insns, PK_INT, "insns", 30, 0, 1000, SRC_REF3,                   \
      "miss handler besides the guest TLB scan")                               \
    X(map_insns, PK_INT, "insns", 60, 0, 2000, SRC_REF3,                       \
      "kvmppc_mmu_map bookkeeping (victim, words, shadow ref, trace)")         \
    X(gfn_to_page_cycles, PK_INT, "cycles", 300, 0, 100000, SRC_ASSUME,        \
      "gfn_to_page: memslot search + get_user_pages fast path")                \
    X(tlbwe_cycles, PK_INT, "cycles", 12, 0, 1000, SRC_ASSUME,                 \
      "one hardware tlbwe (and the mtspr MMUCR before it)")                    \
    X(reflect_insns, PK_INT, "insns", 40, 0, 2000, SRC_REF8,                   \
      "queue + deliver an interrupt to the guest (SRR0/1, ESR/DEAR, MSR)")     \
    /* ---- heavy exits: vcpu_put/vcpu_load + QEMU ---- */                     \
    X(ioctl_insns, PK_INT, "insns", 1500, 0, 100000, SRC_ASSUME,               \
      "return from KVM_RUN to QEMU and the next KVM_RUN ioctl")                \
    X(vcpu_put_cycles, PK_INT, "cycles/entry", 40, 0, 5000, SRC_REF3,          \
      "vcpu_put per valid shadow entry: tlbre and invalidate")                 \
    X(vcpu_load_cycles, PK_INT, "cycles/entry", 40, 0, 5000, SRC_REF3,         \
      "vcpu_load per saved shadow entry: tlbwe x3 back")                       \
    X(qemu_mmio_usec, PK_REAL, "usec", 40, 0, 1e6, SRC_ASSUME,                 \
      "median QEMU time of an MMIO round trip (lognormal)")                    \
    X(qemu_dcr_usec, PK_REAL, "usec", 20, 0, 1e6, SRC_ASSUME,                  \
      "median QEMU time of a DCR round trip (lognormal)")                      \
    X(qemu_signal_usec, PK_REAL, "usec", 40, 0, 1e6, SRC_ASSUME,               \
      "median user-space time of a SIGNAL exit (lognormal)")                   \
    X(qemu_sigma, PK_REAL, "1", 0.8, 0, 4, SRC_ASSUME,                         \
      "lognormal shape of every QEMU round trip")                              \
    /* ---- host work inside exits ---- */                                     \
    X(host_tick_hz, PK_REAL, "1/s", 1068, 0, 10000, SRC_SEED_RATE,            \
      "host decrementer interrupts per second (the host's tick and timers; "  \
      "an effective rate, not CONFIG_HZ). One arriving while the guest runs " \
      "is a DEC exit (the DEC row counts the host's decrementer, not the "    \
      "guest's, which KVM emulates); one arriving during an exit is "         \
      "serviced inside it (host_tick_cycles). Default: the seed no-PV "       \
      "table's 79.8 DEC exits/s over its 7.47% guest-time share. sim "        \
      "record, the cycle model and the SystemC platform all use it")          \
    X(host_irq_hz, PK_REAL, "1/s", 222, 0, 1e6, SRC_SEED_RATE,                 \
      "host device interrupts per second (Poisson). One arriving while the "  \
      "guest runs is an EXTINT exit; one arriving during an exit has its "    \
      "handler run inside it and the work it wakes (host_irq_usec) at the "   \
      "vcpu thread's next scheduling point. Default: the seed no-PV table's " \
      "16.6 EXTINT exits/s over its 7.47% guest-time share. sim record, the " \
      "cycle model and the SystemC platform all use it")                      \
    X(host_irq_exit_share, PK_REAL, "1", 1, 0, 2, SRC_ASSUME,                  \
      "the device-interrupt rate inside exit handlers as a share of "         \
      "host_irq_hz, the rate the EXTINT row measures while the guest runs "   \
      "(1: uniform in time). Interrupts answer I/O and need not be uniform "  \
      "over the run; the handler rows' tails measure the rate inside them "   \
      "(docs/cost-model.md, Host work)")                                      \
    X(signal_hz, PK_REAL, "1/s", 2.99, 0, 10000, SRC_SEED_RATE,                \
      "signals to the vcpu thread per second (Poisson; QEMU kicks): one "     \
      "found at the end of a light exit turns it into SIGNAL (the kernel's "  \
      "last writer), one arriving while the guest runs is a SIGNAL exit: "    \
      "nearly all become SIGNAL exits. Default: the seed no-PV table's 2.99 " \
      "SIGNAL exits/s. sim record and the SystemC platform use it")           \
    X(host_tick_cycles, PK_INT, "cycles", 6000, 0, 1e7, SRC_ASSUME,            \
      "host timer_interrupt + scheduler_tick")                                 \
    X(host_irq_usec, PK_REAL, "usec", 300, 0, 1e6, SRC_ASSUME,                 \
      "median work a host device interrupt wakes (lognormal), run at the "    \
      "vcpu thread's next scheduling point: an EXTINT, DEC, VIRT-miss, "      \
      "EMUL_WAIT or heavy exit (docs/cost-model.md, Host work)")              \
    X(host_irq_sigma, PK_REAL, "1", 1.0, 0, 4, SRC_ASSUME,                     \
      "lognormal shape of host device interrupt work")                         \
    X(preempt_prob, PK_REAL, "1/tick", 0.002, 0, 1, SRC_ASSUME,                \
      "chance that a host tick takes the CPU from the vcpu thread, in "       \
      "whatever exit it lands (docs/cost-model.md, Host work)")               \
    X(preempt_usec, PK_REAL, "usec", 2000, 1, 1e6, SRC_ASSUME,                 \
      "scale (minimum) of a preemption, Pareto distributed")                   \
    X(preempt_alpha, PK_REAL, "1", 1.2, 0.5, 10, SRC_ASSUME,                   \
      "Pareto shape of a preemption (smaller = heavier tail)")                 \
    X(preempt_max_usec, PK_REAL, "usec", 300000, 1, 1e7, SRC_ASSUME,           \
      "cap of one preemption")                                                 \
    X(stall_hz, PK_REAL, "1/s", 0.1, 0, 1000, SRC_ASSUME,                      \
      "long host stalls per second of exit-handler time (Poisson, in any "    \
      "exit, not tied to the host tick): the vcpu thread held off the CPU "   \
      "for a Pareto time (docs/cost-model.md, Host work)")                    \
    X(stall_usec, PK_REAL, "usec", 50000, 1, 1e7, SRC_ASSUME,                  \
      "scale (minimum) of a long host stall, Pareto distributed")             \
    X(stall_alpha, PK_REAL, "1", 1.5, 0.5, 10, SRC_ASSUME,                     \
      "Pareto shape of a long host stall (capped at 10 s)")                   \
    /* ---- the guest between exits ---- */                                    \
    X(guest_insns, PK_REAL, "insns", 300, 0, 1e7, SRC_ASSUME,                  \
      "mean guest instructions between exits; used only for records "         \
      "without guest ticks (or with --guest-time model)")                     \
    X(guest_sigma, PK_REAL, "1", 1.0, 0, 4, SRC_ASSUME,                        \
      "spread of the guest run between exits: lognormal shape with the mean "  \
      "above (0 = exponential); long runs are compute loops")                  \
    X(guest_cpi, PK_REAL, "cycles/insn", 1.5, 0.3, 20, SRC_ASSUME,             \
      "guest cycles per instruction besides the I-cache refill")               \
    X(guest_hz, PK_REAL, "1/s", 250, 1, 10000, SRC_ASSUME,                     \
      "guest kernel tick rate; EMUL_WAIT idles until the next guest tick")     \
    X(seed, PK_INT, "1", 1, 0, 4294967295.0, SRC_ASSUME,                       \
      "seed of the host-interference and QEMU generators (GSL mt19937)")

/* How a sweep treats each parameter (model/sweep.c, docs/sweep.md). The
 * ones listed here are LINEAR: they enter the cycle model only through the
 * unit costs of cost_feature_unit (a fixed stage, cycles per emulated
 * instruction class, per TLB entry scanned, per UTLB miss ...), so points
 * are evaluated from one replay's sufficient statistics. Every other
 * parameter is STATEFUL (geometry, D-cache warmth, rates, distributions,
 * seed): it changes what happens, so a sweep replays the trace for each of
 * its values. test_sweep checks every listed name against a replay. */
#define PARAM_SWEEP_LINEAR(X)                                                  \
    X(cpi) X(stub_insns) X(exit_asm_insns) X(lastinst_insns) X(dispatch_insns) \
    X(timing_divides) X(do_div_cycles) X(resume_insns) X(iccci_cycles)         \
    X(entry_tail_insns) X(icache_miss_cycles) X(common_code_lines)             \
    X(stub_code_lines) X(tail_code_lines) X(emul_code_lines)                   \
    X(tlbmiss_code_lines)                                                      \
    X(map_code_lines) X(reflect_code_lines) X(heavy_code_lines)                \
    X(hostirq_code_lines) X(host_tlb_miss_cycles) X(decode_insns)              \
    X(emul_msr_insns) X(emul_mtmsr_insns) X(emul_spr_gen_insns)                \
    X(emul_spr_booke_insns) X(emul_spr_timer_insns) X(emul_spr_mmu_insns)      \
    X(emul_rfi_insns) X(emul_tlbwe_insns) X(emul_tlbsx_insns)                  \
    X(emul_cache_insns) X(emul_dcr_insns) X(emul_mmio_insns)                   \
    X(tlb_scan_cycles) X(release_cycles) X(tlbmiss_insns) X(map_insns)         \
    X(gfn_to_page_cycles) X(tlbwe_cycles) X(reflect_insns) X(ioctl_insns)      \
    X(vcpu_put_cycles) X(vcpu_load_cycles) X(host_tick_cycles)                 \
    X(shadow_refill_cycles)

typedef enum param_id {
#define X(n, k, u, d, lo, hi, s, h) PARAM_##n,
    PARAM_LIST(X)
#undef X
        PARAM__COUNT
} param_id;

/* Where a resolved value came from. */
typedef enum param_origin { PO_DEFAULT, PO_FILE, PO_SET } param_origin;

typedef struct params {
    double v[PARAM__COUNT];
    unsigned char origin[PARAM__COUNT]; /* param_origin */
    unsigned line[PARAM__COUNT];        /* INI line for PO_FILE */
    char file[256];                     /* last INI file read */
} params;

/* Value by name in code: P(p, icache_miss_cycles). */
#define P(p, name) ((p)->v[PARAM_##name])

/* All defaults. */
void params_init(params *p);

const char *param_name(param_id id);
const char *param_unit(param_id id);
const char *param_help(param_id id);
double param_default(param_id id);
/* The declared range and kind (PK_INT / PK_REAL). */
double param_min(param_id id);
double param_max(param_id id);
int param_kind(param_id id);
/* 1 if id is in PARAM_SWEEP_LINEAR, else 0 (stateful). */
int param_is_linear(param_id id);
const char *param_source(param_id id);
/* Id from exact name; -1 if unknown. */
int param_from_name(const char *name);
/* The known name closest to an unknown one (for "did you mean"). */
const char *param_nearest_name(const char *name);

/* Reads an INI file of `name = value` lines (no sections; ';' or '#'
 * comments). Unknown names, values out of range or not numbers are errors
 * that name path:line (and the nearest valid name): SIM_ERR_FORMAT or
 * SIM_ERR_RANGE (exit code 2); SIM_ERR_IO if unreadable. */
SIM_MUST_CHECK sim_err params_load_file(params *p, const char *path);
/* Like params_load_file for INI text held in memory; name is used in
 * messages and as the file shown by params_write_show. */
SIM_MUST_CHECK sim_err params_load_string(params *p, const char *text,
                                          const char *name);
/* Applies one "name=value" (from --set). */
SIM_MUST_CHECK sim_err params_set_str(params *p, const char *assign);
/* Sets one value after checking kind and range; `where` prefixes messages. */
SIM_MUST_CHECK sim_err params_set(params *p, param_id id, double v,
                                  const char *where);

/* The constraints between values (PK_LINES against cache_line_bytes), for
 * the values as finally resolved: SIM_ERR_RANGE naming the parameter and
 * where its value came from. */
SIM_MUST_CHECK sim_err params_check(const params *p);

/* Resolved values, unit and origin, one per line. */
void params_write_show(FILE *f, const params *p);
/* docs/parameters.md, generated from PARAM_LIST. */
void params_write_doc(FILE *f);

#endif
