/* cpu440: KVM/440's exit path around a Unicorn-run guest: exit
 * classification as arch/powerpc/kvm/booke.c (2.6.29+) charges it (reference
 * §1), the shadow TLB mirrored into Unicorn's UTLB slots (§3), host
 * interrupts and signals in simulated time, and the exit trace. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu440_priv.h"
#include "params.h"
#include "tlbword.h"

void cpu440_config_default(cpu440_config *c)
{
    *c = (cpu440_config){
        .ram_bytes = 32u << 20,
        .tb_hz = 667000000u,
        /* arrival rates: the parameter table's, as the cycle model and
         * the SystemC platform use them (meaning and source there) */
        .host_tick_hz = param_default(PARAM_host_tick_hz),
        .extint_hz = param_default(PARAM_host_irq_hz),
        .signal_hz = param_default(PARAM_signal_hz),
        /* host pages: the cycle model's (model/hostpages) */
        .common_host_pages = (unsigned)param_default(PARAM_common_host_pages),
        .path_host_pages = (unsigned)param_default(PARAM_path_host_pages),
        .qemu_host_pages = (unsigned)param_default(PARAM_qemu_host_pages),
        .hostirq_host_pages =
            (unsigned)param_default(PARAM_hostirq_host_pages),
        /* the UTLB: the cycle model's geometry (model/tlb440) */
        .utlb_entries = (unsigned)param_default(PARAM_utlb_entries),
        .utlb_pinned = (unsigned)param_default(PARAM_utlb_pinned),
        .think_s = 0.02,
        .guest_cpi = 1,
        .guest_cpi_den = 1,
    };
}

void cpu440_config_host_pages(cpu440_config *c, const params *p)
{
    c->common_host_pages = (unsigned)P(p, common_host_pages);
    c->path_host_pages = (unsigned)P(p, path_host_pages);
    c->qemu_host_pages = (unsigned)P(p, qemu_host_pages);
    c->hostirq_host_pages = (unsigned)P(p, hostirq_host_pages);
}

void cpu440_config_utlb(cpu440_config *c, const params *p)
{
    c->utlb_entries = (unsigned)P(p, utlb_entries);
    c->utlb_pinned = (unsigned)P(p, utlb_pinned);
}

/* Flat default handler time per exit path: the seed no-PV/PV tables'
 * minimum for that row in usec (the cheapest the path ever was), until the
 * cycle model (model/cost) prices paths from their work. */
uint32_t cpu440_flat_ticks(exit_type t, uint64_t tb_hz)
{
    static const uint16_t k_usec[EXIT__COUNT] = {
        [EXIT_MMIO] = 47,       [EXIT_DCR] = 41,        [EXIT_SIGNAL] = 66,
        [EXIT_ITLBREAL] = 13,   [EXIT_ITLBVIRT] = 21,   [EXIT_DTLBREAL] = 13,
        [EXIT_DTLBVIRT] = 22,   [EXIT_SYSCALL] = 11,    [EXIT_ISI] = 11,
        [EXIT_DSI] = 11,        [EXIT_EMULINST] = 12,   [EXIT_EMUL_WAIT] = 12,
        [EXIT_EMUL_WRTEE] = 12, [EXIT_EMUL_MTSPR] = 12, [EXIT_EMUL_MFSPR] = 12,
        [EXIT_EMUL_MTMSR] = 12, [EXIT_EMUL_MFMSR] = 12, [EXIT_EMUL_TLBSX] = 12,
        [EXIT_EMUL_TLBWE] = 12, [EXIT_EMUL_RFI] = 12,   [EXIT_DEC] = 50,
        [EXIT_EXTINT] = 33,     [EXIT_HALT] = 0,        [EXIT_USR_PR_INST] = 11,
        [EXIT_FP_UNAVAIL] = 11, [EXIT_DEBUG] = 11,      [EXIT_TIMEINGUEST] = 0,
        [EXIT_DTLBPV] = 20,     [EXIT_HCALL] = 19,
    };
    return (uint32_t)(k_usec[t] * (tb_hz / 1000000u));
}

/* ---- time ---- */
static uint64_t guest_now(const cpu440 *c)
{
    uint64_t t = (c->icount - c->icount_entry) * c->c.guest_cpi;
    /* runs for every translation block: no division in the common case */
    if (c->c.guest_cpi_den != 1)
        t /= c->c.guest_cpi_den;
    return c->tb_entry + c->guest_extra + t;
}

uint64_t cpu_tb_now(const cpu440 *c)
{
    return c->in_exit ? c->pend[0].tb : guest_now(c);
}

static uint64_t ticks(const cpu440 *c, double s)
{
    return (uint64_t)(s * (double)c->c.tb_hz);
}

/* Exponential inter-arrival (xorshift64*; deterministic per run). */
static uint64_t next_arrival(cpu440 *c, double hz)
{
    if (hz <= 0)
        return UINT64_MAX / 2;
    c->rng ^= c->rng >> 12;
    c->rng ^= c->rng << 25;
    c->rng ^= c->rng >> 27;
    double u = (double)((c->rng * 2685821657736338717ull) >> 11) * 0x1p-53;
    return 1 + ticks(c, -log(1.0 - u) / hz);
}

/* Moves the arrivals due by t on; returns how many host ticks and device
 * interrupts that were (arrivals while the guest runs are exits, the others
 * are serviced inside the exit in progress). */
static unsigned reschedule(cpu440 *c, uint64_t t)
{
    uint64_t period = c->c.host_tick_hz > 0 ? ticks(c, 1.0 / c->c.host_tick_hz)
                                            : UINT64_MAX / 4;
    unsigned due = 0;
    while (c->next_host_tick <= t) {
        c->next_host_tick += period;
        due++;
    }
    while (c->next_extint <= t) {
        c->next_extint += next_arrival(c, c->c.extint_hz);
        due++;
    }
    while (c->next_signal <= t)
        c->next_signal += next_arrival(c, c->c.signal_hz);
    uint64_t n = c->next_host_tick;
    if (c->next_extint < n)
        n = c->next_extint;
    if (c->next_signal < n)
        n = c->next_signal;
    if (c->next_input < n)
        n = c->next_input;
    if (c->dec_expiry && cpu_dec_expiry_tb(c) < n)
        n = cpu_dec_expiry_tb(c);
    c->next_event = n;
    return due;
}

uint64_t cpu_next_wake(const cpu440 *c)
{
    uint64_t w = UINT64_MAX;
    if ((c->tsr & TSR_DIS) && (c->tcr & TCR_DIE))
        return 0;
    if (dev_ext_pending(c))
        return 0;
    if (c->dec_expiry && (c->tcr & TCR_DIE))
        w = cpu_dec_expiry_tb(c);
    if (dev_uart_rx_wakes(c) && c->next_input < w)
        w = c->next_input;
    return w;
}

/* ---- records ---- */
static void flush_pend(cpu440 *c)
{
    /* the coster priced the exit at its end; its state records follow it,
     * as in a replay of the trace */
    for (unsigned i = 1; i < c->npend && c->coster.state; i++)
        c->coster.state(c->coster.ctx, &c->pend[i]);
    for (unsigned i = 0; i < c->npend && c->err == SIM_OK; i++)
        if (c->sink.put)
            c->err = c->sink.put(c->sink.ctx, &c->pend[i]);
    c->npend = 0;
}

void cpu_record_state(cpu440 *c, const trace_rec *r)
{
    if (c->npend < sizeof c->pend / sizeof c->pend[0])
        c->pend[c->npend++] = *r;
}

static void exit_begin(cpu440 *c, exit_type t, unsigned irq, uint32_t pc,
                       uint32_t inst, uint32_t addr)
{
    uint64_t now = guest_now(c);
    if (c->npend) {
        c->pend[0].guest = (uint32_t)(now - c->tb_entry);
        flush_pend(c);
    }
    c->in_exit = true;
    c->type = t;
    c->extra_ticks = 0;
    c->pend[0] = (trace_rec){.kind = TREC_EXIT,
                             .type = (uint8_t)t,
                             .irq = (uint8_t)irq,
                             .flags = guest_pr(c) ? TRF_GUEST_PR : 0,
                             .pc = pc,
                             .inst = inst,
                             .addr = addr,
                             .tb = now};
    c->npend = 1;
    booke_dec_check(c, now);
    /* the handler's kvm.ko pages, before any shadow map of its own (the
     * cycle model's order, model/hostpages) */
    unsigned common, path;
    hostpages_exit(&c->hp, c->tlb, t, &common, &path);
}

/* The host's own TLB misses at the end of the exit's handling (the cycle
 * model's rule and order, model/hostpages): a heavy exit's round trip to
 * QEMU (vcpu_put, QEMU's pages, vcpu_load), then a host interrupt
 * handler's pages for each host interrupt serviced. */
static void host_pressure(cpu440 *c, bool heavy, unsigned irqs)
{
    if (heavy) {
        unsigned put, load;
        hostpages_round_trip(&c->hp, c->tlb, false, &put, &load);
    }
    for (unsigned i = 0; i < irqs; i++)
        hostpages_irq(&c->hp, c->tlb);
}

/* What Unicorn's slot must hold for a UTLB slot: guest shadow entries
 * (TS 1) and, in PV mode, the magic page's entry; host entries (TS 0) are
 * not reachable from the guest. */
static mirror_slot desired(const cpu440 *c, unsigned slot)
{
    const tlb440_entry *e = tlb440_utlb(c->tlb, slot);
    mirror_slot m = {0};
    if (!tlbw_v(e->w0))
        return m;
    if (c->magic_mapped && tlbw_ts(e->w0) == 1 &&
        tlbw_epn(e->w0) == KVM_MAGIC_PAGE &&
        tlbw_raddr(e->w1) == KVM_MAGIC_PAGE) /* tlb440_map_magic's entry */
        return (mirror_slot){true, 1, false, true, KVM_MAGIC_PAGE,
                             ISS_MAGIC_PA};
    if (tlbw_ts(e->w0) == 1 && tlbw_size(e->w0) == TLBSZ_4K &&
        tlbw_raddr(e->w1) < c->c.ram_bytes) {
        m.valid = true;
        m.ea = tlbw_epn(e->w0);
        m.pa = (uint32_t)tlbw_raddr(e->w1);
        m.tid = (uint8_t)e->tid;
        m.x = (e->w2 & TLBW2_UX) != 0;
        m.w = (e->w2 & TLBW2_UW) != 0;
    }
    return m;
}

/* Unicorn's slot for UTLB slot s (taken for it): its own number when the
 * UTLB's round robin fits Unicorn's 64 slots; else the one holding it, a
 * free one, or the next of a round robin, which takes an entry refilled
 * for an access only after 63 others (an access needing three pages,
 * its code and two data pages, cannot evict its own). */
static unsigned mirror_take(cpu440 *c, unsigned s)
{
    if (c->uslot[s] >= 0)
        return (unsigned)c->uslot[s];
    unsigned u = s;
    if (tlb440_hwater(c->tlb) >= ISS_TLB_SLOTS) {
        for (u = 0; u < ISS_TLB_SLOTS && c->owner[u] >= 0; u++)
            ;
        if (u == ISS_TLB_SLOTS) {
            u = c->uni_next;
            c->uni_next = (u + 1) % ISS_TLB_SLOTS;
            c->uslot[c->owner[u]] = -1;
        }
    }
    c->owner[u] = (int16_t)s;
    c->uslot[s] = (int16_t)u;
    return u;
}

/* Makes Unicorn's slots equal the UTLB's guest-visible entries, so an
 * entry evicted or released really faults again; a switch to guest user
 * mode also rewrites the TID-1 entries so QEMU drops its cached
 * translations of them (its PID write does not flush). */
static void mirror_sync(cpu440 *c)
{
    unsigned pid = guest_pr(c) ? 0 : 1;
    bool flush_tid1 = c->shadow_pid == 1 && pid == 0;
    const uint32_t *ver = tlb440_slot_versions(c->tlb);
    /* A PID switch (TID-1 rewrites) or a magic-page change concerns slots
     * whose entries did not change: those look at every slot. Otherwise
     * only slots written or invalidated since the last sync can differ
     * from Unicorn's (every UTLB write bumps the slot's version), and a
     * sync typically has one or two of them among the 63. */
    bool all = pid != c->shadow_pid || c->magic_mapped != c->magic_seen;
    if (!all && !memcmp(ver, c->ver_seen, sizeof c->ver_seen))
        return; /* no slot written or invalidated since the last sync */
    uint32_t seen[TLB440_MAX];
    memcpy(seen, c->ver_seen, sizeof seen);
    memcpy(c->ver_seen, ver, sizeof c->ver_seen);
    c->magic_seen = c->magic_mapped;
    c->shadow_pid = pid;
    iss_set_pid(c->iss, pid);
    unsigned hw = tlb440_hwater(c->tlb);
    for (unsigned s = 0; s <= hw; s++) {
        if (!all && ver[s] == seen[s])
            continue;
        mirror_slot d = desired(c, s), *m = &c->uni[s];
        bool same =
            d.valid == m->valid &&
            (!d.valid || (d.ea == m->ea && d.pa == m->pa && d.tid == m->tid &&
                          d.x == m->x && d.w == m->w));
        int held = c->uslot[s];
        if (!same) {
            /* a new entry takes a Unicorn slot (the guest retries the
             * access that missed); a released one frees the one it had */
            if (d.valid) {
                unsigned u = mirror_take(c, s);
                iss_tlb_set(c->iss, u, d.ea, d.pa, d.tid, d.x, d.w);
            } else if (held >= 0) {
                iss_tlb_clear(c->iss, (unsigned)held);
                c->owner[held] = -1;
                c->uslot[s] = -1;
            }
            const tlb440_entry *e = tlb440_utlb(c->tlb, s);
            /* kvmppc_map_magic writes the host TLB directly, without the
             * kvm_stlb_write tracepoint: the magic page's entry is no
             * stlb record (sim import ftrace --pv tells DTLBPV by that) */
            if (d.valid && tlbw_ts(e->w0) == 1 && d.pa != ISS_MAGIC_PA) {
                trace_rec r = {.kind = TREC_STLB_WRITE,
                               .type = (uint8_t)s,
                               .irq = (uint8_t)e->tid,
                               .pc = e->w0,
                               .inst = e->w1,
                               .addr = e->w2,
                               .tb = cpu_tb_now(c)};
                cpu_record_state(c, &r);
            } else if (m->valid && !d.valid) {
                trace_rec r = {.kind = TREC_STLB_INVAL,
                               .type = (uint8_t)s,
                               .tb = cpu_tb_now(c)};
                cpu_record_state(c, &r);
            }
            *m = d;
        } else if (flush_tid1 && m->valid && m->tid == 1 && held >= 0) {
            iss_tlb_rewrite(c->iss, (unsigned)held, m->ea, m->pa, m->tid,
                            m->x, m->w);
        }
    }
}

/* Unicorn faulted at ea: with more UTLB slots than Unicorn's 64, an entry
 * the UTLB holds (the guest's translation hits on the 440) may be out of
 * Unicorn's slots, its slot taken for another. Puts it back (the access
 * is retried; no exit, no guest time) and says whether it did. A UTLB
 * whose round robin fits Unicorn's slots is mirrored whole: never. */
static bool mirror_refill(cpu440 *c, uint32_t ea)
{
    if (tlb440_hwater(c->tlb) < ISS_TLB_SLOTS)
        return false;
    int s = tlb440_utlb_find(c->tlb, ea, 1, guest_pr(c) ? 0 : 1);
    if (s < 0 || s > (int)tlb440_hwater(c->tlb))
        return false;
    const mirror_slot *m = &c->uni[s];
    if (c->uslot[s] >= 0 || !m->valid)
        return false; /* Unicorn has it, or it is no guest mapping */
    unsigned u = mirror_take(c, (unsigned)s);
    iss_tlb_set(c->iss, u, m->ea, m->pa, m->tid, m->x, m->w);
    c->cnt.mirror_refills++;
    return true;
}

static void check_limits(cpu440 *c)
{
    const cpu440_limits *l = c->lim;
    if (c->poweroff || c->err != SIM_OK)
        goto stop;
    if (!l)
        return;
    if (l->max_exits && c->cnt.exits >= l->max_exits)
        goto stop;
    if (l->max_seconds > 0 &&
        (double)c->tb_entry >= l->max_seconds * (double)c->c.tb_hz)
        goto stop;
    if (c->cnt.exits % CPU440_POLL_EXITS == 0) {
        if (l->progress && c->cnt.exits % (64 * CPU440_POLL_EXITS) == 0)
            l->progress(l->ctx, c->cnt.exits,
                        (double)c->tb_entry / (double)c->c.tb_hz);
        if (l->stop && l->stop(l->ctx)) {
            c->stop_asked = true;
            goto stop;
        }
    }
    return;
stop:
    iss_stop(c->iss);
}

static void exit_end(cpu440 *c)
{
    exit_type t = c->type;
    /* a DEC or EXTINT exit is itself a host interrupt serviced (the
     * guest's decrementer is a host timer too); the arrival that caused
     * it is due by the exit's start */
    bool own_tick = t == EXIT_DEC && c->next_host_tick <= c->pend[0].tb;
    bool own_ext = t == EXIT_EXTINT && c->next_extint <= c->pend[0].tb;
    unsigned own = t == EXIT_DEC || t == EXIT_EXTINT;
    bool heavy = (exit_flags(t) & EXF_HEAVY) != 0 &&
                 !(t == EXIT_MMIO && c->c.mmio_in_kernel);
    /* kvmppc_handle_exit checks signal_pending after a light exit: a
     * signal that arrived by then makes it a SIGNAL exit to user space. So
     * does console input: QEMU's I/O thread kicks the vcpu thread with a
     * signal to inject the UART interrupt (also out of an idle wait). */
    uint64_t end =
        c->pend[0].tb + cpu440_flat_ticks(t, c->c.tb_hz) + c->extra_ticks;
    bool input = c->input_pos < c->input_len && c->next_input <= end;
    if (!heavy && (c->next_signal <= end || input)) {
        t = EXIT_SIGNAL;
        heavy = true;
        if (c->next_signal <= end) /* consumed; rescheduled below */
            c->next_signal = c->pend[0].tb + 1;
    }
    trace_rec *r = &c->pend[0];
    r->type = (uint8_t)t;
    r->flags |=
        TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN | (heavy ? TRF_USERSPACE : 0);
    uint64_t h;
    c->guest_extra = 0;
    if (c->coster.exit) {
        uint32_t ch = 0, gx = 0;
        c->coster.exit(c->coster.ctx, r, c->icount - c->icount_entry, &ch, &gx);
        h = (uint64_t)ch + c->extra_ticks;
        c->guest_extra = gx;
    } else {
        h = (uint64_t)cpu440_flat_ticks(t, c->c.tb_hz) + c->extra_ticks;
    }
    if (h > 0xffffffffu)
        h = 0xffffffffu;
    r->handler = (uint32_t)h;
    c->tb_entry = r->tb + h;
    if (c->c.exit_time_hidden) /* the idle part stays visible */
        c->hidden += (h > c->extra_ticks ? h - c->extra_ticks : 0) +
                     c->guest_extra;
    c->icount_entry = c->icount;
    c->in_exit = false;
    c->cnt.exits++;
    c->cnt.by_type[t]++;

    /* what happened while the host had the CPU */
    booke_dec_check(c, c->tb_entry);
    if (c->next_input <= c->tb_entry && c->input_pos < c->input_len) {
        const char *s = c->input + c->input_pos;
        const char *nl = memchr(s, '\n', c->input_len - c->input_pos);
        size_t n = nl ? (size_t)(nl - s) + 1 : c->input_len - c->input_pos;
        dev_uart_input(c, s, n);
        c->input_pos += n;
        c->next_input = UINT64_MAX; /* the next after this one is read */
    }
    /* the host interrupts that arrived during the exit were serviced in it
     * (the one that caused a DEC or EXTINT exit is the exit's own) */
    unsigned irqs = own + reschedule(c, c->tb_entry) - own_tick - own_ext;
    host_pressure(c, heavy, irqs);
    c->cnt.host_irqs += irqs;
    booke_deliver_pending(c);
    mirror_sync(c);
    /* a PC write makes Unicorn leave its loop: only when the guest does
     * not simply continue after the trapping instruction */
    if (c->pc != c->upc)
        iss_set_pc(c->iss, c->pc);
    check_limits(c);
}

/* ---- guest memory ---- */
bool cpu_translate(const cpu440 *c, uint32_t ea, unsigned as, uint64_t *pa)
{
    int i = tlb440_gtlb_search(c->tlb, ea, as, tlb440_pid(c->tlb), NULL);
    if (i < 0)
        return false;
    const tlb440_entry *e = tlb440_gtlb(c->tlb, (unsigned)i);
    *pa = tlbw_raddr(e->w1) + (ea - tlbw_epn(e->w0));
    return true;
}

static uint32_t ram_be(const uint8_t *p, unsigned size)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v = v << 8 | p[i];
    return v;
}

bool cpu_phys_read(cpu440 *c, uint64_t pa, unsigned size, uint32_t *v)
{
    if (pa + size <= c->c.ram_bytes) {
        *v = ram_be(iss_ram(c->iss) + pa, size);
        return true;
    }
    return iss_phys_read(c->iss, (uint32_t)pa, size, v);
}

bool cpu_phys_write(cpu440 *c, uint64_t pa, unsigned size, uint32_t v)
{
    if (pa + size <= c->c.ram_bytes) {
        uint8_t *p = iss_ram(c->iss) + pa;
        for (unsigned i = 0; i < size; i++)
            p[i] = (uint8_t)(v >> (8 * (size - 1 - i)));
        return true;
    }
    return iss_phys_write(c->iss, (uint32_t)pa, size, v);
}

/* The instruction at ea (KVM's last_inst fetch); 0 if untranslatable. */
static uint32_t fetch(cpu440 *c, uint32_t ea)
{
    uint64_t pa;
    uint32_t v = 0;
    if (cpu_translate(c, ea, (guest_msr(c) & MSR_IS) != 0, &pa) &&
        pa + 4 <= c->c.ram_bytes)
        v = ram_be(iss_ram(c->iss) + pa, 4);
    return v;
}

/* Effective address, size and direction of a storage instruction (what
 * the hardware puts in DEAR/ESR[ST]). */
static uint32_t mem_ea(cpu440 *c, uint32_t inst, unsigned *size, bool *store)
{
    unsigned prim = inst >> 26, ra = insn440_ra(inst);
    uint32_t base = ra ? iss_gpr(c->iss, ra) : 0;
    insn_mem m;
    *size = 4;
    *store = false;
    if (insn440_mem_info(insn440_decode_op(inst), &m)) {
        *size = m.size;
        *store = m.store;
        return base + (m.indexed ? iss_gpr(c->iss, insn440_rb(inst))
                                 : (uint32_t)insn440_d(inst));
    }
    if (prim == 46 || prim == 47) { /* lmw / stmw */
        *size = 4 * (32 - insn440_rt(inst));
        *store = prim == 47;
        return base + (uint32_t)insn440_d(inst);
    }
    if (prim == 31) {
        unsigned xo = (inst >> 1) & 0x3ffu;
        if (xo == 597 || xo == 725) { /* lswi / stswi */
            *size = insn440_rb(inst) ? insn440_rb(inst) : 32;
            *store = xo == 725;
            return base;
        }
        *store = xo == 150 || xo == 1014 || xo == 661; /* stwcx. dcbz stswx */
        if (xo == 1014)
            *size = 32;
        return base + iss_gpr(c->iss, insn440_rb(inst));
    }
    return base + (uint32_t)insn440_d(inst);
}

/* ---- exit handlers ---- */
static void reflect_program(cpu440 *c, uint32_t pc, uint32_t esr)
{
    sh_set(c, KVM_SH_ESR, esr);
    c->pc = pc;
    booke_deliver(c, BOOKE_IRQ_PROGRAM);
}

static void on_program(cpu440 *c, uint32_t pc)
{
    uint32_t inst = fetch(c, pc);
    exit_begin(c, guest_pr(c) ? EXIT_USR_PR_INST : EXIT_EMULINST,
               BOOKE_IRQ_PROGRAM, pc, inst, 0);
    if (guest_pr(c)) {
        /* a privileged instruction in guest user mode: reflected */
        reflect_program(c, pc, ESR_PPR);
    } else {
        c->pc = pc + 4;
        emul r = booke_emulate(c, inst, pc);
        if (r == EMUL_FAIL) {
            c->type = EXIT_EMULINST;
            reflect_program(c, pc, ESR_PIL);
        }
    }
    exit_end(c);
}

/* FP instructions: the 405 model has no FPU (interrupt 96). With MSR[FP]=0
 * a 440 with an FPU raises FP unavailable; with FP=1 it executes them, so
 * the loads/stores are done here without an exit. */
static bool fp_execute(cpu440 *c, uint32_t inst, insn_op op)
{
    unsigned rt = insn440_rt(inst);
    if (op == INSN_OP_FP63 && ((inst >> 1) & 0x3ffu) == 72) { /* fmr */
        c->fpr[rt] = c->fpr[insn440_rb(inst)];
        return true;
    }
    insn_mem m;
    /* the double loads/stores only (a single needs a format conversion
     * nothing here does): anything else is a program interrupt */
    if (!insn440_mem_info(op, &m) || m.size != 8)
        return false;
    unsigned size;
    bool store;
    uint32_t ea = mem_ea(c, inst, &size, &store);
    uint64_t pa;
    if (!cpu_translate(c, ea, (guest_msr(c) & MSR_DS) != 0, &pa) ||
        pa + m.size > c->c.ram_bytes)
        return false;
    uint8_t *p = iss_ram(c->iss) + pa;
    if (m.store) {
        uint64_t v = c->fpr[rt];
        for (unsigned i = 0; i < m.size; i++)
            p[i] = (uint8_t)(v >> (8 * (m.size - 1 - i)));
    } else {
        uint64_t v = 0;
        for (unsigned i = 0; i < m.size; i++)
            v = v << 8 | p[i];
        c->fpr[rt] = v;
    }
    if (m.update)
        iss_set_gpr(c->iss, insn440_ra(inst), ea);
    return true;
}

static void on_illegal(cpu440 *c, uint32_t pc)
{
    uint32_t inst = fetch(c, pc);
    insn_op op = insn440_decode_op(inst);
    if (insn440_is_fp(op) && (guest_msr(c) & MSR_FP) && fp_execute(c, inst, op))
        return; /* executed natively on a 440 with an FPU: no exit */
    if (insn440_is_fp(op) && !(guest_msr(c) & MSR_FP)) {
        exit_begin(c, EXIT_FP_UNAVAIL, BOOKE_IRQ_FP_UNAVAIL, pc, inst, 0);
        c->pc = pc;
        booke_deliver(c, BOOKE_IRQ_FP_UNAVAIL);
        exit_end(c);
        return;
    }
    exit_begin(c, guest_pr(c) ? EXIT_USR_PR_INST : EXIT_EMULINST,
               BOOKE_IRQ_PROGRAM, pc, inst, 0);
    reflect_program(c, pc, ESR_PIL);
    exit_end(c);
}

static void hypercall(cpu440 *c)
{
    iss *s = c->iss;
    uint32_t token = iss_gpr(s, 11);
    uint32_t r3 = 0, r4 = 0;
    if (token == KVM_HCALL_TOKEN(KVM_HC_PPC_MAP_MAGIC_PAGE)) {
        /* the guest asks for the page at ea = pa = -4096 */
        c->magic_mapped = true;
    } else if (token == KVM_HCALL_TOKEN(KVM_HC_FEATURES)) {
        r4 = 1u << KVM_FEATURE_MAGIC_PAGE; /* a bit mask of features */
    } else {
        r3 = (uint32_t)-12; /* EV_UNIMPLEMENTED */
    }
    iss_set_gpr(s, 3, r3);
    iss_set_gpr(s, 4, r4);
}

static void on_sc(cpu440 *c, uint32_t next)
{
    uint32_t pc = next - 4;
    if (!guest_pr(c) && iss_gpr(c->iss, 0) == KVM_SC_MAGIC_R0) {
        exit_begin(c, EXIT_HCALL, BOOKE_IRQ_SYSCALL, pc, 0x44000002u, 0);
        hypercall(c);
        c->pc = next;
    } else {
        exit_begin(c, EXIT_SYSCALL, BOOKE_IRQ_SYSCALL, pc, 0x44000002u, 0);
        c->pc = next;
        booke_deliver(c, BOOKE_IRQ_SYSCALL);
    }
    exit_end(c);
}

/* KVM's MMIO path: the guest TLB maps ea outside RAM; the load or store is
 * emulated against the device (through Unicorn's uc_mmio_map region). */
static void mmio(cpu440 *c, uint32_t pc, uint32_t inst, uint32_t ea)
{
    insn_mem m;
    uint64_t gpa;
    unsigned rt = insn440_rt(inst);
    if (!insn440_mem_info(insn440_decode_op(inst), &m) || m.size > 4 ||
        !cpu_translate(c, ea, (guest_msr(c) & MSR_DS) != 0, &gpa)) {
        c->type = EXIT_EMULINST; /* EMULATE_FAIL */
        reflect_program(c, pc, ESR_PIL);
        return;
    }
    uint32_t pa = (uint32_t)gpa; /* 36-bit device address: ERPN dropped */
    if (m.store) {
        c->cnt.mmio_writes++;
        uint32_t v = iss_gpr(c->iss, rt);
        if (m.size < 4)
            v &= (1u << (8 * m.size)) - 1u;
        if (m.byterev)
            v = m.size == 4 ? __builtin_bswap32(v)
                            : (uint32_t)__builtin_bswap16((uint16_t)v);
        cpu_phys_write(c, pa, m.size, v);
    } else {
        c->cnt.mmio_reads++;
        uint32_t v = 0;
        cpu_phys_read(c, pa, m.size, &v);
        if (m.byterev)
            v = m.size == 4 ? __builtin_bswap32(v)
                            : (uint32_t)__builtin_bswap16((uint16_t)v);
        if (m.algebraic)
            v = (uint32_t)(int32_t)(int16_t)v;
        iss_set_gpr(c->iss, rt, v);
    }
    if (m.update)
        iss_set_gpr(c->iss, insn440_ra(inst), ea);
    c->pc = pc + 4;
}

static void inconsistent(cpu440 *c, const char *what, uint32_t ea)
{
    if (c->err == SIM_OK)
        c->err = sim_fail(SIM_ERR_CHECK,
                          "cpu440: %s miss at 0x%08x that "
                          "the shadow TLB says is mapped",
                          what, ea);
}

static void on_dtlb(cpu440 *c, uint32_t pc)
{
    uint32_t inst = fetch(c, pc);
    unsigned size;
    bool store;
    uint32_t ea = mem_ea(c, inst, &size, &store);
    bool pr = guest_pr(c);
    /* a page the UTLB holds and Unicorn's slots did not: no miss (both
     * pages of an access spanning two) */
    bool refilled = mirror_refill(c, ea);
    if (size > 1 && ((ea ^ (ea + size - 1)) & ~0xfffu))
        refilled |= mirror_refill(c, (ea + size - 1) & ~0xfffu);
    if (refilled) {
        iss_set_pc(c->iss, pc);
        return;
    }
    /* an access spanning two pages faults on the one not mapped */
    if (size > 1 && ((ea ^ (ea + size - 1)) & ~0xfffu) &&
        tlb440_utlb_find(c->tlb, ea, 1, pr ? 0 : 1) >= 0)
        ea = (ea + size - 1) & ~0xfffu;
    if (c->magic_mapped && (ea & ~0xfffu) == KVM_MAGIC_PAGE && !pr) {
        /* the PV page is in no guest entry: KVM maps it itself with a
         * 4 KB TS=1 shadow entry in the next round-robin slot (e500's
         * kvmppc_map_magic, docs/kvm440.md §5): the same tlb440_map_magic
         * the cycle model and sim whatif use */
        exit_begin(c, EXIT_DTLBPV, BOOKE_IRQ_DTLB_MISS, pc, inst, ea);
        tlb440_map_magic(c->tlb, KVM_MAGIC_PAGE, KVM_MAGIC_PAGE, NULL);
        c->pc = pc;
        exit_end(c);
        return;
    }
    int gi;
    tlb440_class k = tlb440_classify(c->tlb, ea, (guest_msr(c) & MSR_DS) != 0,
                                     pr, &gi, NULL);
    switch (k) {
    case TLB440_VIRT:
        exit_begin(c, EXIT_DTLBVIRT, BOOKE_IRQ_DTLB_MISS, pc, inst, ea);
        tlb440_map(c->tlb, ea, (unsigned)gi, pr, NULL);
        c->pc = pc;
        break;
    case TLB440_REAL:
        exit_begin(c, EXIT_DTLBREAL, BOOKE_IRQ_DTLB_MISS, pc, inst, ea);
        sh_set(c, KVM_SH_DAR, ea);
        sh_set(c, KVM_SH_ESR, store ? ESR_ST : 0);
        c->pc = pc;
        booke_deliver(c, BOOKE_IRQ_DTLB_MISS);
        break;
    case TLB440_MMIO:
        exit_begin(c, EXIT_MMIO, BOOKE_IRQ_DTLB_MISS, pc, inst, ea);
        c->type = EXIT_MMIO;
        mmio(c, pc, inst, ea);
        break;
    case TLB440_HIT:
        inconsistent(c, "data TLB", ea);
        exit_begin(c, EXIT_DTLBVIRT, BOOKE_IRQ_DTLB_MISS, pc, inst, ea);
        c->pc = pc;
        break;
    }
    exit_end(c);
}

static void on_itlb(cpu440 *c, uint32_t pc)
{
    if (mirror_refill(c, pc)) { /* the UTLB holds it: no miss */
        iss_set_pc(c->iss, pc);
        return;
    }
    bool pr = guest_pr(c);
    int gi;
    tlb440_class k = tlb440_classify(c->tlb, pc, (guest_msr(c) & MSR_IS) != 0,
                                     pr, &gi, NULL);
    switch (k) {
    case TLB440_VIRT:
        exit_begin(c, EXIT_ITLBVIRT, BOOKE_IRQ_ITLB_MISS, pc, 0, pc);
        tlb440_map(c->tlb, pc, (unsigned)gi, pr, NULL);
        break;
    case TLB440_REAL:
        exit_begin(c, EXIT_ITLBREAL, BOOKE_IRQ_ITLB_MISS, pc, 0, pc);
        c->pc = pc;
        booke_deliver(c, BOOKE_IRQ_ITLB_MISS);
        exit_end(c);
        return;
    default:
        /* ITLBVIRT is charged before the RAM check; non-RAM code would be
         * a guest machine check, which no workload provokes */
        if (k == TLB440_HIT)
            inconsistent(c, "instruction TLB", pc);
        else if (c->err == SIM_OK)
            c->err = sim_fail(SIM_ERR_CHECK,
                              "cpu440: guest executes "
                              "outside RAM at 0x%08x",
                              pc);
        exit_begin(c, EXIT_ITLBVIRT, BOOKE_IRQ_ITLB_MISS, pc, 0, pc);
        break;
    }
    c->pc = pc;
    exit_end(c);
}

/* Protection faults of the shadow entry (the guest's permissions): DSI and
 * ISI are reflected to the guest with DEAR/ESR. */
static void on_dsi(cpu440 *c, uint32_t pc)
{
    uint32_t inst = fetch(c, pc);
    unsigned size;
    bool store;
    uint32_t ea = mem_ea(c, inst, &size, &store);
    exit_begin(c, EXIT_DSI, BOOKE_IRQ_DATA_STORAGE, pc, inst, ea);
    sh_set(c, KVM_SH_DAR, ea);
    sh_set(c, KVM_SH_ESR, store ? ESR_ST : 0);
    c->pc = pc;
    booke_deliver(c, BOOKE_IRQ_DATA_STORAGE);
    exit_end(c);
}

static void on_isi(cpu440 *c, uint32_t pc)
{
    exit_begin(c, EXIT_ISI, BOOKE_IRQ_INST_STORAGE, pc, 0, pc);
    sh_set(c, KVM_SH_ESR, 0);
    c->pc = pc;
    booke_deliver(c, BOOKE_IRQ_INST_STORAGE);
    exit_end(c);
}

/* ---- Unicorn hooks ---- */
static void hk_intr(void *ctx, unsigned intno, uint32_t upc)
{
    cpu440 *c = ctx;
    uint32_t pc = upc - ISS_PC_SKEW;
    c->upc = upc;
    switch (intno) {
    case ISS_INT_PROGRAM: on_program(c, pc); break;
    case ISS_INT_ILLEGAL: on_illegal(c, pc); break;
    case ISS_INT_SYSCALL: on_sc(c, upc); break;
    case ISS_INT_DTLB: on_dtlb(c, pc); break;
    case ISS_INT_ITLB: on_itlb(c, pc); break;
    case ISS_INT_DSI: on_dsi(c, pc); break;
    case ISS_INT_ISI: on_isi(c, pc); break;
    default:
        if (c->err == SIM_OK)
            c->err = sim_fail(SIM_ERR_CHECK,
                              "cpu440: unexpected Unicorn "
                              "interrupt %u at 0x%08x",
                              intno, pc);
        iss_stop(c->iss);
        break;
    }
}

/* Host interrupts and signals arrive in simulated time; one due while the
 * guest runs is an exit at the start of the next translation block. */
static bool time_event(cpu440 *c, uint32_t pc, uint64_t now)
{
    exit_type t;
    unsigned irq = BOOKE_IRQ_EXTERNAL;
    if ((c->dec_expiry && now >= cpu_dec_expiry_tb(c)) ||
        now >= c->next_host_tick) {
        t = EXIT_DEC; /* the guest's DEC is a host timer too */
        irq = BOOKE_IRQ_DECREMENTER;
    } else if (now >= c->next_extint) {
        t = EXIT_EXTINT;
    } else if (now >= c->next_signal || now >= c->next_input) {
        /* a signal, or QEMU kicking the vcpu with console input */
        t = EXIT_SIGNAL;
    } else {
        reschedule(c, now);
        return false;
    }
    exit_begin(c, t, irq, pc, 0, 0);
    c->pc = c->upc = pc;
    exit_end(c);
    return c->pc != pc;
}

/* Out of line and cold so that hk_block, which runs for every translation
 * block (millions per run), needs no stack frame on its path. */
__attribute__((noinline, cold)) static void block_event(cpu440 *c, uint32_t pc,
                                                        uint32_t n)
{
    if (time_event(c, pc, guest_now(c)))
        return; /* redirected: the block does not run */
    c->icount += n;
}

/* Linux's machine_halt ends in `while (1);` with interrupts off: a block
 * of the single instruction `b .` with MSR[EE] clear is the end of the
 * run (nothing can ever leave it). */
__attribute__((noinline, cold)) static void halt_check(cpu440 *c, uint32_t pc)
{
    if (!(guest_msr(c) & MSR_EE) && fetch(c, pc) == 0x48000000u) {
        c->poweroff = true;
        iss_stop(c->iss);
    }
}

static void hk_block(void *ctx, uint32_t pc, uint32_t n)
{
    cpu440 *c = ctx;
    if (n == 1 && c->boot.halt_loop_ends)
        halt_check(c, pc);
    if (guest_now(c) >= c->next_event) {
        block_event(c, pc, n);
        return;
    }
    c->icount += n;
}

/* mftb / mfspr TBL,TBU: the simulated timebase (Unicorn 2.0.1 crashes). */
static void hk_insn(void *ctx, uint32_t pc)
{
    cpu440 *c = ctx;
    uint32_t inst = fetch(c, pc);
    unsigned spr = insn440_spr(inst);
    uint64_t tb = c->c.tb_frozen ? 0x1000 : guest_now(c) - c->hidden;
    iss_set_gpr(c->iss, insn440_rt(inst),
                spr == SPR_TBRU ? (uint32_t)(tb >> 32) : (uint32_t)tb);
    iss_set_pc(c->iss, pc + 4);
    c->mftb_reads++;
}

static uint32_t hk_mmio_read(void *ctx, uint32_t off, unsigned size)
{
    return dev_mmio_read(ctx, off, size);
}

static void hk_mmio_write(void *ctx, uint32_t off, unsigned size, uint32_t v)
{
    dev_mmio_write(ctx, off, size, v);
}

/* ---- API ---- */
sim_err cpu440_new(cpu440 **out, const cpu440_config *cfg)
{
    *out = NULL;
    if (cfg->tb_hz < 1000000u || cfg->guest_cpi < 1 ||
        cfg->guest_cpi_den < 1 || cfg->think_s < 0 ||
        cfg->host_tick_hz < 0 || cfg->extint_hz < 0 || cfg->signal_hz < 0 ||
        !hostpages_counts_ok(cfg->common_host_pages, cfg->path_host_pages,
                             cfg->qemu_host_pages, cfg->hostirq_host_pages))
        return sim_fail(SIM_ERR_RANGE,
                        "cpu440: configuration out of range "
                        "(timebase >= 1 MHz, CPI >= 1, rates >= 0, host "
                        "pages within their parameters' ranges)");
    cpu440 *c = calloc(1, sizeof *c);
    if (!c)
        return sim_fail(SIM_ERR_NOMEM, "cpu440: out of memory");
    c->c = *cfg;
    iss_hooks h = {.ctx = c,
                   .intr = hk_intr,
                   .block = hk_block,
                   .insn = hk_insn,
                   .mmio_read = hk_mmio_read,
                   .mmio_write = hk_mmio_write};
    iss_config ic = {.ram_bytes = cfg->ram_bytes};
    sim_err e = iss_open(&c->iss, &ic, &h);
    if (e == SIM_OK) {
        tlb440_config tc = {.gtlb_entries = 64,
                            .utlb_entries = cfg->utlb_entries,
                            .utlb_pinned = cfg->utlb_pinned,
                            .guest_ram_bytes = cfg->ram_bytes,
                            .union_user_perms = cfg->union_user_perms};
        e = tlb440_new(&c->tlb, &tc);
    }
    if (e == SIM_OK)
        hostpages_init(&c->hp, cfg->common_host_pages, cfg->path_host_pages,
                       cfg->qemu_host_pages, cfg->hostirq_host_pages, c->tlb);
    if (e != SIM_OK) {
        cpu440_free(c);
        return e;
    }
    c->sh = iss_magic(c->iss);
    *out = c;
    return SIM_OK;
}

void cpu440_free(cpu440 *c)
{
    if (!c)
        return;
    iss_close(c->iss);
    tlb440_free(c->tlb);
    free(c->input);
    free(c);
}

sim_err cpu440_scan_timebase(cpu440 *c, uint32_t pa, uint32_t ea, size_t len)
{
    if (pa > c->c.ram_bytes || len > c->c.ram_bytes - pa)
        return sim_fail(SIM_ERR_RANGE,
                        "cpu440: code of %zu bytes at 0x%08x is outside "
                        "%u bytes of RAM",
                        len, pa, c->c.ram_bytes);
    const uint8_t *p = iss_ram(c->iss) + pa;
    for (size_t i = 0; i + 4 <= len; i += 4) {
        uint32_t w = ram_be(p + i, 4);
        /* mfspr rD,268/269 and the legacy mftb (XO 371) */
        uint32_t k = w & 0xfc1fffffu;
        if (k == 0x7c0c42a6u || k == 0x7c0d42a6u || k == 0x7c0c42e6u ||
            k == 0x7c0d42e6u) {
            sim_err e = iss_hook_insn(c->iss, ea + (uint32_t)i);
            if (e != SIM_OK)
                return e;
        }
    }
    return SIM_OK;
}

sim_err cpu440_load(cpu440 *c, uint32_t pa, uint32_t ea, const void *img,
                    size_t len)
{
    sim_err e = cpu440_load_data(c, pa, img, len);
    return e == SIM_OK ? cpu440_scan_timebase(c, pa, ea, len) : e;
}

sim_err cpu440_load_data(cpu440 *c, uint32_t pa, const void *data, size_t len)
{
    if (pa > c->c.ram_bytes || len > c->c.ram_bytes - pa)
        return sim_fail(SIM_ERR_RANGE,
                        "cpu440: %zu bytes at 0x%08x do not fit %u bytes "
                        "of RAM",
                        len, pa, c->c.ram_bytes);
    memcpy(iss_ram(c->iss) + pa, data, len);
    return SIM_OK;
}

void cpu440_set_boot(cpu440 *c, const cpu440_boot *b)
{
    c->boot = *b;
}

void cpu440_set_sink(cpu440 *c, const cpu440_sink *sink)
{
    c->sink = *sink;
}

void cpu440_set_coster(cpu440 *c, const cpu440_coster *k)
{
    if (k)
        c->coster = *k;
    else
        memset(&c->coster, 0, sizeof c->coster);
}

void cpu440_set_console(cpu440 *c, void (*fn)(void *, int), void *ctx)
{
    c->uart.console = fn;
    c->uart.console_ctx = ctx;
}

sim_err cpu440_set_input(cpu440 *c, const char *text)
{
    free(c->input);
    c->input_len = strlen(text);
    c->input = malloc(c->input_len + 1);
    if (!c->input)
        return sim_fail(SIM_ERR_NOMEM, "cpu440: out of memory");
    memcpy(c->input, text, c->input_len + 1);
    c->input_pos = 0;
    return SIM_OK;
}

sim_err cpu440_run(cpu440 *c, const cpu440_limits *lim, cpu440_end *end)
{
    c->lim = lim;
    booke_reset(c);
    tlb440_reset(c->tlb);
    dev_reset(c);
    memset(c->uni, 0, sizeof c->uni);
    memset(c->owner, 0xff, sizeof c->owner); /* -1: Unicorn's slots empty */
    memset(c->uslot, 0xff, sizeof c->uslot);
    c->uni_next = 0;
    memset(c->ver_seen, 0xff, sizeof c->ver_seen); /* force a first sync */
    hostpages_reset(&c->hp);
    memset(&c->cnt, 0, sizeof c->cnt);
    c->icount = c->icount_entry = c->tb_entry = 0;
    c->hidden = 0;
    c->guest_extra = 0;
    c->npend = 0;
    c->in_exit = false;
    c->poweroff = c->stop_asked = false;
    c->err = SIM_OK;
    c->rng = 0x9e3779b97f4a7c15ull;
    c->shadow_pid = 1;
    c->next_host_tick = c->next_extint = c->next_signal = 0;
    c->next_input = c->input_len ? ticks(c, c->c.think_s) : UINT64_MAX;
    c->input_pos = 0;
    reschedule(c, 0);
    iss_set_pid(c->iss, 1);
    if (c->boot.linux_entry) {
        /* QEMU's bamboo loader for a KVM guest (mmubooke_create_initial_
         * mapping): one 256 MB entry EA 0 -> PA 0, supervisor RWX */
        tlb440_entry e = {0, tlbw_make_w0(0, TLBSZ_256M, true, 0),
                          tlbw_make_w1(0), TLBW2_S_PERMS};
        tlb440_gtlb_write(c->tlb, 0, &e);
        tlb440_entry none = {0};
        tlb440_gtlb_write(c->tlb, 1, &none);
        iss_set_gpr(c->iss, 1, c->boot.r1);
        iss_set_gpr(c->iss, 3, c->boot.r3);
    }
    uint32_t pc = 0;
    for (;;) {
        sim_err e = iss_run(c->iss, pc);
        if (e == SIM_OK)
            e = c->err;
        if (e != SIM_OK)
            return e;
        if (iss_stopped(c->iss))
            break;
        /* uc_emu_start returned without our stop: cannot happen */
        return sim_fail(SIM_ERR_CHECK, "cpu440: Unicorn stopped by itself");
    }
    if (c->npend) {
        c->pend[0].guest = 0; /* stopped right at the entry */
        flush_pend(c);
    }
    if (c->err != SIM_OK)
        return c->err;
    *end = c->poweroff     ? CPU440_POWEROFF
           : c->stop_asked ? CPU440_STOPPED
                           : CPU440_LIMIT;
    return SIM_OK;
}

void cpu440_get_counters(const cpu440 *c, cpu440_counters *out)
{
    *out = c->cnt;
    out->guest_insns = c->icount;
    out->tb = c->in_exit ? c->pend[0].tb : c->tb_entry;
    out->stub_runs = iss_stub_runs(c->iss);
    const tlb440_stats *ts = tlb440_get_stats(c->tlb);
    out->shadow_maps = ts->maps;
    out->host_fills = ts->host_fills;
    out->host_evicted_guest = ts->host_evicted_guest;
    out->mftb = c->mftb_reads;
    memcpy(out->delivered, c->delivered, sizeof out->delivered);
}
