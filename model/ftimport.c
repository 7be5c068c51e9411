/* ftimport: kvm tracepoint text -> trace.bin, classified with the kernel's
 * exit-timing rules (booke.c kvmppc_handle_exit 2.6.29-3.10, reference
 * docs/kvm440.md §1, §3, §6). See docs/ftrace-import.md for the rules
 * and the defaults taken where the text cannot decide. */
#include "ftimport.h"

#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "sim_config.h"
#include "tlb440.h"
#include "tlbword.h"
#include "trace.h"

#define MSR_WE 0x00040000u
#define MSR_PR 0x00004000u
#define MSR_IS 0x00000020u
#define MSR_DS 0x00000010u

/* state records an exit may carry before it is classified (a guest tlbwe
 * of a valid entry releases up to 64 shadows: 64 invals + writes) */
#define PEND_STATE 160

enum soft_answer { SOFT_UNKNOWN = -1 };

typedef struct vcpu {
    uint32_t pid;
    trace_writer *w; /* NULL: not written */
    tlb440 *tlb;
    uint64_t known; /* guest TLB entries a kvm_gtlb_write has shown */
    uint32_t pid_guess;
    uint64_t last_tb;
    bool any;
    int prev_type; /* -1: none yet */
    uint64_t events;
    /* the open exit: classified when the thread's next exit arrives */
    bool open;
    trace_rec ex;
    uint32_t msr;
    int soft;      /* tlb440_class of a TLB miss, or SOFT_UNKNOWN */
    bool soft_pid; /* ... that depends on the guessed guest PID */
    int emulate;   /* kvm_ppc_instr's emulate, CLASSIFY_UNKNOWN if none */
    uint32_t instr_inst;
    bool stlb_written;
    int user; /* ftrace_user_reason, -1 if none */
    bool lost;
    unsigned nst;
    trace_rec st[PEND_STATE];
    /* what was written */
    uint64_t records, exits;
    uint64_t types[EXIT__COUNT];
    uint64_t amb[FTA__COUNT];
    uint64_t ambiguous, wait_candidates;
    uint64_t tlb_misses, tlb_by_events, tlb_by_gtlb, tlb_disagree;
    /* data misses the guest TLB maps above --guest-ram: MMIO by a
     * following KVM_EXIT_MMIO, not MMIO because none followed in a trace
     * that shows user-space exits, MMIO by the --guest-ram guess alone */
    uint64_t above_ram_mmio_events, above_ram_not_mmio, above_ram_mmio_guess;
} vcpu;

struct ftimport {
    ftimport_opts o;
    char *out_path;
    trace_header h;
    ftimport_report rep;
    bool has_stlb;  /* a kvm_stlb_write was seen: a VIRT miss shows one */
    bool has_instr; /* a kvm_ppc_instr was seen: an MMIO exit shows one */
    bool has_user;  /* a kvm_userspace_exit was seen: before 3.9 every
                       MMIO exit goes to user space and shows one */
    unsigned nv;
    vcpu *v[FTIMPORT_MAX_THREADS];
    vcpu *last; /* the thread of the previous event (usually the same) */
    sim_err err;
};

const char *ftimport_amb_text(ftimport_amb a)
{
    static const char *const t[] = {
#define X(n, s) s,
        FTIMPORT_AMB_LIST(X)
#undef X
    };
    return (unsigned)a < FTA__COUNT ? t[a] : "?";
}

void ftimport_defaults(ftimport_opts *o)
{
    memset(o, 0, sizeof *o);
    o->name = "<input>";
    o->tb_hz = FTIMPORT_TB_HZ_DEFAULT;
    o->wait_us = FTIMPORT_WAIT_US_DEFAULT;
    o->guest_ram = FTIMPORT_GUEST_RAM_DEFAULT;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The input as the user typed it, for errors that end the import. */
static const char *input_path(const ftimport *im)
{
    return im->o.path ? im->o.path : im->rep.name;
}

sim_err ftimport_new(ftimport **imp, const ftimport_opts *o,
                     const char *out_path)
{
    *imp = NULL;
    if (o->tb_hz == 0 || o->tb_hz > 10000000000ull)
        return sim_fail(SIM_ERR_RANGE, "tb_hz %llu: expected 1 Hz .. 10 GHz",
                        (unsigned long long)o->tb_hz);
    ftimport *im = calloc(1, sizeof *im);
    if (!im || !(im->out_path = strdup(out_path))) {
        free(im);
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    }
    im->o = *o;
    snprintf(im->rep.name, sizeof im->rep.name, "%s", base_name(o->name));
    trace_header *h = &im->h;
    h->source = TSRC_FTRACE;
    h->tb_hz = h->core_hz = o->tb_hz; /* 440EP/EPx: tb = core clock */
    /* workload: printable ASCII, at most 31 characters */
    const char *wl = o->workload ? o->workload : im->rep.name;
    size_t n = 0;
    for (const char *c = wl; *c && n < sizeof h->workload - 1; c++)
        h->workload[n++] = (*c >= 0x20 && *c < 0x7f) ? *c : '_';
    snprintf(h->tool_version, sizeof h->tool_version, "%s", SIM_VERSION);
    snprintf(h->cost_label, sizeof h->cost_label, "ftrace: no ticks");
    *imp = im;
    return SIM_OK;
}

/* Nothing is known of the guest TLB before the trace shows a write, nor
 * after events were lost: every entry invalid (never matches) and unknown. */
static void forget_gtlb(vcpu *v)
{
    tlb440_entry inv = {0, 0, 0, 0};
    for (unsigned i = 0; i < 64; i++)
        tlb440_gtlb_write(v->tlb, i, &inv);
    v->known = 0;
}

/* ---- threads ---- */
static SIM_MUST_CHECK sim_err vcpu_get(ftimport *im, uint32_t pid, vcpu **out)
{
    *out = NULL;
    if (im->last && im->last->pid == pid) {
        *out = im->last;
        return SIM_OK;
    }
    for (unsigned i = 0; i < im->nv; i++)
        if (im->v[i]->pid == pid) {
            *out = im->last = im->v[i];
            return SIM_OK;
        }
    if (im->nv == FTIMPORT_MAX_THREADS) {
        if (im->o.vcpu_set && pid != im->o.vcpu)
            return SIM_OK; /* counted as untracked */
        return sim_fail(SIM_ERR_UNSUPP,
                        "%s: more than %d threads emit kvm events: choose "
                        "one with --vcpu PID",
                        input_path(im), FTIMPORT_MAX_THREADS);
    }
    vcpu *v = calloc(1, sizeof *v);
    if (!v)
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    tlb440_config tc = {.gtlb_entries = 64,
                        .utlb_entries = 64,
                        .utlb_pinned = 1,
                        .guest_ram_bytes = im->o.guest_ram};
    sim_err e = tlb440_new(&v->tlb, &tc);
    if (e) {
        free(v);
        return e;
    }
    forget_gtlb(v);
    v->pid = pid;
    v->prev_type = -1;
    v->emulate = CLASSIFY_UNKNOWN;
    v->user = -1;
    if (!im->o.vcpu_set || pid == im->o.vcpu) {
        if ((e = trace_writer_open(&v->w, im->out_path, &im->h))) {
            tlb440_free(v->tlb);
            free(v);
            if (im->nv > 0 && e == SIM_ERR_USAGE) {
                /* a device or pipe takes one trace, not one per thread */
                char m[400];
                snprintf(m, sizeof m, "%s", sim_errmsg());
                e = sim_fail(e, "%s; several threads emit kvm events: "
                                "choose one with --vcpu PID", m);
            }
            return e;
        }
    }
    im->v[im->nv++] = v;
    *out = im->last = v;
    return SIM_OK;
}

static SIM_MUST_CHECK sim_err put(vcpu *v, const trace_rec *r)
{
    v->records++;
    return v->w ? trace_writer_put(v->w, r) : SIM_OK;
}

/* ---- classification of the open exit ---- */
static void amb(vcpu *v, ftimport_amb a, bool *flag)
{
    v->amb[a]++;
    *flag = true;
}

/* Soft-TLB answer for a TLB miss, taken when the exit arrives (later guest
 * tlbwe must not change it). */
static void soft_classify(ftimport *im, vcpu *v)
{
    bool itlb = v->ex.irq == BOOKE_IRQ_ITLB_MISS;
    uint32_t ea = itlb ? v->ex.pc : v->ex.addr;
    unsigned as = (v->msr & (itlb ? MSR_IS : MSR_DS)) ? 1u : 0u;
    if (v->known == 0) {
        v->soft = SOFT_UNKNOWN; /* no guest TLB write seen (yet) */
        v->soft_pid = false;
        return;
    }
    int gi = tlb440_gtlb_search(v->tlb, ea, as, v->pid_guess, NULL);
    /* whether some known entry for ea belongs to a process (TID != 0): its
     * match depends on the guest PID, which is not traced */
    bool pid_dep = false;
    for (unsigned i = 0; i < 64 && !pid_dep; i++) {
        const tlb440_entry *e = tlb440_gtlb(v->tlb, i);
        if (tlbw_tid(e->tid) != 0 && tlbw_v(e->w0) && tlbw_ts(e->w0) == as &&
            ea >= tlbw_epn(e->w0) && (uint64_t)ea <= tlbw_end(e->w0))
            pid_dep = true;
    }
    v->soft_pid = pid_dep;
    if (gi >= 0) {
        const tlb440_entry *e = tlb440_gtlb(v->tlb, (unsigned)gi);
        uint64_t ra = tlbw_raddr(e->w1) + (ea - tlbw_epn(e->w0));
        v->soft = ra < im->o.guest_ram ? TLB440_VIRT : TLB440_MMIO;
    } else if (v->known == ~0ull) {
        v->soft = TLB440_REAL;
    } else {
        v->soft = SOFT_UNKNOWN;
    }
}

static exit_type classify_tlb(ftimport *im, vcpu *v, bool *a)
{
    bool itlb = v->ex.irq == BOOKE_IRQ_ITLB_MISS;
    exit_type virt = itlb ? EXIT_ITLBVIRT : EXIT_DTLBVIRT;
    exit_type real = itlb ? EXIT_ITLBREAL : EXIT_DTLBREAL;
    bool pr = (v->msr & MSR_PR) != 0;
    bool magic = im->o.pv && !itlb && !pr &&
                 (v->ex.addr & ~0xfffu) == CLASSIFY_MAGIC_PAGE;
    v->tlb_misses++;
    /* what the kernel did, when the trace shows it */
    if (!itlb && v->emulate == CLASSIFY_FAIL) {
        v->tlb_by_events++;
        return EXIT_EMULINST; /* the MMIO path's emulation failed */
    }
    if (!itlb && (v->emulate == CLASSIFY_DO_MMIO || v->user == FTU_MMIO)) {
        v->tlb_by_events++;
        if (v->soft == TLB440_MMIO)
            v->above_ram_mmio_events++;
        if (v->soft != SOFT_UNKNOWN && v->soft != TLB440_MMIO)
            v->tlb_disagree++;
        return EXIT_MMIO;
    }
    /* evidence before guesses: in a trace that shows user-space exits, a
     * data miss above --guest-ram with no KVM_EXIT_MMIO after it was not
     * MMIO (the guest has more RAM than --guest-ram says) */
    if (!itlb && v->soft == TLB440_MMIO && im->has_user && !v->lost) {
        v->tlb_by_events++;
        v->above_ram_not_mmio++;
        if (im->has_stlb && !v->stlb_written)
            v->tlb_disagree++; /* no shadow mapped either */
        return virt;
    }
    if (v->stlb_written) {
        v->tlb_by_events++;
        if (v->soft != SOFT_UNKNOWN && v->soft != TLB440_VIRT &&
            !(itlb && v->soft == TLB440_MMIO))
            v->tlb_disagree++;
        return virt;
    }
    if (im->has_stlb && !v->lost) {
        /* shadow-TLB events are traced and none followed: no shadow was
         * mapped, so the guest TLB missed (or an MMIO exit whose
         * kvm_ppc_instr is not traced) */
        v->tlb_by_events++;
        if (!itlb && v->soft == TLB440_MMIO && !im->has_instr) {
            v->above_ram_mmio_guess++;
            return EXIT_MMIO;
        }
        if (v->soft == TLB440_VIRT || (v->soft == TLB440_MMIO && itlb))
            v->tlb_disagree++;
        return magic ? EXIT_DTLBPV : real;
    }
    if (v->soft != SOFT_UNKNOWN && !(magic && v->soft == TLB440_REAL)) {
        v->tlb_by_gtlb++;
        if (v->soft_pid)
            amb(v, FTA_TLB_PID, a);
        if (v->soft == TLB440_REAL)
            return real;
        if (v->soft == TLB440_MMIO && !itlb) {
            v->above_ram_mmio_guess++;
            return EXIT_MMIO;
        }
        return virt; /* ITLBVIRT is charged before the RAM check */
    }
    if (magic)
        return EXIT_DTLBPV;
    amb(v, FTA_TLB_UNKNOWN, a);
    return virt;
}

static exit_type classify_exit(ftimport *im, vcpu *v, bool has_next,
                               uint64_t next_tb, bool next_pr, bool *a)
{
    unsigned irq = v->ex.irq;
    bool pr = (v->msr & MSR_PR) != 0;
    if (irq == BOOKE_IRQ_DTLB_MISS || irq == BOOKE_IRQ_ITLB_MISS)
        return classify_tlb(im, v, a);
    if (irq == BOOKE_IRQ_PROGRAM) {
        if (pr)
            return EXIT_USR_PR_INST; /* reflected, not emulated */
        exit_type t;
        uint32_t inst;
        if (v->emulate != CLASSIFY_UNKNOWN) {
            inst = v->instr_inst;
            t = classify_program(inst, v->emulate);
        } else {
            inst = v->ex.inst;
            t = classify_program(inst, CLASSIFY_UNKNOWN);
            amb(v, FTA_PROGRAM_NO_INSTR, a);
        }
        if ((t == EXIT_EMUL_MTMSR || t == EXIT_EMUL_RFI) &&
            classify_may_wait(inst)) {
            /* kvm_vcpu_block ran if the new MSR had WE: the guest then
             * slept until an interrupt, and its handler (supervisor mode)
             * is what exits next */
            v->wait_candidates++;
            uint64_t gap = has_next ? next_tb - v->ex.tb : 0;
            if (im->o.wait_us && has_next && !next_pr &&
                gap > (uint64_t)im->o.wait_us * im->o.tb_hz / 1000000u) {
                amb(v, FTA_WAIT, a);
                t = EXIT_EMUL_WAIT;
            }
        }
        return t;
    }
    if (v->emulate == CLASSIFY_DO_MMIO || v->user == FTU_MMIO)
        return EXIT_MMIO;
    if (irq == BOOKE_IRQ_SYSCALL && !pr) {
        amb(v, FTA_SC_SUPERVISOR, a);
        return im->o.pv ? EXIT_HCALL : EXIT_SYSCALL;
    }
    int t = classify_by_irq(irq, pr);
    if (t >= 0)
        return (exit_type)t;
    /* machine check, alignment, FIT, watchdog, SPE ...: the kernel sets no
     * type, the previous exit's row is charged again */
    amb(v, FTA_NO_TYPE, a);
    if (v->prev_type >= 0)
        return (exit_type)v->prev_type;
    amb(v, FTA_NO_PREVIOUS, a);
    return EXIT_EMULINST;
}

/* Classifies and writes the open exit and the state events after it. */
static SIM_MUST_CHECK sim_err close_exit(ftimport *im, vcpu *v, bool has_next,
                                         uint64_t next_tb, bool next_pr)
{
    if (!v->open)
        return SIM_OK;
    bool a = false;
    uint64_t amb_before[FTA__COUNT];
    memcpy(amb_before, v->amb, sizeof amb_before);
    exit_type t = classify_exit(im, v, has_next, next_tb, next_pr, &a);
    if (v->user == FTU_INTR) {
        /* a signal found after the handler overrides the type, so what was
         * guessed about the first one is not in the trace: the report
         * counts only guesses the trace holds (an EMUL_WAIT guess here
         * would be one more than the trace's EMUL_WAIT exits) */
        t = EXIT_SIGNAL;
        memcpy(v->amb, amb_before, sizeof amb_before);
        a = false;
    }
    if (v->lost)
        amb(v, FTA_LOST, &a);
    v->ex.type = (uint8_t)t;
    if (v->user >= 0)
        v->ex.flags |= TRF_USERSPACE;
    v->exits++;
    v->types[t]++;
    v->ambiguous += a;
    v->prev_type = (int)t;
    v->open = false;
    sim_err e = put(v, &v->ex);
    for (unsigned i = 0; i < v->nst && !e; i++)
        e = put(v, &v->st[i]);
    v->nst = 0;
    return e;
}

static void open_exit(ftimport *im, vcpu *v, const ftrace_line *l, uint64_t tb)
{
    v->open = true;
    v->msr = l->u.exit.msr;
    v->ex = (trace_rec){.kind = TREC_EXIT,
                        .type = EXIT_EMULINST,
                        .irq = (uint8_t)l->u.exit.irq,
                        .flags = (v->msr & MSR_PR) ? TRF_GUEST_PR : 0,
                        .pc = l->u.exit.pc,
                        .inst = l->u.exit.last_inst,
                        /* the fault address: DEAR is not written by
                         * instruction-side faults, so their dar is stale
                         * and pc is the address (as cpu440 records it) */
                        .addr = (l->u.exit.irq == BOOKE_IRQ_ITLB_MISS ||
                                 l->u.exit.irq == BOOKE_IRQ_INST_STORAGE)
                                    ? l->u.exit.pc
                                    : l->u.exit.dar,
                        .tb = tb};
    v->emulate = CLASSIFY_UNKNOWN;
    v->user = -1;
    v->stlb_written = false;
    v->lost = false;
    v->soft = SOFT_UNKNOWN;
    v->soft_pid = false;
    if (l->u.exit.irq == BOOKE_IRQ_DTLB_MISS ||
        l->u.exit.irq == BOOKE_IRQ_ITLB_MISS)
        soft_classify(im, v);
}

/* A state event: after the open exit's record, or at once if none. */
static SIM_MUST_CHECK sim_err state(ftimport *im, vcpu *v, const trace_rec *r)
{
    if (!v->open)
        return put(v, r);
    if (v->nst == PEND_STATE) {
        /* more state than one exit makes: classify the exit with what is
         * known now and write it, so memory stays bounded */
        sim_err e = close_exit(im, v, false, 0, false);
        if (e)
            return e;
        return put(v, r);
    }
    v->st[v->nst++] = *r;
    return SIM_OK;
}

static void note_malformed(ftimport *im, const char *line, size_t len,
                           const char *what)
{
    ftimport_report *r = &im->rep;
    r->malformed++;
    if (r->nmsgs < FTIMPORT_MSGS) {
        int n = len > 160 ? 160 : (int)len;
        char m[sizeof r->msgs[0]]; /* not in place: r->name is in *r too */
        snprintf(m, sizeof m, "%s:%llu: %s\n  %.*s%s", r->name,
                 (unsigned long long)r->lines, what, n, line,
                 len > 160 ? "..." : "");
        memcpy(r->msgs[r->nmsgs++], m, sizeof m);
    }
}

static uint64_t ns_to_tb(const ftimport *im, uint64_t ns)
{
    /* round(ns * hz / 1e9), so tb -> ns (rounded) -> tb is exact whenever
     * a tick is longer than the text's resolution; in 64-bit parts (no
     * 128-bit division per line): frac * hz < 1e9 * 1e10 fits */
    uint64_t hz = im->o.tb_hz, sec = ns / 1000000000u, frac = ns % 1000000000u;
    if (sec > (UINT64_MAX - hz) / hz)
        return UINT64_MAX;
    return sec * hz + (frac * hz + 500000000u) / 1000000000u;
}

sim_err ftimport_line(ftimport *im, const char *line, size_t len, bool cut)
{
    ftimport_report *r = &im->rep;
    ftrace_line l;
    r->lines++;
    r->cut_lines += cut;
    ftrace_parse_line(line, len, &l);
    r->kinds[l.kind]++;
    switch (l.kind) {
    case FTL_BLANK:
    case FTL_COMMENT:
    case FTL_OTHER: return SIM_OK;
    case FTL_LOST:
        /* whatever the lost events were, the guest TLB may have changed
         * and open exits may miss their follow-up events */
        r->lost_events += l.u.lost.events;
        for (unsigned i = 0; i < im->nv; i++) {
            forget_gtlb(im->v[i]);
            if (im->v[i]->open)
                im->v[i]->lost = true;
        }
        return SIM_OK;
    case FTL_MALFORMED: {
        char what[200];
        snprintf(what, sizeof what, "%s: expected %s at column %u%s",
                 ftrace_kind_event(l.claimed), l.expected, l.col,
                 cut ? " (the line is cut: longer than 4096 bytes)" : "");
        note_malformed(im, line, len, what);
        return SIM_OK;
    }
    default: break;
    }
    /* range checks the format cannot express */
    if ((l.kind == FTL_GTLB_WRITE || l.kind == FTL_STLB_WRITE) &&
        (l.u.tlb.index > 63 || l.u.tlb.tid > 255)) {
        r->kinds[l.kind]--;
        r->kinds[FTL_MALFORMED]++;
        note_malformed(im, line, len,
                       l.u.tlb.index > 63 ? "TLB index out of range 0..63"
                                          : "tid out of range 0..255");
        return SIM_OK;
    }
    if (l.kind == FTL_STLB_INVAL && l.u.inval.index > 63) {
        r->kinds[l.kind]--;
        r->kinds[FTL_MALFORMED]++;
        note_malformed(im, line, len, "stlb_index out of range 0..63");
        return SIM_OK;
    }
    if (l.kind == FTL_EXIT && l.u.exit.irq > 255) {
        r->kinds[l.kind]--;
        r->kinds[FTL_MALFORMED]++;
        note_malformed(im, line, len, "exit number out of range 0..255");
        return SIM_OK;
    }
    vcpu *v;
    sim_err e = vcpu_get(im, l.pid, &v);
    if (e)
        return e;
    if (!v) {
        r->untracked_events++;
        return SIM_OK;
    }
    v->events++;
    uint64_t tb = ns_to_tb(im, l.ns);
    if (v->any && tb < v->last_tb) {
        /* host CPUs' clocks differ a little: a thread that migrated may
         * step back; the record keeps its place and the previous tb */
        r->out_of_order++;
        uint64_t bns = (uint64_t)((unsigned __int128)(v->last_tb - tb) *
                                  1000000000u / im->o.tb_hz);
        if (bns > r->max_back_ns)
            r->max_back_ns = bns;
        tb = v->last_tb;
    }
    v->last_tb = tb;
    v->any = true;
    switch (l.kind) {
    case FTL_EXIT:
        if ((e = close_exit(im, v, true, tb, (l.u.exit.msr & MSR_PR) != 0)))
            return e;
        open_exit(im, v, &l, tb);
        return SIM_OK;
    case FTL_PPC_INSTR:
        im->has_instr = true;
        if (!v->open || v->emulate != CLASSIFY_UNKNOWN) {
            r->orphans++;
            return SIM_OK;
        }
        v->emulate = (int)(l.u.instr.emulate > 5 ? 5 : l.u.instr.emulate);
        v->instr_inst = l.u.instr.inst;
        return SIM_OK;
    case FTL_USER_EXIT:
        im->has_user = true;
        if (!v->open || v->user >= 0) {
            r->orphans++;
            return SIM_OK;
        }
        v->user = (int)l.u.user.reason;
        return SIM_OK;
    case FTL_GTLB_WRITE: {
        tlb440_entry en = {l.u.tlb.tid, l.u.tlb.w0, l.u.tlb.w1, l.u.tlb.w2};
        tlb440_gtlb_write(v->tlb, l.u.tlb.index, &en);
        v->known |= 1ull << l.u.tlb.index;
        if (tlbw_tid(en.tid) != 0)
            v->pid_guess = tlbw_tid(en.tid); /* Linux writes TID = PID */
        trace_rec s = {.kind = TREC_GTLB_WRITE,
                       .type = (uint8_t)l.u.tlb.index,
                       .irq = (uint8_t)l.u.tlb.tid,
                       .pc = en.w0,
                       .inst = en.w1,
                       .addr = en.w2,
                       .tb = tb};
        return state(im, v, &s);
    }
    case FTL_STLB_WRITE: {
        im->has_stlb = true;
        if (v->open)
            v->stlb_written = true;
        trace_rec s = {.kind = TREC_STLB_WRITE,
                       .type = (uint8_t)l.u.tlb.index,
                       .irq = (uint8_t)l.u.tlb.tid,
                       .pc = l.u.tlb.w0,
                       .inst = l.u.tlb.w1,
                       .addr = l.u.tlb.w2,
                       .tb = tb};
        return state(im, v, &s);
    }
    case FTL_STLB_INVAL: {
        trace_rec s = {.kind = TREC_STLB_INVAL,
                       .type = (uint8_t)l.u.inval.index,
                       .tb = tb};
        return state(im, v, &s);
    }
    default: return SIM_OK;
    }
}

sim_err ftimport_finish(ftimport *im, ftimport_report *rep)
{
    sim_err e = SIM_OK;
    for (unsigned i = 0; i < im->nv && !e; i++)
        e = close_exit(im, im->v[i], false, 0, false);
    ftimport_report *r = &im->rep;
    vcpu *best = NULL;
    r->nthreads = im->nv;
    for (unsigned i = 0; i < im->nv; i++) {
        vcpu *v = im->v[i];
        r->threads[i] = (ftimport_thread){v->pid, v->exits, v->events};
        if (!v->w)
            continue;
        if (!best || v->exits > best->exits)
            best = v; /* ties: the first thread seen */
    }
    if (!e && (!best || best->exits == 0)) {
        if (im->o.vcpu_set)
            e = sim_fail(SIM_ERR_FORMAT,
                         "%s: no kvm_exit event of thread %u: nothing to "
                         "import",
                         input_path(im), im->o.vcpu);
        else
            e = sim_fail(SIM_ERR_FORMAT,
                         "%s: no kvm_exit event: nothing to import (%llu "
                         "lines read)",
                         input_path(im), (unsigned long long)r->lines);
    }
    if (!e) {
        r->written = true;
        r->written_pid = best->pid;
        r->records = best->records;
        r->exits = best->exits;
        memcpy(r->types, best->types, sizeof r->types);
        memcpy(r->amb, best->amb, sizeof r->amb);
        r->ambiguous = best->ambiguous;
        r->wait_candidates = best->wait_candidates;
        r->tlb_misses = best->tlb_misses;
        r->tlb_by_events = best->tlb_by_events;
        r->tlb_by_gtlb = best->tlb_by_gtlb;
        r->tlb_disagree = best->tlb_disagree;
        r->above_ram_mmio_events = best->above_ram_mmio_events;
        r->above_ram_not_mmio = best->above_ram_not_mmio;
        r->above_ram_mmio_guess = best->above_ram_mmio_guess;
        e = trace_writer_close(best->w);
        best->w = NULL;
        if (e)
            r->written = false;
    }
    for (unsigned i = 0; i < im->nv; i++)
        if (im->v[i]->w) {
            trace_writer_abort(im->v[i]->w);
            im->v[i]->w = NULL;
        }
    if (rep)
        *rep = *r;
    return e;
}

void ftimport_free(ftimport *im)
{
    if (!im)
        return;
    for (unsigned i = 0; i < im->nv; i++) {
        if (im->v[i]->w)
            trace_writer_abort(im->v[i]->w);
        tlb440_free(im->v[i]->tlb);
        free(im->v[i]);
    }
    free(im->out_path);
    free(im);
}

static SIM_MUST_CHECK sim_err run(ftrace_reader *rd, const ftimport_opts *o,
                                  const char *out_path, ftimport_report *rep)
{
    ftimport *im;
    sim_err e = ftimport_new(&im, o, out_path);
    if (e)
        return e;
    for (;;) {
        const char *line;
        size_t len;
        bool cut, eof;
        if ((e = ftrace_reader_next(rd, &line, &len, &cut, &eof)) || eof)
            break;
        if ((e = ftimport_line(im, line, len, cut)))
            break;
        if (o->progress && im->rep.lines % TRACE_PROGRESS_LINES == 0)
            o->progress(o->progress_ctx, im->rep.lines, 0);
    }
    if (!e)
        e = ftimport_finish(im, rep);
    else if (rep)
        *rep = im->rep;
    ftimport_free(im);
    return e;
}

sim_err ftimport_file(const char *path, const ftimport_opts *o,
                      const char *out_path, ftimport_report *rep)
{
    ftrace_reader *rd;
    sim_err e = ftrace_reader_open(&rd, path);
    if (e)
        return e;
    e = run(rd, o, out_path, rep);
    ftrace_reader_close(rd);
    return e;
}

sim_err ftimport_buf(const char *buf, size_t len, const ftimport_opts *o,
                     const char *out_path, ftimport_report *rep)
{
    ftrace_reader *rd;
    sim_err e = ftrace_reader_open_mem(&rd, buf, len);
    if (e)
        return e;
    e = run(rd, o, out_path, rep);
    ftrace_reader_close(rd);
    return e;
}

/* ---- report ---- */
typedef unsigned long long ull;

void ftimport_print_report(FILE *f, const ftimport_report *r,
                           const char *out_name)
{
    for (unsigned i = 0; i < r->nmsgs; i++)
        fprintf(f, "sim import ftrace: %s\n", r->msgs[i]);
    if (r->malformed > r->nmsgs)
        fprintf(f, "sim import ftrace: ... and %llu more malformed lines\n",
                (ull)(r->malformed - r->nmsgs));
    fprintf(f, "import of %s\n", r->name);
    fprintf(f, "  lines read      %llu\n", (ull)r->lines);
    fprintf(f, "  events read    ");
    for (int k = FTL_EXIT; k < FTL__COUNT; k++)
        fprintf(f, " %s %llu%s", ftrace_kind_event((ftrace_kind)k),
                (ull)r->kinds[k], k + 1 < FTL__COUNT ? "," : "\n");
    fprintf(f,
            "  skipped         %llu: comments and headers %llu, blank %llu, "
            "other events %llu\n",
            (ull)(r->kinds[FTL_COMMENT] + r->kinds[FTL_BLANK] +
                  r->kinds[FTL_OTHER]),
            (ull)r->kinds[FTL_COMMENT], (ull)r->kinds[FTL_BLANK],
            (ull)r->kinds[FTL_OTHER]);
    fprintf(f, "  malformed       %llu line%s%s\n", (ull)r->malformed,
            r->malformed == 1 ? "" : "s",
            r->malformed ? " (not imported, listed above)" : "");
    if (r->cut_lines)
        fprintf(f, "  cut             %llu lines longer than %d bytes\n",
                (ull)r->cut_lines, FTRACE_LINE_MAX);
    fprintf(f, "  lost            %llu event%s in %llu LOST line%s%s\n",
            (ull)r->lost_events, r->lost_events == 1 ? "" : "s",
            (ull)r->kinds[FTL_LOST], r->kinds[FTL_LOST] == 1 ? "" : "s",
            r->kinds[FTL_LOST] ? " (guest TLB knowledge reset at each)" : "");
    fprintf(f, "  out of order    %llu event%s", (ull)r->out_of_order,
            r->out_of_order == 1 ? "" : "s");
    if (r->out_of_order)
        fprintf(f, " (up to %llu ns back; given their thread's previous tb)",
                (ull)r->max_back_ns);
    fprintf(f, "\n");
    fprintf(f,
            "  orphans         %llu follow-up event%s without an open "
            "kvm_exit of their thread (not imported)\n",
            (ull)r->orphans, r->orphans == 1 ? "" : "s");
    fprintf(f, "  threads         %u with kvm events:", r->nthreads);
    for (unsigned i = 0; i < r->nthreads; i++) {
        const ftimport_thread *t = &r->threads[i];
        bool w = r->written && t->pid == r->written_pid;
        fprintf(f, "%s %u (%llu exits%s)", i ? "," : "", t->pid, (ull)t->exits,
                w ? ", written" : ", not written");
    }
    fprintf(f, "\n");
    if (r->untracked_events)
        fprintf(f, "  untracked       %llu events of further threads\n",
                (ull)r->untracked_events);
    if (!r->written)
        return;
    fprintf(f,
            "  written         %llu exits, %llu records of thread %u to %s\n",
            (ull)r->exits, (ull)r->records, r->written_pid,
            out_name ? out_name : "?");
    for (unsigned i = 0; i < r->nthreads; i++)
        if (r->threads[i].pid != r->written_pid && r->threads[i].exits)
            fprintf(f,
                    "  NOT WRITTEN     %llu exits of thread %u (import "
                    "them with --vcpu %u)\n",
                    (ull)r->threads[i].exits, r->threads[i].pid,
                    r->threads[i].pid);
    fprintf(f, "  exits by type\n");
    for (int t = 0; t < EXIT__COUNT; t++)
        if (r->types[t])
            fprintf(f, "    %-12s %12llu %7.2f%%\n", exit_name((exit_type)t),
                    (ull)r->types[t],
                    100.0 * (double)r->types[t] / (double)r->exits);
    fprintf(f,
            "  TLB misses      %llu: decided by the events after them %llu, "
            "by the guest TLB %llu, events and guest TLB disagreed %llu\n",
            (ull)r->tlb_misses, (ull)r->tlb_by_events, (ull)r->tlb_by_gtlb,
            (ull)r->tlb_disagree);
    fprintf(f,
            "  above RAM       data misses the guest TLB maps above "
            "--guest-ram: %llu MMIO by a following KVM_EXIT_MMIO, %llu not "
            "MMIO (user-space exits traced, none followed), %llu MMIO by the "
            "--guest-ram guess (the trace silent)\n",
            (ull)r->above_ram_mmio_events, (ull)r->above_ram_not_mmio,
            (ull)r->above_ram_mmio_guess);
    fprintf(f, "  mtmsr/rfi       %llu emulated, %llu taken as EMUL_WAIT\n",
            (ull)r->wait_candidates, (ull)r->amb[FTA_WAIT]);
    fprintf(f, "  ambiguous       %llu exit%s\n", (ull)r->ambiguous,
            r->ambiguous == 1 ? "" : "s");
    for (int a = 0; a < FTA__COUNT; a++)
        if (r->amb[a])
            fprintf(f, "    %10llu  %s\n", (ull)r->amb[a],
                    ftimport_amb_text((ftimport_amb)a));
}
