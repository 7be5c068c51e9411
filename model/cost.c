/* cost: per-exit cycle costs of KVM/440 (2.6.29+ paths, docs/kvm440.md §2,
 * §3, §7, §8). Fixed stage costs are computed per exit type once; per exit only
 * the state-dependent terms are evaluated (D-cache decay, UTLB misses of
 * host pages, emulation class, TLB scans and maps, heavy-exit TLB save/
 * restore, QEMU, host interrupts, preemption, guest run), which keeps the
 * full model above 20 M exits/s (docs/cost-model.md, "Speed"). */
#include "cost.h"

#include <assert.h>
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "hostpages.h"
#include "insn440.h"
#include "taus2.h"
#include "tlbword.h"

/* Which parts of the handler a path runs. */
enum {
    PATH_LASTINST = 1 << 0, /* PROGRAM/DTLB/DEBUG: last_inst fetch */
    PATH_EMUL = 1 << 1,     /* kvmppc_emulate_instruction */
    PATH_TLBMISS = 1 << 2,  /* guest TLB search */
    PATH_MAP = 1 << 3,      /* kvmppc_mmu_map */
    PATH_REFLECT = 1 << 4,  /* interrupt queued to the guest */
    PATH_HEAVY = 1 << 5,    /* to QEMU: vcpu_put/load */
    PATH_TICK = 1 << 6,     /* host decrementer serviced */
    PATH_IRQ = 1 << 7,      /* host device interrupt serviced */
    PATH_WAIT = 1 << 8,     /* guest idles (EMUL_WAIT) */
    PATH_MMIO = 1 << 9,     /* load/store emulated for QEMU */
    PATH_MAGIC = 1 << 10,   /* PV magic page mapped (DTLBPV) */
    PATH_SCHED = 1 << 11,   /* the vcpu thread can be scheduled out */
    PATH_HOSTPG = 1 << 12,  /* path_host_pages (hostpages_on_path) */
};

/* The PID a guest user process runs with until a tlbwe shows another: user
 * processes get PIDs from 1 (Linux 44x contexts; next_pid in the cpu440
 * guest, workloads/guest/kernel.c). */
#define COST_USER_PID  1u
#define ICLASS_CACHE   256
#define DECAY_STEPS    1024 /* exp(-x) table over [0, 16) in 1/64 steps */
#define EXPQ_BITS      12   /* exponential quantile table: 4096 buckets */
#define EXPQ_N         (1u << EXPQ_BITS)
#define ARR_BATCH      64   /* exits whose arrival draws are made at once */

struct cost_model {
    params p;
    tlb440 *tlb;
    /* one generator per purpose, so that a change of one cost does not
     * shift the draws of another (common random numbers for calibration):
     * guest runs, QEMU round trips, and the timed platform's host
     * interrupt work and preemption */
    gsl_rng *rng, *rng_qemu, *rng_work, *rng_pre;
    uint64_t core_hz, tb_hz;
    double tb_per_cycle;

    /* per type, precomputed */
    unsigned path[EXIT__COUNT];
    uint64_t fixed[EXIT__COUNT][CSTAGE__COUNT];
    uint64_t fixed_handler[EXIT__COUNT], fixed_guest[EXIT__COUNT];
    uint64_t emul[INSN__COUNT], spr[4];
    uint64_t scan_all, ref_scan, line_bytes;
    double data_lines;
    unsigned icache_lines;
    double cpi;

    /* results: stage cycles of every costed exit by the row that charges
     * it: fixed[t] x nfixed[t] (guest-side stages: nfixed[t] -
     * nfixed_meas[t]) plus var[t]; an exit a signal turned into SIGNAL has
     * its path's fixed stages in var[SIGNAL]. */
    uint64_t var[EXIT__COUNT][CSTAGE__COUNT];
    uint64_t count[EXIT__COUNT], nfixed[EXIT__COUNT];
    uint64_t nfixed_meas[EXIT__COUNT];
    /* exits whose guest time came from the trace: their guest-side fixed
     * stages (stub, tail) are inside the measured time, not added */
    uint64_t count_measured[EXIT__COUNT];
    /* the last exit costed, which the kernel has not charged yet (it
     * charges an exit when the next one comes): its varying stages (only
     * those in k_varying are kept), the path whose fixed stages it paid,
     * the row it is charged to and whether its guest time was measured */
    uint64_t cur[CSTAGE__COUNT];
    int cur_from, cur_row; /* -1: none */
    bool cur_measured;
    int guest_mode; /* cost_guest_mode */
    bool units_only; /* cost_new_units: no guest quantile table */
    /* unit-cost features (cost_feature_sum): the current exit's in fcur[]
     * (dirty bits in fmask), committed to feat[] by the next exit, so the
     * last exit - which the accounting never charges - is left out */
    bool track;
    int ftype;
    uint64_t fmask;
    uint64_t fcur[CFEAT__COUNT];
    uint64_t feat[EXIT__COUNT][CFEAT__COUNT];

    /* state */
    uint64_t now; /* cycles since reset */
    double dcold; /* fraction of handler data lines cold at the next exit */
    bool thrash;  /* this exit ran host work or QEMU: caches lost */
    uint64_t last_g; /* guest cycles after the last exit (whatif extends) */
    bool iccci;      /* every entry invalidates the I-cache */
    bool mmio_in_kernel, lazy_tlb; /* what-if policies (cost.h) */
    uint64_t icache_warm[EXIT__COUNT]; /* !iccci: handler lines x miss */
    double handler_lines[EXIT__COUNT];
    uint64_t last_qemu; /* QEMU cycles of the last cost_exit */
    hostpages hp; /* the host's own UTLB fills (model/hostpages) */
    unsigned assumed;
    int internal_host;
    uint64_t tick_period;
    gsl_rng *rng_exit; /* per-exit host arrivals (taus2: cheap to seed) */
    uint64_t exit_index, exit_seed;
    /* for exits arr_base .. arr_base + ARR_BATCH - 1 (arr_n of them
     * valid), the earlier of the first host tick and device interrupt
     * their generators' first two raw draws put in the exit (cycles) */
    uint64_t arr_base;
    unsigned arr_n;
    double arr_first[ARR_BATCH];
    double irq_mean; /* cycles between device interrupts */
    double stall_rate; /* host stalls per cycle of handler time */
    uint64_t guest_tick_period;
    /* Off-CPU time of the vcpu thread served in the exit in progress (a
     * preemption, woken work at its scheduling point), and the woken work
     * pending until the next exit that has a scheduling point */
    bool cur_sched;
    uint64_t served, pend_work;
    uint32_t ic_key[ICLASS_CACHE];
    uint8_t ic_val[ICLASS_CACHE], ic_ok[ICLASS_CACHE];
    double decay[DECAY_STEPS + 1];
    double decay_scale; /* 64 / dcache_decay_cycles */
    /* hot-path parameters as integers (a double->integer conversion per
     * use costs more than the arithmetic) */
    double k_host_miss;
    uint64_t k_icache_miss, k_dtlb_shadow, k_shadow_refill;
    uint64_t k_tail_cold; /* the entry tail's lines, cold after an iccci */
    uint64_t k_guest_lines, k_scan;
    double k_guest_lines_d; /* guest_code_lines as a real (calibration) */
    uint8_t scan_lines[TLB440_MAX + 1]; /* D-cache lines of n 16-byte
                                           guest TLB entries */
    double k_guest_insns, k_guest_cpi;
    /* Guest instructions between exits at the quantiles u = i / EXPQ_N of
     * their distribution (exponential, or lognormal when guest_sigma > 0):
     * the per-exit guest run is drawn by inverting the CDF from one GSL
     * uniform, interpolated inside a bucket, exact in the last one. */
    double gq[EXPQ_N + 1];
    double ln_mu, ln_sigma; /* lognormal parameters; sigma 0: exponential */
};

_Static_assert(CFEAT__COUNT <= 64, "fmask holds one bit per feature");

static inline void feat_add(cost_model *m, unsigned j, uint64_t n)
{
    if (m->track) {
        m->fcur[j] += n;
        m->fmask |= 1ull << j;
    }
}

/* The previous exit is charged now: its features become committed. */
static void feat_commit(cost_model *m, int type)
{
    uint64_t mask = m->fmask;
    while (mask) {
        unsigned j = (unsigned)__builtin_ctzll(mask);
        mask &= mask - 1;
        m->feat[m->ftype][j] += m->fcur[j];
        m->fcur[j] = 0;
    }
    m->fmask = 0;
    m->ftype = type;
}

static const char *const stage_names[] = {
#define X(n, g, s) #n,
    COST_STAGES(X)
#undef X
};
static const int stage_guest[] = {
#define X(n, g, s) g,
    COST_STAGES(X)
#undef X
};

const char *cost_stage_name(cost_stage s)
{
    return stage_names[s];
}
int cost_stage_guest_side(cost_stage s)
{
    return stage_guest[s];
}

static unsigned path_of(exit_type t)
{
    unsigned p = 0;
    int irq = exit_default_irq(t);
    if (irq == BOOKE_IRQ_PROGRAM || irq == BOOKE_IRQ_DTLB_MISS ||
        irq == BOOKE_IRQ_DEBUG)
        p |= PATH_LASTINST;
    if (exit_is_emul(t) || t == EXIT_EMULINST || t == EXIT_DCR)
        p |= PATH_EMUL;
    switch (t) {
    case EXIT_ITLBVIRT:
    case EXIT_DTLBVIRT: p |= PATH_TLBMISS | PATH_MAP; break;
    case EXIT_DTLBPV: p |= PATH_MAGIC; break; /* checked before the search */
    case EXIT_ITLBREAL:
    case EXIT_DTLBREAL: p |= PATH_TLBMISS | PATH_REFLECT; break;
    case EXIT_MMIO: p |= PATH_TLBMISS | PATH_MMIO; break;
    case EXIT_SYSCALL:
    case EXIT_ISI:
    case EXIT_DSI:
    case EXIT_USR_PR_INST:
    case EXIT_FP_UNAVAIL:
    case EXIT_HCALL: p |= PATH_REFLECT; break;
    case EXIT_DEC: p |= PATH_TICK; break;
    case EXIT_EXTINT: p |= PATH_IRQ; break;
    case EXIT_EMUL_WAIT: p |= PATH_WAIT; break;
    default: break;
    }
    if (exit_flags(t) & EXF_HEAVY)
        p |= PATH_HEAVY;
    if (hostpages_on_path(t))
        p |= PATH_HOSTPG;
    /* Scheduling points of the vcpu thread (docs/cost-model.md, "Host
     * work"): cond_resched() in the EXTINT and DEC cases of
     * kvmppc_handle_exit, get_user_pages' cond_resched() under
     * gfn_to_page (VIRT misses), kvm_vcpu_block (EMUL_WAIT), the return to
     * user space (heavy exits). The other light exits have none. */
    if (p & (PATH_MAP | PATH_TICK | PATH_IRQ | PATH_WAIT | PATH_HEAVY))
        p |= PATH_SCHED;
    return p;
}

/* Cycles from a double. Through int64_t: x86 converts signed 64-bit
 * integers in one instruction, unsigned ones in a branchy sequence. */
static uint64_t cyc(double x)
{
    /* x <= 0 (and NaN) give 0: x > 0 ? x : 0 is SSE2's maxsd, which the
     * compiler would not use by itself (a branch, mispredicted where x is
     * sometimes 0) */
#ifdef __SSE2__
    double y = _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(x), _mm_setzero_pd()));
#else
    double y = x > 0 ? x : 0.0;
#endif
    return (uint64_t)(int64_t)(y + 0.5);
}
static double dbl(uint64_t c)
{
    return (double)(int64_t)c;
}

/* Everything that does not depend on state, per exit type. */
static void precompute(cost_model *m)
{
    const params *p = &m->p;
    double cpi = m->cpi = P(p, cpi);
    m->line_bytes = (uint64_t)P(p, cache_line_bytes);
    m->icache_lines = (unsigned)(P(p, icache_bytes) / P(p, cache_line_bytes));
    /* cost parameters enter as reals (rounded once per stage), so that a
     * fit can move them smoothly; whole values give whole products */
    double missd = P(p, icache_miss_cycles);
    uint64_t miss = cyc(missd);
    m->scan_all = (uint64_t)(P(p, gtlb_entries) * P(p, tlb_scan_cycles));
    /* the shadow-ref loops run over slots 0..hwater */
    m->ref_scan = (uint64_t)((P(p, utlb_entries) - P(p, utlb_pinned)) *
                             P(p, tlb_scan_cycles));
    m->data_lines = P(p, common_data_lines);

    uint64_t dec = cyc(cpi * P(p, decode_insns));
    for (int c = 0; c < INSN__COUNT; c++) {
        double n = 0;
        switch ((insn_class)c) {
        case INSN_MFMSR:
        case INSN_WRTEE: n = P(p, emul_msr_insns); break;
        case INSN_MTMSR: n = P(p, emul_mtmsr_insns); break;
        case INSN_RFI: n = P(p, emul_rfi_insns); break;
        case INSN_TLBWE: n = P(p, emul_tlbwe_insns); break;
        case INSN_TLBSX: n = P(p, emul_tlbsx_insns); break;
        case INSN_CACHE:
        case INSN_TLBRE: n = P(p, emul_cache_insns); break;
        case INSN_DCR: n = P(p, emul_dcr_insns); break;
        case INSN_LOADSTORE: n = P(p, emul_mmio_insns); break;
        case INSN_TRAP:
        case INSN_ILLEGAL: n = P(p, reflect_insns); break;
        case INSN_MFSPR:
        case INSN_MTSPR: n = 0; break; /* by SPR group */
        default: break;
        }
        m->emul[c] = dec + cyc(cpi * n);
    }
    m->spr[SPRG_GENERIC] = dec + cyc(cpi * P(p, emul_spr_gen_insns));
    m->spr[SPRG_BOOKE] = dec + cyc(cpi * P(p, emul_spr_booke_insns));
    m->spr[SPRG_TIMER] = dec + cyc(cpi * P(p, emul_spr_timer_insns));
    m->spr[SPRG_MMU] = dec + cyc(cpi * P(p, emul_spr_mmu_insns));

    m->k_tail_cold = cyc(P(p, tail_code_lines) * missd);
    for (int t = 0; t < EXIT__COUNT; t++) {
        unsigned pa = path_of((exit_type)t);
        if (t == EXIT_MMIO && m->mmio_in_kernel) {
            /* served by an in-kernel device: a light exit, which has no
             * return to user space and so no scheduling point either (the
             * MMIO path has none of the others) */
            pa &= ~(unsigned)PATH_HEAVY;
            if (!(pa & (PATH_MAP | PATH_TICK | PATH_IRQ | PATH_WAIT)))
                pa &= ~(unsigned)PATH_SCHED;
        }
        m->path[t] = pa;
        uint64_t *f = m->fixed[t];
        memset(f, 0, sizeof m->fixed[t]);
        if (t == EXIT_TIMEINGUEST)
            continue;
        f[CSTAGE_exit_asm] =
            cyc(cpi * (P(p, exit_asm_insns) +
                       (pa & PATH_LASTINST ? P(p, lastinst_insns) : 0)));
        f[CSTAGE_timing] =
            cyc(P(p, timing_divides) * P(p, do_div_cycles));
        f[CSTAGE_dispatch] = cyc(cpi * P(p, dispatch_insns));
        double lines = P(p, common_code_lines);
        if (pa & (PATH_EMUL | PATH_MMIO))
            lines += P(p, emul_code_lines);
        if (pa & PATH_TLBMISS)
            lines += P(p, tlbmiss_code_lines);
        if (pa & (PATH_MAP | PATH_MAGIC))
            lines += P(p, map_code_lines);
        if (pa & PATH_REFLECT)
            lines += P(p, reflect_code_lines);
        if (pa & PATH_HEAVY)
            lines += P(p, heavy_code_lines);
        if (pa & (PATH_TICK | PATH_IRQ))
            lines += P(p, hostirq_code_lines);
        if (lines > m->icache_lines)
            lines = m->icache_lines;
        f[CSTAGE_icache] = cyc(lines * dbl(miss)); /* (real lines: a fit's
                                                      small steps show) */
        /* without the iccci of every entry (what-if no-iccci) the handler's
         * lines survive the guest run like its data lines (cost_exit) */
        m->icache_warm[t] = 0;
        m->handler_lines[t] = lines;
        if (!m->iccci) {
            m->icache_warm[t] = f[CSTAGE_icache];
            f[CSTAGE_icache] = 0;
        }
        if (pa & PATH_TLBMISS)
            f[CSTAGE_tlbsearch] = cyc(cpi * P(p, tlbmiss_insns));
        if (pa & PATH_MAP)
            f[CSTAGE_shadowmap] = cyc(cpi * P(p, map_insns)) +
                                  cyc(P(p, gfn_to_page_cycles)) +
                                  cyc(4 * P(p, tlbwe_cycles));
        if (pa & PATH_MAGIC) /* the shared page needs no gfn_to_page */
            f[CSTAGE_shadowmap] =
                cyc(cpi * P(p, map_insns)) + cyc(4 * P(p, tlbwe_cycles));
        if (pa & PATH_MMIO)
            f[CSTAGE_emulate] = m->emul[INSN_LOADSTORE] *
                                (t == EXIT_MMIO && m->mmio_in_kernel ? 2 : 1);
        if (pa & PATH_REFLECT)
            f[CSTAGE_reflect] = cyc(cpi * P(p, reflect_insns));
        if (pa & PATH_HEAVY)
            f[CSTAGE_heavy] = cyc(cpi * P(p, ioctl_insns));
        f[CSTAGE_resume] = cyc(cpi * P(p, resume_insns)) +
                           (m->iccci ? cyc(P(p, iccci_cycles)) : 0);
        if (m->lazy_tlb) /* 2.6.28: shadow_tlb_mod[] tested on every entry */
            f[CSTAGE_resume] += cyc((P(p, utlb_entries) - P(p, utlb_pinned)) *
                                    P(p, tlb_scan_cycles));
        f[CSTAGE_stub] = cyc(cpi * P(p, stub_insns)) +
                         cyc(P(p, stub_code_lines) * missd);
        /* the tail runs right after the iccci: every line of it is cold
         * (without the iccci it is the code the last entry fetched) */
        f[CSTAGE_tail] = cyc(cpi * P(p, entry_tail_insns)) +
                         (m->iccci ? m->k_tail_cold : 0);
        m->fixed_handler[t] = m->fixed_guest[t] = 0;
        for (int s = 0; s < CSTAGE__COUNT; s++) {
            if (stage_guest[s])
                m->fixed_guest[t] += f[s];
            else
                m->fixed_handler[t] += f[s];
        }
    }
    for (int i = 0; i <= DECAY_STEPS; i++)
        m->decay[i] = 1.0 - exp(-(double)i / 64.0);
    m->decay_scale = 64.0 / P(p, dcache_decay_cycles);
    m->k_host_miss = P(p, host_tlb_miss_cycles);
    m->k_icache_miss = miss;
    m->k_dtlb_shadow = (uint64_t)P(p, dtlb_shadow);
    m->k_shadow_refill = (uint64_t)P(p, shadow_refill_cycles);
    m->k_guest_lines = (uint64_t)P(p, guest_code_lines);
    m->k_guest_lines_d = P(p, guest_code_lines);
    m->k_scan = (uint64_t)P(p, tlb_scan_cycles);
    m->k_guest_insns = P(p, guest_insns);
    for (unsigned n = 0; n <= TLB440_MAX; n++)
        m->scan_lines[n] =
            (uint8_t)((n * 16 + m->line_bytes - 1) / m->line_bytes);
    m->k_guest_cpi = P(p, guest_cpi);
    double mean = P(p, guest_insns), sg = P(p, guest_sigma);
    m->ln_sigma = sg;
    m->ln_mu = mean > 0 ? log(mean) - sg * sg / 2 : 0;
    if (m->units_only) /* no guest runs are drawn: no quantile table */
        return;
    for (unsigned i = 0; i < EXPQ_N; i++) {
        double u = (double)i / EXPQ_N;
        if (sg > 0)
            m->gq[i] = i ? exp(m->ln_mu + sg * gsl_cdf_ugaussian_Pinv(u)) : 0;
        else
            m->gq[i] = -mean * log1p(-u);
    }
    m->gq[EXPQ_N] = m->gq[EXPQ_N - 1];
}

static sim_err create(cost_model **mp, const params *p, bool units_only);

sim_err cost_new(cost_model **mp, const params *p)
{
    return create(mp, p, false);
}

sim_err cost_new_units(cost_model **mp, const params *p)
{
    return create(mp, p, true);
}

static sim_err create(cost_model **mp, const params *p, bool units_only)
{
    *mp = NULL;
    /* the constraints between values (whole cache lines), whoever resolved
     * them */
    sim_err ce = params_check(p);
    if (ce != SIM_OK)
        return ce;
    cost_model *m = calloc(1, sizeof *m);
    if (!m)
        return sim_fail(SIM_ERR_NOMEM, "cost: out of memory");
    m->p = *p;
    tlb440_config tc = {
        (unsigned)P(p, gtlb_entries), (unsigned)P(p, utlb_entries),
        (unsigned)P(p, utlb_pinned), (uint64_t)P(p, guest_ram_mb) << 20, false};
    sim_err e = tlb440_new(&m->tlb, &tc);
    if (e != SIM_OK) {
        free(m);
        return e;
    }
    m->rng = gsl_rng_alloc(gsl_rng_mt19937);
    m->rng_qemu = gsl_rng_alloc(gsl_rng_mt19937);
    m->rng_pre = gsl_rng_alloc(gsl_rng_mt19937);
    m->rng_work = gsl_rng_alloc(gsl_rng_mt19937);
    m->rng_exit = gsl_rng_alloc(gsl_rng_taus2);
    if (!m->rng || !m->rng_qemu || !m->rng_pre ||
        !m->rng_work || !m->rng_exit) {
        gsl_rng_free(m->rng_exit);
        gsl_rng_free(m->rng_work);
        gsl_rng_free(m->rng);
        gsl_rng_free(m->rng_qemu);
        gsl_rng_free(m->rng_pre);
        tlb440_free(m->tlb);
        free(m);
        return sim_fail(SIM_ERR_NOMEM, "cost: out of memory");
    }
    m->internal_host = 1;
    m->iccci = true;
    m->units_only = units_only;
    hostpages_init(&m->hp, (unsigned)P(p, common_host_pages),
                   (unsigned)P(p, path_host_pages),
                   (unsigned)P(p, qemu_host_pages),
                   (unsigned)P(p, hostirq_host_pages), m->tlb);
    precompute(m);
    cost_reset(m, 0, 0);
    *mp = m;
    return SIM_OK;
}

void cost_free(cost_model *m)
{
    if (!m)
        return;
    tlb440_free(m->tlb);
    gsl_rng_free(m->rng);
    gsl_rng_free(m->rng_qemu);
    gsl_rng_free(m->rng_pre);
    gsl_rng_free(m->rng_work);
    gsl_rng_free(m->rng_exit);
    free(m);
}

/* Guest instructions until the next exit (see gq). */
static uint64_t draw_guest(cost_model *m)
{
    assert(!m->units_only);
    if (m->k_guest_insns <= 0)
        return 0;
    double u = gsl_rng_uniform(m->rng) * EXPQ_N;
    unsigned i = (unsigned)u;
    if (i >= EXPQ_N - 1) { /* the tail, exactly */
        double q = u / EXPQ_N;
        return cyc(m->ln_sigma > 0
                       ? exp(m->ln_mu + m->ln_sigma * gsl_cdf_ugaussian_Pinv(q))
                       : -m->k_guest_insns * log1p(-q));
    }
    double f = u - i;
    return cyc(m->gq[i] + f * (m->gq[i + 1] - m->gq[i]));
}

void cost_reset(cost_model *m, uint64_t tb_hz, uint64_t core_hz)
{
    const params *p = &m->p;
    m->core_hz = core_hz ? core_hz : (uint64_t)P(p, core_hz);
    m->tb_hz = tb_hz ? tb_hz : m->core_hz;
    m->tb_per_cycle = (double)m->tb_hz / (double)m->core_hz;
    tlb440_reset(m->tlb);
    /* The guest's PID (docs/cost-model.md, "Guest PID"): a trace carries no
     * mtspr PID value, and a guest user process never runs with PID 0, so
     * user-mode misses are looked up (and their assumed guest entries
     * tagged) with a user PID; see cost_state for how it follows the
     * guest's tlbwe. */
    tlb440_set_pid(m->tlb, COST_USER_PID);
    unsigned long seed = (unsigned long)P(p, seed);
    gsl_rng_set(m->rng, seed);
    gsl_rng_set(m->rng_qemu, seed ^ 0x51ed270bUL);
    gsl_rng_set(m->rng_pre, seed ^ 0x9e3779b9UL);
    gsl_rng_set(m->rng_work, seed ^ 0x6c8e9cf5UL);
    memset(m->var, 0, sizeof m->var);
    memset(m->count, 0, sizeof m->count);
    memset(m->count_measured, 0, sizeof m->count_measured);
    memset(m->nfixed, 0, sizeof m->nfixed);
    memset(m->nfixed_meas, 0, sizeof m->nfixed_meas);
    memset(m->feat, 0, sizeof m->feat);
    memset(m->fcur, 0, sizeof m->fcur);
    m->fmask = 0;
    m->ftype = 0;
    memset(m->cur, 0, sizeof m->cur);
    m->cur_from = m->cur_row = -1;
    m->cur_measured = false;
    memset(m->ic_ok, 0, sizeof m->ic_ok);
    hostpages_reset(&m->hp);
    m->now = 0;
    m->dcold = 1.0; /* the first exit finds nothing of the handler's data */
    m->assumed = 0;
    double hz = (double)m->core_hz;
    m->tick_period = P(p, host_tick_hz) > 0 ? cyc(hz / P(p, host_tick_hz)) : 0;
    m->exit_index = 0;
    m->arr_n = 0;
    m->exit_seed = seed * 0xbf58476d1ce4e5b9ULL + 0x94d049bb133111ebULL;
    double irq_hz = P(p, host_irq_hz) * P(p, host_irq_exit_share);
    m->irq_mean = irq_hz > 0 ? hz / irq_hz : 0;
    m->stall_rate = P(p, stall_hz) / (double)m->core_hz;
    m->guest_tick_period = cyc(hz / P(p, guest_hz));
    m->cur_sched = false;
    m->served = m->pend_work = 0;
}

tlb440 *cost_tlb(cost_model *m)
{
    return m->tlb;
}
const params *cost_params(const cost_model *m)
{
    return &m->p;
}
uint64_t cost_core_hz(const cost_model *m)
{
    return m->core_hz;
}
void cost_set_internal_host(cost_model *m, int on)
{
    m->internal_host = on;
}

uint64_t cost_to_ticks(const cost_model *m, uint64_t cycles)
{
    if (m->tb_hz == m->core_hz)
        return cycles;
    return (uint64_t)((double)cycles * m->tb_per_cycle);
}

void cost_state(cost_model *m, const trace_rec *r)
{
    if (r->kind == TREC_GTLB_WRITE && r->type < P(&m->p, gtlb_entries)) {
        tlb440_entry e = {r->irq, r->pc, r->inst, r->addr};
        tlb440_gtlb_write(m->tlb, r->type, &e);
        /* Linux (and the cpu440 guest) writes a user entry with TID = the
         * current PID (MMUCR[STID] from PID): a non-zero TID other than the
         * PID the model holds means the guest switched process. The
         * switch's mtspr PID released the TID-0 shadows (docs/kvm440.md
         * §3); the model does it here, at the first write that shows it. */
        unsigned tid = tlbw_tid(r->irq);
        if (tid != 0 && tid != tlb440_pid(m->tlb))
            tlb440_set_pid(m->tlb, tid);
    }
}

/* The cycles of n host misses (the feature counts them). */
static uint64_t host_misses(cost_model *m, unsigned misses)
{
    feat_add(m, CFEAT_hostmiss, misses);
    if (!misses) /* skip the conversion's latency */
        return 0;
    return cyc(misses * m->k_host_miss);
}

/* Pages touched by QEMU or another host task (hostpages_other_task). */
static uint64_t other_task_pages(cost_model *m, unsigned n)
{
    unsigned misses = hostpages_other_task(&m->hp, m->tlb, n);
    feat_add(m, CFEAT_hostmiss, misses);
    return cyc(misses * P(&m->p, host_tlb_miss_cycles));
}

static uint64_t lognormal_usec(cost_model *m, gsl_rng *r, double median,
                               double sigma)
{
    if (median <= 0)
        return 0;
    double us = sigma > 0 ? gsl_ran_lognormal(r, log(median), sigma) : median;
    return cyc(us * (double)m->core_hz / 1e6);
}

/* The stages that vary from exit to exit (the others are fixed[] per
 * path): handler_terms, the guest run and the host work added to the exit
 * in progress. */
static const cost_stage k_varying[] = {
    CSTAGE_utlb,   CSTAGE_emulate, CSTAGE_tlbsearch, CSTAGE_shadowmap,
    CSTAGE_dcache, CSTAGE_heavy,   CSTAGE_qemu,      CSTAGE_wait,
    CSTAGE_icache, CSTAGE_guest,   CSTAGE_grefill,   CSTAGE_hostwork,
    CSTAGE_preempt, CSTAGE_reflect};
#define N_VARYING (sizeof k_varying / sizeof k_varying[0])

#ifndef NDEBUG
static bool is_varying(cost_stage s)
{
    for (size_t k = 0; k < N_VARYING; k++)
        if (k_varying[k] == s)
            return true;
    return false;
}
#endif

/* c more cycles of stage s for the exit in progress (cur[] of the other
 * stages stays 0). */
static void add_current(cost_model *m, cost_stage s, uint64_t c)
{
    assert(m->cur_row >= 0 && is_varying(s));
    m->var[m->cur_row][s] += c;
    m->cur[s] += c;
}

/* Host interrupt code and the pages its handlers touch. */
static uint64_t hostirq_common(cost_model *m)
{
    const params *p = &m->p;
    uint64_t c = cyc(P(p, hostirq_code_lines) * P(p, icache_miss_cycles));
    c += host_misses(m, hostpages_irq(&m->hp, m->tlb));
    feat_add(m, CFEAT_hostirq, 1);
    m->thrash = true;
    return c;
}

/* A device interrupt's woken work c (a task the interrupt woke: softirq
 * thread, QEMU's I/O thread) for the vcpu thread's CPU: run now if the
 * exit in progress has a scheduling point, else left pending for the next
 * exit that has one (docs/cost-model.md, "Host work"). */
static void woken_work(cost_model *m, uint64_t c)
{
    if (m->cur_sched) {
        add_current(m, CSTAGE_hostwork, c);
        m->served += c;
    } else
        m->pend_work += c;
}

/* At a scheduling point: what earlier exits left pending runs now. */
static void serve_pending(cost_model *m)
{
    if (m->pend_work) {
        add_current(m, CSTAGE_hostwork, m->pend_work);
        m->served += m->pend_work;
        m->thrash = true;
    }
    m->pend_work = 0;
}

/* The vcpu thread off the CPU for us microseconds (a preemption, a long
 * stall), served in the exit in progress; the other task refilled the UTLB
 * and the caches are lost. */
static void off_cpu_usec(cost_model *m, double us)
{
    uint64_t c = cyc(us * (double)m->core_hz / 1e6);
    add_current(m, CSTAGE_preempt, c);
    m->served += c;
    c = other_task_pages(m, (unsigned)P(&m->p, qemu_host_pages));
    add_current(m, CSTAGE_preempt, c);
    m->served += c;
    m->thrash = true;
}

/* Every host tick takes the same two draws whether it preempts or not: a
 * fixed uniform per tick decides (u < preempt_prob, monotone in it) and the
 * length is the Pareto inverse CDF of the other (common random numbers). */
static void preemption(cost_model *m, gsl_rng *r)
{
    const params *p = &m->p;
    double u = gsl_rng_uniform(r);
    double x = gsl_rng_uniform_pos(r);
    if (P(p, preempt_prob) <= 0 || u >= P(p, preempt_prob))
        return;
    /* Pareto with scale preempt_usec (gsl_ran_pareto's inversion) */
    double us = P(p, preempt_usec) * pow(x, -1.0 / P(p, preempt_alpha));
    if (us > P(p, preempt_max_usec))
        us = P(p, preempt_max_usec);
    /* taken where the tick lands, whatever the exit (docs/cost-model.md,
     * "Host work"); it does not widen the exit's arrival window */
    off_cpu_usec(m, us);
}

static uint64_t mix64(uint64_t z) /* splitmix64's finaliser */
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A long host stall inside the handler window of h cycles
 * (docs/cost-model.md, "Host work"): Poisson at stall_hz over the window.
 * One uniform per exit decides (at most one: the rate is far below one
 * per window), monotone in the window and the rate, and another gives the
 * Pareto length by its inverse CDF: common random numbers, so a fit's
 * small steps move a stall's length smoothly and add or drop one only
 * where the decision is at its threshold. */
static void host_stall(cost_model *m, uint64_t h)
{
    const params *p = &m->p;
    if (!(P(p, stall_hz) > 0))
        return;
    uint64_t z = mix64(m->exit_seed ^ 0x2545f4914f6cdd1dULL ^
                       (m->exit_index * 0x9e3779b97f4a7c15ULL));
    double u = (double)(z >> 11) * 0x1p-53;
    /* 1 - e^-w < w: u >= w decides nearly every exit without expm1 (a
     * faithful expm1 of -w is at most w too, so the verdict is the same) */
    double w = m->stall_rate * dbl(h);
    if (u >= w || u >= -expm1(-w))
        return;
    double x = ((double)(mix64(z) >> 11) + 0.5) * 0x1p-53;
    double us = P(p, stall_usec) * pow(x, -1.0 / P(p, stall_alpha));
    if (us > 1e7)
        us = 1e7;
    off_cpu_usec(m, us);
}

/* A host tick: its interrupt work is done where it arrives (returned),
 * and so is the preemption it may bring. */
static uint64_t host_tick(cost_model *m, exit_type type, gsl_rng *r)
{
    uint64_t c = cyc(P(&m->p, host_tick_cycles)) + hostirq_common(m);
    feat_add(m, CFEAT_tick, 1);
    assert((int)type == m->cur_from); /* the exit in progress */
    (void)type;
    add_current(m, CSTAGE_hostwork, c);
    preemption(m, r);
    return c;
}

/* A device interrupt: the handler (code refill, UTLB) runs where it
 * arrives (returned); the work it wakes (softirq thread, QEMU's I/O
 * thread: host_irq_usec) runs at a scheduling point. */
static uint64_t host_irq(cost_model *m, exit_type type, gsl_rng *r)
{
    uint64_t c = hostirq_common(m);
    assert((int)type == m->cur_from); /* the exit in progress */
    (void)type;
    add_current(m, CSTAGE_hostwork, c);
    woken_work(m, lognormal_usec(m, r, P(&m->p, host_irq_usec),
                                 P(&m->p, host_irq_sigma)));
    return c;
}

/* For the timed platform: the interrupt work and whatever it serves now. */
uint64_t cost_host_tick(cost_model *m, exit_type type)
{
    uint64_t s0 = m->served;
    uint64_t c = host_tick(m, type, m->rng_pre);
    return c + (m->served - s0);
}

uint64_t cost_host_irq(cost_model *m, exit_type type)
{
    uint64_t s0 = m->served;
    uint64_t c = host_irq(m, type, m->rng_work);
    return c + (m->served - s0);
}

static insn_class classify_inst(cost_model *m, uint32_t inst, exit_type t)
{
    if (inst == 0) { /* no instruction word: the row says what it was */
        switch (t) {
        case EXIT_EMUL_WAIT:
        case EXIT_EMUL_MTMSR: return INSN_MTMSR;
        case EXIT_EMUL_WRTEE: return INSN_WRTEE;
        case EXIT_EMUL_MTSPR: return INSN_MTSPR;
        case EXIT_EMUL_MFSPR: return INSN_MFSPR;
        case EXIT_EMUL_MFMSR: return INSN_MFMSR;
        case EXIT_EMUL_TLBSX: return INSN_TLBSX;
        case EXIT_EMUL_TLBWE: return INSN_TLBWE;
        case EXIT_EMUL_RFI: return INSN_RFI;
        case EXIT_DCR: return INSN_DCR;
        default: return INSN_MFSPR; /* pre-3.0 EMULINST: SRR/SPRG moves */
        }
    }
    unsigned h = (inst ^ (inst >> 11) ^ (inst >> 21)) & (ICLASS_CACHE - 1);
    if (m->ic_ok[h] && m->ic_key[h] == inst)
        return (insn_class)m->ic_val[h];
    insn_class c = insn440_decode(inst);
    m->ic_key[h] = inst;
    m->ic_val[h] = (uint8_t)c;
    m->ic_ok[h] = 1;
    return c;
}

/* The guest entry covering ea, or one assumed for a trace that carries no
 * guest tlbwe: a 16 MB entry (what Linux's kernel mappings use) written
 * into one of the top 8 guest slots in turn. */
static int guest_entry(cost_model *m, uint32_t ea, bool pr, unsigned *scanned)
{
    tlb440 *t = m->tlb;
    unsigned pid = tlb440_pid(t);
    int g = tlb440_gtlb_search(t, ea, 0, pid, scanned);
    if (g >= 0)
        return g;
    unsigned n = (unsigned)P(&m->p, gtlb_entries);
    unsigned idx = n - 1 - (m->assumed++ % (n < 8 ? n : 8));
    uint32_t epn = ea & ~((16u << 20) - 1u);
    uint64_t ram = (uint64_t)P(&m->p, guest_ram_mb) << 20;
    uint64_t ra = ((uint64_t)epn % ram) & ~(uint64_t)((16u << 20) - 1u);
    if (ra + (16u << 20) > ram)
        ra = 0;
    tlb440_entry e = {epn >= 0xc0000000u || !pr ? 0u : pid,
                      tlbw_make_w0(epn, TLBSZ_16M, true, 0), tlbw_make_w1(ra),
                      TLBW2_S_PERMS | TLBW2_U_PERMS};
    tlb440_gtlb_write(t, idx, &e);
    return (int)idx;
}

/* vcpu_put, the host and QEMU filling the UTLB, vcpu_load, QEMU time. */
static void heavy_terms(cost_model *m, exit_type t, uint64_t *v)
{
    const params *p = &m->p;
    m->thrash = true;
    unsigned put, load;
    unsigned misses =
        hostpages_round_trip(&m->hp, m->tlb, m->lazy_tlb, &put, &load);
    feat_add(m, CFEAT_hostmiss, misses);
    v[CSTAGE_utlb] += cyc(misses * P(p, host_tlb_miss_cycles));
    feat_add(m, CFEAT_put, put);
    feat_add(m, CFEAT_load, load);
    v[CSTAGE_heavy] +=
        cyc(put * P(p, vcpu_put_cycles) + load * P(p, vcpu_load_cycles));
    double med = t == EXIT_MMIO  ? P(p, qemu_mmio_usec)
                 : t == EXIT_DCR ? P(p, qemu_dcr_usec)
                                 : P(p, qemu_signal_usec);
    v[CSTAGE_qemu] += lognormal_usec(m, m->rng_qemu, med, P(p, qemu_sigma));
}

/* The fixed stage s of the exit in progress (a measured guest time holds
 * the guest-side ones). */
static uint64_t cur_fixed(const cost_model *m, int s)
{
    if (m->cur_measured && stage_guest[s])
        return 0;
    return m->fixed[m->cur_from][s];
}

/* The exit in progress is charged to row `to` instead (SIGNAL): its
 * stages so far move with it. */
static void retype_current(cost_model *m, int to)
{
    int from = m->cur_row;
    if (from == to)
        return;
    for (size_t k = 0; k < N_VARYING; k++) {
        cost_stage s = k_varying[k];
        m->var[from][s] -= m->cur[s];
        m->var[to][s] += m->cur[s];
    }
    if (from == m->cur_from) {
        m->nfixed[from]--;
        m->nfixed_meas[from] -= m->cur_measured;
    }
    for (int s = 0; s < CSTAGE__COUNT; s++) {
        if (from != m->cur_from)
            m->var[from][s] -= cur_fixed(m, s);
        m->var[to][s] += cur_fixed(m, s);
    }
    m->count[from]--;
    m->count[to]++;
    m->cur_row = to;
}

uint64_t cost_signal_tail(cost_model *m, exit_type t, uint64_t *qemu)
{
    const params *p = &m->p;
    uint64_t v[CSTAGE__COUNT] = {0};
    v[CSTAGE_heavy] = cyc(m->cpi * P(p, ioctl_insns));
    v[CSTAGE_icache] = cyc(P(p, heavy_code_lines) * P(p, icache_miss_cycles));
    heavy_terms(m, EXIT_SIGNAL, v);
    uint64_t other = 0;
    assert((int)t == m->cur_from); /* the exit in progress */
    (void)t;
    retype_current(m, EXIT_SIGNAL); /* the kernel's last writer */
    for (int s = 0; s < CSTAGE__COUNT; s++) {
        if (v[s])
            add_current(m, (cost_stage)s, v[s]);
        if (s != CSTAGE_qemu)
            other += v[s];
    }
    *qemu = v[CSTAGE_qemu];
    return other;
}

/* State-dependent handler terms into v[]; host work (accounted to its
 * stages by cost_host_*) is added to *host. */
static void handler_terms(cost_model *m, const trace_rec *r, exit_type t,
                          uint64_t *v, uint64_t *host)
{
    const params *p = &m->p;
    unsigned pa = m->path[t];
    bool pr = (r->flags & TRF_GUEST_PR) != 0;
    double data_lines = m->data_lines;

    /* UTLB: the module pages every exit touches, plus the path's own */
    v[CSTAGE_utlb] =
        host_misses(m, hostpages_touch(&m->hp, &m->hp.common, m->tlb));
    if (pa & PATH_HOSTPG)
        v[CSTAGE_utlb] +=
            host_misses(m, hostpages_touch(&m->hp, &m->hp.path, m->tlb));

    if (pa & PATH_EMUL) {
        insn_class c = classify_inst(m, r->inst, t);
        if (c == INSN_MFSPR || c == INSN_MTSPR) {
            unsigned spr = r->inst ? insn440_spr(r->inst) : 272;
            spr_group g = insn440_spr_group(spr);
            v[CSTAGE_emulate] = m->spr[g];
            feat_add(m, CFEAT_spr0 + g, 1);
            if (g == SPRG_MMU && spr == 48 && c == INSN_MTSPR) {
                v[CSTAGE_tlbsearch] = m->ref_scan; /* PID: TID-0 release */
                feat_add(m, CFEAT_refscan, 1);
            }
        } else {
            v[CSTAGE_emulate] = m->emul[c];
            feat_add(m, CFEAT_emul0 + c, 1);
            if (c == INSN_TLBWE) { /* release scan of the old entry's refs */
                v[CSTAGE_tlbsearch] = m->ref_scan;
                feat_add(m, CFEAT_refscan, 1);
            } else if (c == INSN_TLBSX) {
                v[CSTAGE_tlbsearch] = m->scan_all;
                feat_add(m, CFEAT_scanall, 1);
                data_lines += dbl((uint64_t)P(p, gtlb_entries) * 16 /
                                  m->line_bytes);
            }
        }
    }
    if (pa & PATH_TLBMISS) {
        /* an instruction miss without an address: at the pc (a select:
         * which it is varies from exit to exit) */
        uint32_t ea = r->addr, pc = r->pc;
        bool itlb = t == EXIT_ITLBVIRT || t == EXIT_ITLBREAL;
        uint32_t use_pc = -(uint32_t)(itlb & (ea == 0));
        ea = (pc & use_pc) | (ea & ~use_pc);
        unsigned scanned = 0;
        int g;
        if (pa & PATH_MAP)
            g = guest_entry(m, ea, pr, &scanned);
        else
            g = tlb440_gtlb_search(m->tlb, ea, 0, tlb440_pid(m->tlb), &scanned);
        v[CSTAGE_tlbsearch] += scanned * m->k_scan;
        feat_add(m, CFEAT_scan, scanned);
        data_lines += m->scan_lines[scanned];
        if ((pa & PATH_MAP) && g >= 0) {
            tlb440_map_info mi;
            tlb440_map(m->tlb, ea, (unsigned)g, pr, &mi);
            if (mi.released) {
                v[CSTAGE_shadowmap] = cyc(P(p, release_cycles));
                feat_add(m, CFEAT_release, 1);
            }
        }
    }
    if (pa & PATH_MAGIC) {
        /* Linux maps the magic page at EA = PA = -4096 */
        uint32_t ea = r->addr ? r->addr : 0xfffff000u;
        tlb440_map_info mi;
        tlb440_map_magic(m->tlb, ea, 0xfffff000u, &mi);
        if (mi.released) {
            v[CSTAGE_shadowmap] = cyc(P(p, release_cycles));
            feat_add(m, CFEAT_release, 1);
        }
    }
    /* handler data the guest evicted since the last exit */
    double cold = data_lines * m->dcold;
    v[CSTAGE_dcache] = cyc(cold * P(p, dcache_miss_cycles));

    if (pa & PATH_HEAVY)
        heavy_terms(m, t, v);
    if (pa & PATH_TICK) /* the exit is the host tick itself */
        *host += host_tick(m, t, m->rng_pre);
    if (pa & PATH_IRQ)
        *host += host_irq(m, t, m->rng_work);
    /* the guest idles until its next tick: EMUL_WAIT, or the SIGNAL a
     * signal made of one (TRF_IDLE) */
    if ((pa & PATH_WAIT || (r->flags & TRF_IDLE)) && m->guest_tick_period)
        v[CSTAGE_wait] = m->guest_tick_period - m->now % m->guest_tick_period;
}

/* taus2_first2 for the arrival batches; where the compiler can, also built
 * for AVX2 and picked at load time (integer lanes: the same draws). */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
__attribute__((target_clones("avx2", "default")))
#endif
#endif
static void arrival_draws(const uint32_t *w, uint32_t *x1, uint32_t *x2)
{
    taus2_first2(w, ARR_BATCH, x1, x2);
}

static unsigned long exit_seed_of(const cost_model *m, uint64_t index)
{
    return (unsigned long)(m->exit_seed ^ (index * 0x9e3779b97f4a7c15ULL));
}

/* Host ticks/interrupts arriving while the handler runs have their handlers
 * run in it (local_irq_enable inside the exit), which lengthens the window
 * by the handler only; a tick's preemption is served where it lands, a
 * device interrupt's woken work at the next scheduling point
 * (docs/cost-model.md, "Host work"). Arrivals while the guest runs are the
 * trace's own DEC/EXTINT exits.
 *
 * Each exit draws its arrivals from its own generator, seeded by the seed
 * and the exit's index: a tick at a uniform phase of host_tick_hz's period,
 * device interrupts at exponential gaps of mean 1 / (host_irq_hz x
 * host_irq_exit_share), the work and preemption of each from the same
 * stream. Exits are far shorter than
 * either gap, so this is the arrival process seen from inside one exit; and
 * a change of one exit's length changes that exit's arrivals only, not
 * every later one as a shared clock would (common random numbers: the
 * calibration's finite differences stay smooth). */
static uint64_t internal_arrivals(cost_model *m, exit_type t, uint64_t h)
{
    double end = (double)h;
    /* Most exits see no arrival: their generator's first two draws, made
     * for ARR_BATCH exits at once (taus2.h), decide that without GSL. */
    uint64_t k = m->exit_index - m->arr_base;
    if (k >= m->arr_n) {
        uint32_t w[ARR_BATCH], x1[ARR_BATCH], x2[ARR_BATCH];
        for (unsigned i = 0; i < ARR_BATCH; i++)
            w[i] = taus2_seed_word(exit_seed_of(m, m->exit_index + i));
        arrival_draws(w, x1, x2);
        for (unsigned i = 0; i < ARR_BATCH; i++) {
            double t0 = m->tick_period
                            ? x1[i] / 4294967296.0 * (double)m->tick_period
                            : INFINITY;
            uint32_t x = m->tick_period ? x2[i] : x1[i];
            double i0 = m->irq_mean > 0
                            ? m->irq_mean * (x / 4294967296.0) * (1 - 1e-12)
                            : INFINITY;
            m->arr_first[i] = t0 < i0 ? t0 : i0;
        }
        m->arr_base = m->exit_index;
        m->arr_n = ARR_BATCH;
        k = 0;
    }
    if (m->arr_first[k] >= end)
        return 0;
    gsl_rng *r = m->rng_exit;
    gsl_rng_set(r, exit_seed_of(m, m->exit_index));
    double tick_at = m->tick_period
                         ? gsl_rng_uniform(r) * (double)m->tick_period
                         : INFINITY;
    /* The first device interrupt: gsl_ran_exponential(r, mean) is
     * -mean * log1p(-u) of one uniform u, at least mean * u. The uniform
     * is drawn here as GSL would; the logarithm is taken only once that
     * lower bound falls inside the window (rarely: exits are far shorter
     * than the gaps), so the draws and the arrival times are the same. */
    bool irq_lazy = m->irq_mean > 0;
    double irq_u = irq_lazy ? gsl_rng_uniform(r) : 0;
    double irq_at = irq_lazy ? m->irq_mean * irq_u * (1 - 1e-12) : INFINITY;
    uint64_t added = 0;
    for (;;) {
        if (irq_lazy && irq_at < end) {
            irq_at = -m->irq_mean * log1p(-irq_u);
            irq_lazy = false;
        }
        bool tick = tick_at <= irq_at;
        double at = tick ? tick_at : irq_at;
        if (at >= end || added > 10 * m->core_hz)
            break; /* (an overloaded host: stop after 10 s in one exit) */
        uint64_t c;
        if (tick) {
            c = host_tick(m, t, r);
            tick_at += (double)m->tick_period;
        } else {
            c = host_irq(m, t, r);
            irq_at += gsl_ran_exponential(r, m->irq_mean);
        }
        end += (double)c;
        added += c;
    }
    return added;
}

/* One exit; guest_cycles != COST_DRAW: the guest interval is that many
 * cycles (measured), not modelled from guest_insns. */
/* no-iccci: the share of the guest's I-cache lines an exit's handler code
 * displaces (its lines over the cache's). */
static double icache_displaced(const cost_model *m, exit_type t)
{
    return m->handler_lines[t] >= m->icache_lines
               ? 1.0
               : m->handler_lines[t] / m->icache_lines;
}

/* The guest interval after an exit of type t whose run is n instructions:
 * the entry's fixed stages, the run (*run) and the refills (*refill; the
 * guest lines and shadow D-TLB entries it touched, *lines and *dtlb). */
static uint64_t run_interval(const cost_model *m, exit_type t, uint64_t n,
                             uint64_t *run, uint64_t *refill, uint64_t *lines,
                             uint64_t *dtlb)
{
    *run = cyc(dbl(n) * m->k_guest_cpi);
    *lines = (n + 7) / 8;
    uint64_t ic_refill = *lines * m->k_icache_miss;
    if (dbl(*lines) > m->k_guest_lines_d) { /* the cap, as a real: a fit's
                                               small steps show */
        *lines = m->k_guest_lines;
        ic_refill = cyc(m->k_guest_lines_d * dbl(m->k_icache_miss));
    }
    *dtlb = (n + 15) / 16;
    if (*dtlb > m->k_dtlb_shadow)
        *dtlb = m->k_dtlb_shadow;
    if (!m->iccci) /* only the guest lines the handler's code displaced */
        ic_refill = cyc(dbl(ic_refill) * icache_displaced(m, t));
    *refill = ic_refill + (1 + *dtlb) * m->k_shadow_refill;
    return m->fixed_guest[t] + *run + *refill;
}

/* The handler data the next exit finds cold, after a guest interval of
 * last_g cycles (all of it after a heavy exit or host work). */
static void set_dcold(cost_model *m)
{
    if (!m->thrash) {
        double x = dbl(m->last_g) * m->decay_scale;
        m->dcold = x >= DECAY_STEPS ? 1.0 : m->decay[(unsigned)x];
    } else
        m->dcold = 1.0;
}

void cost_guest_before(cost_model *m, uint64_t insns)
{
    if (!m->exit_index)
        return; /* no exit before: the model starts cold */
    uint64_t run, refill, lines, dtlb;
    m->last_g = run_interval(m, (exit_type)m->cur_from, insns, &run, &refill,
                             &lines, &dtlb);
    set_dcold(m);
}

static void exit_impl(cost_model *m, const trace_rec *r, uint64_t guest_insns,
                      uint64_t guest_cycles, uint64_t *handler,
                      uint64_t *guest)
{
    exit_type t = (exit_type)r->type;
    assert((unsigned)t < EXIT__COUNT);
    m->cur_from = m->cur_row = (int)t;
    if (m->track)
        feat_commit(m, (int)t);
    feat_add(m, CFEAT_exit, 1);
    m->cur[CSTAGE_hostwork] = m->cur[CSTAGE_preempt] = 0;
    m->cur[CSTAGE_reflect] = 0;
    /* only the varying stages are used; zeroing all of v costs a rep stos
     * per exit */
    uint64_t v[CSTAGE__COUNT], host = 0;
    v[CSTAGE_utlb] = v[CSTAGE_emulate] = v[CSTAGE_tlbsearch] = 0;
    v[CSTAGE_shadowmap] = v[CSTAGE_dcache] = v[CSTAGE_heavy] = 0;
    v[CSTAGE_qemu] = v[CSTAGE_wait] = v[CSTAGE_icache] = 0;
    m->thrash = false;
    /* drawn first: the guest run does not depend on the handler, and the
     * CPU overlaps its latency with the handler terms */
    bool measured = guest_cycles != COST_DRAW;
    uint64_t n = measured              ? 0
                 : guest_insns == COST_DRAW ? draw_guest(m)
                                            : guest_insns;
    m->served = 0;
    m->cur_sched = (m->path[t] & PATH_SCHED) != 0;
    /* (pending work first: rarely any, while which exits have a scheduling
     * point is as good as random - a branch on it mispredicts) */
    if (m->pend_work && m->cur_sched)
        serve_pending(m);
    handler_terms(m, r, t, v, &host);
    /* the handler stages handler_terms can set (the rest are fixed) */
    uint64_t h = m->fixed_handler[t] + host + v[CSTAGE_utlb] +
                 v[CSTAGE_emulate] + v[CSTAGE_tlbsearch] + v[CSTAGE_shadowmap] +
                 v[CSTAGE_dcache] + v[CSTAGE_heavy] + v[CSTAGE_qemu] +
                 v[CSTAGE_wait] + v[CSTAGE_icache];
    if (!m->iccci) { /* handler code the guest run evicted */
        uint64_t ic = cyc(dbl(m->icache_warm[t]) * m->dcold);
        v[CSTAGE_icache] += ic;
        h += ic;
    }
    uint64_t arr = 0;
    if (m->internal_host) {
        host_stall(m, h);
        arr = internal_arrivals(m, t, h);
    }
    /* the off-CPU time served in this exit; an idle vcpu (EMUL_WAIT, or
     * the SIGNAL a signal made of one) is off the CPU anyway: host work
     * done while it idles overlaps the wait, only what outlasts it delays
     * the entry */
    uint64_t off = m->served;
    h += arr;
    if (v[CSTAGE_wait]) {
        off += arr;
        h -= arr;
        uint64_t ov = off < v[CSTAGE_wait] ? off : v[CSTAGE_wait];
        v[CSTAGE_wait] -= ov;
        off -= ov;
    }
    h += off;
    m->exit_index++;
    m->now += h;

    uint64_t g;
    if (measured) { /* stub, tail, refill and run are all inside it */
        v[CSTAGE_guest] = g = guest_cycles;
        v[CSTAGE_grefill] = 0;
        if (!m->iccci) { /* what-if: the refill the iccci caused goes */
            /* (the entry tail's cold lines stay in it: an exit the
             * what-if inserted reaches the timed platform as if measured,
             * with the predicting model's interval, which has none) */
            uint64_t save = cyc(dbl(m->k_guest_lines * m->k_icache_miss) *
                                (1.0 - icache_displaced(m, t)));
            v[CSTAGE_guest] = g = g > save ? g - save : 0;
        }
        m->count_measured[t]++;
        m->nfixed_meas[t]++;
    } else {
        uint64_t lines, dtlb;
        g = run_interval(m, t, n, &v[CSTAGE_guest], &v[CSTAGE_grefill],
                         &lines, &dtlb);
        feat_add(m, CFEAT_gexit, 1);
        feat_add(m, CFEAT_glines, lines);
        feat_add(m, CFEAT_grefill, 1 + dtlb);
    }
    m->now += g;

    /* D-cache warmth for the next exit: decays with this guest interval;
     * a heavy exit or host work has already evicted everything. */
    m->last_g = g;
    set_dcold(m);

    m->cur_measured = measured;
    /* the first 11 of k_varying are v's; host work is added as it comes */
    uint64_t *acc = m->var[t];
    for (size_t k = 0; k < N_VARYING - 3; k++) {
        acc[k_varying[k]] += v[k_varying[k]];
        m->cur[k_varying[k]] = v[k_varying[k]];
    }
    m->count[t]++;
    m->nfixed[t]++;
    m->last_qemu = v[CSTAGE_qemu];
    *handler = h;
    *guest = g;
}

void cost_exit(cost_model *m, const trace_rec *r, uint64_t guest_insns,
               uint64_t *handler, uint64_t *guest)
{
    exit_impl(m, r, guest_insns, COST_DRAW, handler, guest);
}

void cost_set_guest_mode(cost_model *m, cost_guest_mode mode)
{
    m->guest_mode = mode;
}

bool cost_guest_from_trace(const cost_model *m, const trace_rec *r)
{
    return m->guest_mode == COST_GUEST_TRACE &&
           (r->flags & TRF_GUEST_KNOWN) != 0;
}

void cost_exit_replay(cost_model *m, const trace_rec *r, uint64_t *handler,
                      uint64_t *guest)
{
    if (!cost_guest_from_trace(m, r)) {
        /* a run length the trace gives in instructions is timed here */
        exit_impl(m, r, r->flags & TRF_GUEST_INSNS ? r->guest : COST_DRAW,
                  COST_DRAW, handler, guest);
        return;
    }
    /* ticks -> cycles for the model's clock and D-cache decay (the same
     * count when they run at one rate: cyc of a whole number is itself) */
    uint64_t c = m->tb_hz == m->core_hz
                     ? r->guest
                     : cyc((double)r->guest / m->tb_per_cycle);
    exit_impl(m, r, 0, c, handler, guest);
}

void cost_guest_counts(const cost_model *m, uint64_t *from_trace,
                       uint64_t *modelled)
{
    uint64_t a = 0, n = 0;
    for (int t = 0; t < EXIT__COUNT; t++) {
        a += m->count_measured[t];
        n += m->count[t];
    }
    *from_trace = a;
    *modelled = n - a;
}

void cost_set_iccci(cost_model *m, bool on)
{
    m->iccci = on;
    precompute(m);
}

void cost_set_mmio_in_kernel(cost_model *m, bool on)
{
    m->mmio_in_kernel = on;
    precompute(m);
}

void cost_set_lazy_tlb(cost_model *m, bool on)
{
    m->lazy_tlb = on;
    precompute(m);
}

uint64_t cost_guest_entry(const cost_model *m, exit_type t, uint64_t n)
{
    uint64_t run, refill, lines, dtlb;
    uint64_t g = run_interval(m, t, n, &run, &refill, &lines, &dtlb);
    return g - run;
}

uint64_t cost_refill_growth(const cost_model *m, exit_type t, uint64_t n,
                            uint64_t add)
{
    uint64_t run, r0, r1, lines, dtlb;
    run_interval(m, t, n, &run, &r0, &lines, &dtlb);
    run_interval(m, t, n + add, &run, &r1, &lines, &dtlb);
    return r1 > r0 ? r1 - r0 : 0;
}

uint64_t cost_guest_run(cost_model *m, const trace_rec *r, uint64_t *insns)
{
    uint64_t dummy;
    if (!insns)
        insns = &dummy;
    if (!cost_guest_from_trace(m, r)) {
        *insns = r->flags & TRF_GUEST_INSNS ? r->guest : draw_guest(m);
        return cyc(dbl(*insns) * m->k_guest_cpi);
    }
    *insns = 0;
    /* the measured interval less what belongs to the entry: stub, tail and
     * the refills, which grow with the run (guest lines, shadow D-TLB):
     * the run n whose modelled interval is the measured one, found by
     * bisection (the interval grows with n) */
    exit_type t = (exit_type)r->type;
    double c = m->tb_hz == m->core_hz ? (double)r->guest
                                      : (double)r->guest / m->tb_per_cycle;
    /* (the interval was measured with the iccci of every entry: without
     * it - what-if no-iccci - the tail's cold lines are in it but not in
     * this model's fixed stages) */
    double g = c - dbl(m->fixed_guest[t] + m->k_shadow_refill +
                       (m->iccci ? 0 : m->k_tail_cold));
    if (g <= 0 || m->k_guest_cpi <= 0)
        return 0;
    uint64_t lo = 0, hi = (uint64_t)(g / m->k_guest_cpi) + 1;
    while (lo < hi) {
        uint64_t n = (lo + hi + 1) / 2;
        uint64_t lines = (n + 7) / 8, dtlb = (n + 15) / 16;
        if (lines > m->k_guest_lines)
            lines = m->k_guest_lines;
        if (dtlb > m->k_dtlb_shadow)
            dtlb = m->k_dtlb_shadow;
        double f = dbl(n) * m->k_guest_cpi + dbl(lines * m->k_icache_miss) +
                   dbl(dtlb * m->k_shadow_refill);
        if (f <= g)
            lo = n;
        else
            hi = n - 1;
    }
    *insns = lo;
    return cyc(dbl(lo) * m->k_guest_cpi);
}

void cost_guest_extend(cost_model *m, uint64_t cycles)
{
    m->now += cycles;
    m->last_g += cycles;
    if (!m->thrash)
        set_dcold(m);
    /* (host arrivals are drawn per exit: nothing to skip) */
}

uint64_t cost_last_qemu(const cost_model *m)
{
    return m->last_qemu;
}

uint64_t cost_deliver(cost_model *m, exit_type t)
{
    uint64_t c = cyc(m->cpi * P(&m->p, reflect_insns));
    assert((int)t == m->cur_from); /* the exit in progress */
    (void)t;
    add_current(m, CSTAGE_reflect, c);
    return c;
}

uint64_t cost_stage_sum(const cost_model *m, exit_type type, cost_stage s)
{
    uint64_t n = m->nfixed[type];
    if (stage_guest[s])
        n -= m->nfixed_meas[type];
    return m->fixed[type][s] * n + m->var[type][s];
}

uint64_t cost_type_count(const cost_model *m, exit_type type)
{
    return m->count[type];
}

static uint64_t charged_sum(const cost_model *m, exit_type type,
                            cost_stage s)
{
    uint64_t c = cost_stage_sum(m, type, s);
    if (m->cur_row == (int)type)
        c -= cur_fixed(m, s) + m->cur[s];
    return c;
}

uint64_t cost_charged(const cost_model *m, exit_type type,
                      uint64_t sums[CSTAGE__COUNT])
{
    for (int s = 0; sums && s < CSTAGE__COUNT; s++)
        sums[s] = charged_sum(m, type, (cost_stage)s);
    return m->count[type] - (m->cur_row == (int)type);
}

/* One exit type's charged stages: count, sums, handler/guest totals. */
typedef struct stage_row {
    uint64_t n;
    uint64_t sums[CSTAGE__COUNT];
    double tot[2]; /* handler, guest */
} stage_row;

static bool stage_row_of(const cost_model *m, int t, stage_row *r)
{
    r->n = cost_charged(m, (exit_type)t, r->sums);
    r->tot[0] = r->tot[1] = 0;
    for (int s = 0; s < CSTAGE__COUNT; s++)
        r->tot[stage_guest[s]] += (double)r->sums[s];
    return r->n > 0;
}

static double share(const stage_row *r, int s)
{
    double tot = r->tot[stage_guest[s]];
    return tot > 0 ? 100.0 * (double)r->sums[s] / tot : 0.0;
}

static void write_stages_text(const cost_model *m, FILE *f)
{
    fprintf(f, "# cycle model: average core cycles per exit by stage; "
               "'guest' stages are charged to TIMEINGUEST\n"
               "# over the exits the table charges (all but the last), "
               "under the row that charges them; stages: "
               "docs/cost-model.md\n");
    fprintf(f, "# %-12s %-10s %12s %7s %s\n", "type", "stage", "cycles/exit",
            "share", "side");
    for (int t = 0; t < EXIT__COUNT; t++) {
        stage_row r;
        if (!stage_row_of(m, t, &r))
            continue;
        double n = (double)r.n;
        fprintf(f, "%-14s %-10s %12.1f %6.1f%% handler (%llu exits)\n",
                exit_name((exit_type)t), "TOTAL", r.tot[0] / n, 100.0,
                (unsigned long long)r.n);
        fprintf(f, "%-14s %-10s %12.1f %6.1f%% guest\n",
                exit_name((exit_type)t), "TOTAL", r.tot[1] / n, 100.0);
        for (int s = 0; s < CSTAGE__COUNT; s++) {
            if (r.sums[s] == 0)
                continue;
            fprintf(f, "%-14s %-10s %12.1f %6.1f%% %s\n",
                    exit_name((exit_type)t), stage_names[s],
                    (double)r.sums[s] / n, share(&r, s),
                    stage_guest[s] ? "guest" : "handler");
        }
    }
    const tlb440_stats *st = tlb440_get_stats(m->tlb);
    fprintf(f,
            "# soft TLB: %llu shadow maps (%llu over a host entry), %llu "
            "host fills (%llu evicted a guest shadow), %llu releases, "
            "%llu vcpu_put saving %llu entries\n",
            (unsigned long long)st->maps,
            (unsigned long long)st->map_evicted_host,
            (unsigned long long)st->host_fills,
            (unsigned long long)st->host_evicted_guest,
            (unsigned long long)st->releases, (unsigned long long)st->puts,
            (unsigned long long)st->put_entries);
}

static double per_exit(uint64_t sum, uint64_t n)
{
    return n ? (double)sum / (double)n : 0.0;
}

static void stage_diff_line(FILE *f, const char *pre, int t, const char *stage,
                            double a, double b, const char *side)
{
    fprintf(f, "%s%-14s %-10s %12.1f %12.1f %+11.1f %s\n", pre,
            exit_name((exit_type)t), stage, a, b, b - a, side);
}

void cost_write_stages_diff(const cost_model *ref, const cost_model *other,
                            FILE *f, const char *pre)
{
    fprintf(f, "%sstages: average core cycles per exit, of each side's own "
               "exits the table charges; 'guest' stages are charged to "
               "TIMEINGUEST (docs/cost-model.md)\n", pre);
    fprintf(f, "%s%-14s %-10s %12s %12s %11s %s\n", pre, "type", "stage",
            "ref", "new", "new - ref", "side");
    for (int t = 0; t < EXIT__COUNT; t++) {
        stage_row a, b;
        bool ha = stage_row_of(ref, t, &a), hb = stage_row_of(other, t, &b);
        if (!ha && !hb)
            continue;
        for (int g = 0; g < 2; g++) {
            char lab[64];
            snprintf(lab, sizeof lab, "%s (%llu -> %llu exits)",
                     g ? "guest" : "handler", (unsigned long long)a.n,
                     (unsigned long long)b.n);
            stage_diff_line(f, pre, t, "TOTAL",
                            a.n ? a.tot[g] / (double)a.n : 0.0,
                            b.n ? b.tot[g] / (double)b.n : 0.0, lab);
        }
        for (int st = 0; st < CSTAGE__COUNT; st++)
            if (a.sums[st] || b.sums[st])
                stage_diff_line(f, pre, t, stage_names[st],
                                per_exit(a.sums[st], a.n),
                                per_exit(b.sums[st], b.n),
                                stage_guest[st] ? "guest" : "handler");
    }
    const tlb440_stats *x = tlb440_get_stats(ref->tlb),
                       *y = tlb440_get_stats(other->tlb);
    fprintf(f,
            "%ssoft TLB, ref -> new: shadow maps %llu -> %llu, host fills "
            "%llu -> %llu (evicting a guest shadow %llu -> %llu), releases "
            "%llu -> %llu, vcpu_put %llu -> %llu\n",
            pre, (unsigned long long)x->maps, (unsigned long long)y->maps,
            (unsigned long long)x->host_fills,
            (unsigned long long)y->host_fills,
            (unsigned long long)x->host_evicted_guest,
            (unsigned long long)y->host_evicted_guest,
            (unsigned long long)x->releases, (unsigned long long)y->releases,
            (unsigned long long)x->puts, (unsigned long long)y->puts);
}

/* One row per exit type and non-zero stage; cycles are core cycles. */
static void write_stages_csv(const cost_model *m, FILE *f)
{
    fprintf(f, COST_STAGES_CSV_HEADER "\n");
    for (int t = 0; t < EXIT__COUNT; t++) {
        stage_row r;
        if (!stage_row_of(m, t, &r))
            continue;
        for (int s = 0; s < CSTAGE__COUNT; s++)
            if (r.sums[s])
                fprintf(f, "%s,%llu,%s,%s,%llu,%.1f,%.1f\n",
                        exit_name((exit_type)t), (unsigned long long)r.n,
                        stage_names[s], stage_guest[s] ? "guest" : "handler",
                        (unsigned long long)r.sums[s],
                        (double)r.sums[s] / (double)r.n, share(&r, s));
    }
}

static int jadd(json_t *o, const char *k, json_t *v)
{
    return v ? json_object_set_new(o, k, v) : -1;
}

json_t *cost_stages_json(const cost_model *m)
{
    json_t *root = json_object(), *types = json_array();
    int bad = !root || !types;
    bad |= jadd(root, "unit", json_string("core cycles"));
    bad |= jadd(root, "exits", json_string("the exits the table charges (all "
                                           "but the last), by the row that "
                                           "charges them"));
    for (int t = 0; !bad && t < EXIT__COUNT; t++) {
        stage_row r;
        if (!stage_row_of(m, t, &r))
            continue;
        json_t *o = json_object(), *st = json_array();
        bad |= !o || !st;
        bad |= jadd(o, "type", json_string(exit_name((exit_type)t)));
        bad |= jadd(o, "exits", json_integer((json_int_t)r.n));
        bad |= jadd(o, "handler_cycles_per_exit",
                    json_real(r.tot[0] / (double)r.n));
        bad |= jadd(o, "guest_cycles_per_exit",
                    json_real(r.tot[1] / (double)r.n));
        for (int s = 0; !bad && s < CSTAGE__COUNT; s++) {
            if (!r.sums[s])
                continue;
            json_t *x = json_object();
            bad |= !x;
            bad |= jadd(x, "stage", json_string(stage_names[s]));
            bad |= jadd(x, "side",
                        json_string(stage_guest[s] ? "guest" : "handler"));
            bad |= jadd(x, "cycles", json_integer((json_int_t)r.sums[s]));
            bad |= jadd(x, "cycles_per_exit",
                        json_real((double)r.sums[s] / (double)r.n));
            bad |= jadd(x, "share_percent", json_real(share(&r, s)));
            bad |= json_array_append_new(st, x);
        }
        bad |= jadd(o, "stages", st);
        bad |= json_array_append_new(types, o);
    }
    bad |= jadd(root, "types", types);
    const tlb440_stats *s = tlb440_get_stats(m->tlb);
    json_t *tl = json_pack("{sIsIsIsIsIsIsI}", "shadow_maps", (json_int_t)s->maps,
                           "maps_over_host", (json_int_t)s->map_evicted_host,
                           "host_fills", (json_int_t)s->host_fills,
                           "host_evicted_guest",
                           (json_int_t)s->host_evicted_guest, "releases",
                           (json_int_t)s->releases, "vcpu_puts",
                           (json_int_t)s->puts, "put_entries",
                           (json_int_t)s->put_entries, "vcpu_loads",
                           (json_int_t)s->loads);
    bad |= jadd(root, "soft_tlb", tl);
    if (bad) {
        json_decref(root);
        return NULL;
    }
    return root;
}

sim_err cost_write_stages(const cost_model *m, FILE *f, table_fmt fmt)
{
    if (fmt == TFMT_CSV)
        write_stages_csv(m, f);
    else if (fmt == TFMT_JSON) {
        json_t *j = cost_stages_json(m);
        if (!j)
            return sim_fail(SIM_ERR_NOMEM, "stages: out of memory");
        return table_json_dump(f, j);
    } else
        write_stages_text(m, f);
    if (ferror(f))
        return sim_fail(SIM_ERR_IO, "writing the stages: %s", strerror(errno));
    return SIM_OK;
}

void cost_track_features(cost_model *m, bool on)
{
    m->track = on;
}

uint64_t cost_feature_sum(const cost_model *m, exit_type t, cost_feature j)
{
    return m->feat[t][j];
}

double cost_feature_unit(const cost_model *m, exit_type t, cost_feature j)
{
    const params *p = &m->p;
    switch (j) {
    case CFEAT_exit: return dbl(m->fixed_handler[t]);
    case CFEAT_gexit: return dbl(m->fixed_guest[t]);
    case CFEAT_scan: return dbl(m->k_scan);
    case CFEAT_refscan: return dbl(m->ref_scan);
    case CFEAT_scanall: return dbl(m->scan_all);
    case CFEAT_release: return dbl(cyc(P(p, release_cycles)));
    case CFEAT_put: return P(p, vcpu_put_cycles);
    case CFEAT_load: return P(p, vcpu_load_cycles);
    case CFEAT_hostmiss: return m->k_host_miss;
    case CFEAT_tick: return dbl(cyc(P(p, host_tick_cycles)));
    case CFEAT_hostirq:
        return dbl(cyc(P(p, hostirq_code_lines) * P(p, icache_miss_cycles)));
    case CFEAT_glines: return dbl(m->k_icache_miss);
    case CFEAT_grefill: return dbl(m->k_shadow_refill);
    default: break;
    }
    if (j >= CFEAT_spr0 && j < CFEAT_spr0 + 4)
        return dbl(m->spr[j - CFEAT_spr0]);
    assert(j >= CFEAT_emul0 && j < CFEAT_emul0 + INSN__COUNT);
    return dbl(m->emul[j - CFEAT_emul0]);
}

int cost_feature_guest_side(cost_feature j)
{
    return j == CFEAT_gexit || j == CFEAT_glines || j == CFEAT_grefill;
}

int cost_feature_rounded(cost_feature j)
{
    return j == CFEAT_hostmiss || j == CFEAT_put || j == CFEAT_load;
}

static sim_err hook_begin(void *ctx, const trace_header *h)
{
    /* the trace's header gives the core clock its ticks were counted at;
     * a core_hz set to another value would be silently ignored */
    /* (given, even at the default's value: --set core_hz=667M on a
     * 533 MHz trace was let through as if not given) */
    const params *pp = cost_params(ctx);
    double want = P(pp, core_hz);
    bool given = pp->origin[PARAM_core_hz] != PO_DEFAULT ||
                 want != param_default(PARAM_core_hz);
    if (h->core_hz && given && (uint64_t)want != h->core_hz)
        return sim_fail(SIM_ERR_USAGE,
                        "core_hz = %.0f: the trace was made at its own core "
                        "clock, %llu Hz (its header), which the model uses; "
                        "make the trace at the clock wanted (sim trace "
                        "synth --tb-hz, sim import ftrace --tb-hz)",
                        want, (unsigned long long)h->core_hz);
    cost_reset(ctx, h->tb_hz, h->core_hz);
    return SIM_OK;
}

static uint32_t cap32(uint64_t x)
{
    return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

static sim_err hook_cost(void *ctx, const trace_rec *r, uint32_t *handler,
                         uint32_t *guest)
{
    cost_model *m = ctx;
    if (r->kind != TREC_EXIT) {
        cost_state(m, r);
        return SIM_OK;
    }
    uint64_t h, g;
    cost_exit_replay(m, r, &h, &g);
    *handler = cap32(cost_to_ticks(m, h));
    /* a measured guest time goes back exactly as the trace gave it */
    *guest = cost_guest_from_trace(m, r) && m->iccci
                 ? r->guest
                 : cap32(cost_to_ticks(m, g));
    return SIM_OK;
}

__attribute__((flatten)) static sim_err hook_cost_many(void *ctx, const trace_rec *r, size_t n,
                              uint32_t *handler, uint32_t *guest, size_t *done)
{
    for (size_t i = 0; i < n; i++)
        (void)hook_cost(ctx, &r[i], &handler[i], &guest[i]); /* SIM_OK */
    *done = n;
    return SIM_OK;
}

void cost_replay_hook(cost_model *m, replay_cost_model *hook)
{
    hook->name = "sim440-cost";
    hook->ctx = m;
    hook->begin = hook_begin;
    hook->cost = hook_cost;
    hook->cost_many = hook_cost_many;
}
