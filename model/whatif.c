/* whatif: the transform chain and the lockstep prediction (whatif.h,
 * docs/whatif.md). Adding a transform = one file model/xf_<name>.c
 * defining an xf_ops, and one line in `transforms` below. */
#include "whatif.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nearest.h"
#include "outfile.h"
#include "platform/platform.h"
#include "tlbword.h"

extern const xf_ops xf_pv, xf_no_iccci, xf_tlb_slots, xf_inkernel_mmio,
    xf_lazy_tlb, xf_null;

/* Every transform, in the order they apply when composed. */
static const xf_ops *const transforms[] = {
    &xf_pv,
    &xf_no_iccci,
    &xf_tlb_slots,
    &xf_inkernel_mmio,
    &xf_lazy_tlb,
    &xf_null,
};
#define N_XF (sizeof transforms / sizeof transforms[0])

struct whatif_chain {
    const xf_ops *ops[N_XF];
    void *state[N_XF];
    unsigned n;
    char name[1024];
};

/* A transform that takes one value (tlb-slots=N), not named options. */
static bool value_only(const xf_ops *x)
{
    return x->options[0] && !strchr(x->options, '=');
}

void whatif_list(FILE *f)
{
    for (size_t i = 0; i < N_XF; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", transforms[i]->name,
                 value_only(transforms[i])   ? "="
                 : transforms[i]->options[0] ? ":"
                                             : "",
                 transforms[i]->options);
        fprintf(f, "  %-30s %s\n", head, transforms[i]->summary);
    }
}

static sim_err unknown_transform(const char *name)
{
    nearest nn;
    nearest_init(&nn, name);
    char names[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < N_XF; i++) {
        nearest_offer(&nn, transforms[i]->name);
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                i ? ", " : "", transforms[i]->name);
    }
    const char *best = nearest_best(&nn);
    return sim_fail(SIM_ERR_USAGE,
                    "whatif: unknown transform '%s'%s%s%s (valid: %s)", name,
                    best ? " (did you mean '" : "", best ? best : "",
                    best ? "'?)" : "", names);
}

sim_err whatif_chain_parse(whatif_chain **cp, const char *spec)
{
    *cp = NULL;
    if (!spec || !*spec)
        return sim_fail(SIM_ERR_USAGE, "whatif: empty --transform");
    /* 'pv,' or 'pv,,no-iccci': an empty name is a typo, not nothing */
    size_t sl = strlen(spec);
    if (spec[0] == ',' || spec[sl - 1] == ',' || strstr(spec, ",,"))
        return sim_fail(SIM_ERR_USAGE, "whatif: --transform '%s': an empty "
                                       "transform between commas", spec);
    whatif_chain *c = calloc(1, sizeof *c);
    char *copy = strdup(spec);
    if (!c || !copy) {
        free(c);
        free(copy);
        return sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
    }
    sim_err e = SIM_OK;
    const xf_ops *found[N_XF] = {0};
    void *state[N_XF] = {0};
    const char *given[N_XF] = {0}; /* the options as given, for the name */
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        /* name, then ':' options or '=' value */
        size_t k = strcspn(tok, ":=");
        char sep = tok[k];
        tok[k] = '\0';
        const char *opts = sep ? tok + k + 1 : NULL;
        size_t i;
        for (i = 0; i < N_XF; i++)
            if (!strcmp(tok, transforms[i]->name))
                break;
        if (i == N_XF) {
            e = unknown_transform(tok);
            break;
        }
        if (found[i]) {
            e = sim_fail(SIM_ERR_USAGE, "whatif: transform '%s' given twice",
                         tok);
            break;
        }
        if (sep == '=' && !transforms[i]->options[0]) {
            e = sim_fail(SIM_ERR_USAGE, "whatif: transform '%s' takes no "
                                        "value", tok);
            break;
        }
        e = transforms[i]->parse(&state[i], opts);
        if (e != SIM_OK)
            break;
        found[i] = transforms[i];
        given[i] = opts;
    }
    /* applied in table order whatever the order given: deterministic */
    for (size_t i = 0; i < N_XF; i++) {
        if (!found[i])
            continue;
        if (e == SIM_OK) {
            c->ops[c->n] = found[i];
            c->state[c->n++] = state[i];
            /* the name says what ran: "tlb-slots=48", not "tlb-slots" */
            size_t len = strlen(c->name);
            int k = snprintf(c->name + len, sizeof c->name - len, "%s%s%s%s",
                             len ? "," : "", found[i]->name,
                             !given[i]               ? ""
                             : value_only(found[i]) ? "="
                                                    : ":",
                             given[i] ? given[i] : "");
            if (k < 0 || (size_t)k >= sizeof c->name - len)
                e = sim_fail(SIM_ERR_USAGE, "whatif: --transform longer than "
                                            "%zu characters",
                             sizeof c->name - 1);
        }
    }
    for (size_t i = 0; i < N_XF; i++)
        if (found[i] && e != SIM_OK && found[i]->free)
            found[i]->free(state[i]);
    free(copy);
    if (e == SIM_OK && c->n == 0)
        e = sim_fail(SIM_ERR_USAGE, "whatif: empty --transform");
    if (e != SIM_OK) {
        free(c);
        return e;
    }
    *cp = c;
    return SIM_OK;
}

void whatif_chain_free(whatif_chain *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->n; i++)
        if (c->ops[i]->free)
            c->ops[i]->free(c->state[i]);
    free(c);
}

const char *whatif_chain_name(const whatif_chain *c)
{
    return c->name;
}

const char *whatif_chain_input(const whatif_chain *c, unsigned k)
{
    for (unsigned i = 0; i < c->n; i++) {
        const char *in = c->ops[i]->input ? c->ops[i]->input(c->state[i])
                                          : NULL;
        if (in && k-- == 0)
            return in;
    }
    return NULL;
}

void whatif_guest_line(char *buf, size_t n, const whatif_result *r)
{
    double hz = r->header.tb_hz ? (double)r->header.tb_hz : 1.0;
    double each = r->gone_n ? (double)r->guest_gone / (double)r->gone_n : 0;
    double cyc = r->header.core_hz ? each * (double)r->header.core_hz / hz
                                   : each;
    double sub = r->base_intervals ? 100.0 * (double)r->base_sub_usec /
                                         (double)r->base_intervals
                                   : 0;
    snprintf(buf, n,
             "guest time of the removed exits: their entries took %.6f s "
             "with them (%.0f cycles each: stub, tail, refills), their runs "
             "%.6f s and the patched code %.6f s went to the runs before; "
             "%.1f%% of the baseline's guest intervals are under 1 usec "
             "(%s; docs/whatif.md)",
             (double)r->guest_gone / hz, cyc, (double)r->guest_handed / hz,
             (double)r->guest_added / hz, sub,
             r->unit == STATS_USEC ? "2.6.29 accounting books them as 0"
                                   : "3.1 accounting sums their ticks: "
                                     "booked in full");
}

void whatif_chain_report(const whatif_chain *c, FILE *f)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->ops[i]->report)
            c->ops[i]->report(c->state[i], f);
}

/* ---- the lockstep pass ---- */

/* One side of the prediction: a model, its accounting and its clock. */
typedef struct side {
    cost_model *m;
    replay_cost_model hook;
    stats *s;
    uint64_t t;     /* timebase ticks, from the first exit's */
    uint64_t gsum;  /* guest ticks so far (the time-driven schedule) */
    /* the guest ticks' clock (the wall-time rule): t with each exit's host
     * time capped at one guest tick period (hcap): a guest kept out longer
     * takes one pending tick, not one per period */
    uint64_t tick_t, hcap;
    uint64_t exits;
    insnprof *prof;  /* --by-insn: every accounted exit, NULL: none */
    trace_writer *w; /* the transformed stream, for the timed platform */
    /* the last exit written and the state records after it, held back so
     * that a removed exit's run can still be added to its guest ticks */
    trace_rec held[64];
    size_t n_held;
    /* the guest run after the last exit: its type and instructions (known
     * unless the model drew them), for the refills a longer run needs */
    exit_type run_type;
    uint64_t run_insns;
    bool run_known;
} side;

struct whatif_env {
    side base, pred;
    whatif_result *res;
    bool started;
    sim_err err;
    /* the time-driven exits of the trace, with their place in the
     * baseline's guest time */
    trace_rec *timed;
    uint64_t *gamma;
    size_t n_timed, cap_timed, next_timed;
    /* the guest's wall-time-driven exits: per type, per timebase tick; the
     * rated types; per type the exits the rule owes (r x the kept share x
     * d, summed), the trace's exits seen and those the transforms kept;
     * d at the last exit */
    double wall_rate[EXIT__COUNT];
    int rated[EXIT__COUNT], n_rated;
    double wall_due[EXIT__COUNT];
    uint64_t seen[EXIT__COUNT], kept[EXIT__COUNT];
    double d_last;
    /* the predicted time the transforms' hooks added (inserted exits, the
     * runs of replayed records): work the guest does with its interrupts
     * off, so it takes no ticks (docs/whatif.md) */
    uint64_t hook_t;
    uint64_t usec_ticks; /* timebase ticks in one usec */
    /* the VIRT misses the prediction owes, per side (I, D): trace misses
     * to a page the baseline's soft TLB holds and the prediction's lost,
     * not yet set against a re-derived one (docs/whatif.md, "Host TLB
     * pressure") */
    uint64_t owed[2];
    /* The exits' pcs: accesses the trace shows as hits (the guest fetched
     * there). Where the baseline's soft TLB holds the pc's page and the
     * prediction's lost it, the prediction takes an ITLBVIRT miss there,
     * inserted, unless a credit stands: a pc whose page the prediction's
     * holds and the baseline's lost (the mirror of the owed misses). One
     * credit, or one credit used, per residency of the page: per slot, the
     * slot version (+1) it was counted at (docs/whatif.md, "Host TLB
     * pressure") */
    uint64_t pc_credit;
    uint64_t base_mark[TLB440_MAX], pred_mark[TLB440_MAX];
};

sim_err xf_parse_none(const char *name, void **state, const char *opts)
{
    *state = NULL;
    if (opts)
        return sim_fail(SIM_ERR_USAGE, "whatif: %s takes no options (got "
                                       "'%s')", name, opts);
    return SIM_OK;
}

cost_model *whatif_env_model(whatif_env *env)
{
    return env->pred.m;
}

uint64_t whatif_env_now(const whatif_env *env)
{
    return env->pred.t;
}

static uint32_t cap32(uint64_t x)
{
    return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

static void side_flush(whatif_env *env, side *sd)
{
    for (size_t i = 0; i < sd->n_held && env->err == SIM_OK; i++)
        env->err = trace_writer_put(sd->w, &sd->held[i]);
    sd->n_held = 0;
}

static void side_write(whatif_env *env, side *sd, const trace_rec *r)
{
    if (!sd->w || env->err != SIM_OK)
        return;
    if (r->kind == TREC_EXIT || sd->n_held == sizeof sd->held / sizeof *r)
        side_flush(env, sd);
    if (sd->n_held || r->kind == TREC_EXIT)
        sd->held[sd->n_held++] = *r;
    else
        env->err = trace_writer_put(sd->w, r);
}

/* One exit through a side's accounting with ticks already known. */
static void side_account(side *sd, const trace_rec *r, uint64_t h,
                         uint64_t g)
{
    stats_exit(sd->s, sd->t, r->type);
    sd->t += h;
    stats_enter(sd->s, sd->t);
    sd->t += g;
    sd->gsum += g;
    sd->tick_t += (h < sd->hcap ? h : sd->hcap) + g;
    sd->exits++;
    if (sd->prof)
        insnprof_add(sd->prof, r, h);
}

/* The run after an exit the prediction keeps, in instructions. */
static void note_run(whatif_env *env, side *sd, const trace_rec *r,
                     bool inserted)
{
    if (sd != &env->pred)
        return;
    sd->run_type = (exit_type)r->type;
    sd->run_insns = 0;
    /* (a drawn run is not known: drawing it here would shift the draws) */
    sd->run_known = inserted || (r->flags & TRF_GUEST_INSNS) ||
                    cost_guest_from_trace(sd->m, r);
    if (!inserted && sd->run_known)
        cost_guest_run(sd->m, r, &sd->run_insns);
}

/* An exit costed by the side's replay hook (as `sim replay --model`);
 * returns its guest interval (ticks). */
static uint32_t side_hook_exit(whatif_env *env, side *sd, trace_rec r)
{
    note_run(env, sd, &r, false);
    uint32_t h = 0, g = 0;
    sim_err e = sd->hook.cost(sd->hook.ctx, &r, &h, &g);
    if (e != SIM_OK && env->err == SIM_OK)
        env->err = e;
    side_account(sd, &r, h, g);
    /* the timed platform applies the predicting model's policies itself: it
     * gets the trace's own guest ticks (with the runs handed over), not
     * the ones this model already adjusted */
    r.handler = h;
    if (!(r.flags & (TRF_GUEST_KNOWN | TRF_GUEST_INSNS)))
        r.guest = g;
    side_write(env, sd, &r);
    return g;
}

/* An exit in the prediction with no guest run of its own: its interval is
 * the entry's stages (it splits the run it lands in). */
static void emit_no_run(whatif_env *env, side *sd, const trace_rec *rec)
{
    trace_rec r = *rec;
    r.kind = TREC_EXIT;
    r.tb = sd->t;
    uint64_t h, g;
    cost_exit(sd->m, &r, 0, &h, &g);
    h = cap32(cost_to_ticks(sd->m, h));
    g = cap32(cost_to_ticks(sd->m, g));
    r.handler = (uint32_t)h;
    r.guest = (uint32_t)g;
    /* its guest interval (no run of its own: the entry's stages) goes to
     * the timed platform as if measured, so both paths price it alike */
    r.flags = (uint8_t)((r.flags & ~TRF_HANDLER_KNOWN) | TRF_GUEST_KNOWN);
    side_account(sd, &r, h, g);
    side_write(env, sd, &r);
    note_run(env, sd, &r, true); /* no run of its own */
}

void whatif_env_insert(whatif_env *env, const trace_rec *rec)
{
    emit_no_run(env, &env->pred, rec);
    env->res->inserted++;
}

void whatif_env_repeat(whatif_env *env, const trace_rec *rec)
{
    side_hook_exit(env, &env->pred, *rec);
    env->res->inserted++;
}

/* The guest runs on (a removed exit): cycles into the model and the clock;
 * the run belongs to the exit before, held back in the written stream. */
static void pred_extend(whatif_env *env, uint64_t cycles)
{
    side *sd = &env->pred;
    cost_guest_extend(sd->m, cycles);
    uint64_t ticks = cost_to_ticks(sd->m, cycles);
    sd->t += ticks;
    sd->tick_t += ticks;
    sd->gsum += ticks;
    if (sd->n_held && (sd->held[0].flags & TRF_GUEST_KNOWN))
        sd->held[0].guest = cap32((uint64_t)sd->held[0].guest + ticks);
    else if (sd->n_held && (sd->held[0].flags & TRF_GUEST_INSNS)) {
        /* a run given in instructions grows by the cycles' worth of them */
        double cpi = P(cost_params(sd->m), guest_cpi);
        sd->held[0].guest = cap32((uint64_t)sd->held[0].guest +
                                  (uint64_t)((double)cycles / cpi + 0.5));
    }
}

/* Time-driven exits whose place in the baseline's guest time the
 * prediction's guest time has reached. After the trace ends (final) the
 * schedule repeats itself, but the exits' own runs no longer move the
 * horizon. */
static void pred_timed(whatif_env *env, bool final)
{
    side *sd = &env->pred;
    uint64_t horizon = sd->gsum, period = env->base.gsum;
    for (;;) {
        size_t k = env->next_timed;
        uint64_t at;
        if (k < env->n_timed)
            at = env->gamma[k];
        else if (final && env->n_timed && period > 0)
            at = env->gamma[k % env->n_timed] + (k / env->n_timed) * period;
        else
            break;
        /* after the trace, an arrival exactly at the end of the predicted
         * guest time is the baseline's next exit too, which the trace does
         * not hold: not emitted (an identity transform on a trace that
         * starts with a timed exit would otherwise gain one exit) */
        if (at > horizon || (final && at == horizon))
            break;
        /* past the trace's own arrivals, one repeated on the longer
         * predicted guest time splits a run of the guest's work, which the
         * trace has already given: no run of its own */
        if (k < env->n_timed)
            side_hook_exit(env, sd, env->timed[k]);
        else
            emit_no_run(env, sd, &env->timed[k % env->n_timed]);
        env->res->timed_pred++;
        env->next_timed++;
        if (!final)
            horizon = sd->gsum;
    }
}

static sim_err push_timed(whatif_env *env, const trace_rec *r, uint64_t g)
{
    if (env->n_timed == env->cap_timed) {
        size_t cap = env->cap_timed ? 2 * env->cap_timed : 1024;
        trace_rec *t = realloc(env->timed, cap * sizeof *t);
        if (!t)
            return sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
        env->timed = t;
        uint64_t *gm = realloc(env->gamma, cap * sizeof *gm);
        if (!gm)
            return sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
        env->gamma = gm;
        env->cap_timed = cap;
    }
    env->timed[env->n_timed] = *r;
    env->gamma[env->n_timed++] = g;
    return SIM_OK;
}

/* An arrival in guest time: DEC and EXTINT. SIGNAL is not: what sends the
 * vcpu thread a signal is QEMU (its I/O thread kicking the vcpu for
 * console and device events), so their number follows the workload, not
 * the run's length - the seed tables have 635 SIGNAL exits without PV and
 * 658 with it while the run shrinks by a third (docs/whatif.md). A SIGNAL
 * therefore stays in the exit stream where the trace has it (with the
 * idle wait it ended, TRF_IDLE, priced as such). */
static bool time_driven(const trace_rec *r)
{
    exit_type t = (exit_type)r->type;
    return (exit_flags(t) & EXF_TIMED) && t != EXIT_SIGNAL;
}

static bool magic_resident(cost_model *m)
{
    return tlb440_utlb_find(cost_tlb(m), 0xfffff000u, 1, 1) >= 0;
}

/* The run after the last exit grows by n instructions worth `cycles`:
 * with the refills the longer run needs after its entry (more guest lines
 * after the iccci, more shadow D-TLB entries) beyond those the run before
 * already paid. Returns the cycles with the refills. */
static uint64_t run_longer(side *sd, uint64_t cycles, uint64_t n)
{
    if (sd->run_known)
        cycles += cost_refill_growth(sd->m, sd->run_type, sd->run_insns, n);
    sd->run_insns += n;
    return cycles;
}

uint64_t whatif_env_guest(whatif_env *env, uint64_t insns)
{
    side *sd = &env->pred;
    double cpi = P(cost_params(sd->m), guest_cpi);
    uint64_t cycles =
        run_longer(sd, (uint64_t)((double)insns * cpi + 0.5), insns);
    pred_extend(env, cycles);
    return cycles;
}

void whatif_env_run_on(whatif_env *env, const trace_rec *rec,
                       uint64_t guest_extra, bool magic_access)
{
    if (magic_access && !magic_resident(env->pred.m)) {
        trace_rec pv = {.kind = TREC_EXIT,
                        .type = EXIT_DTLBPV,
                        .irq = BOOKE_IRQ_DTLB_MISS,
                        .pc = rec->pc,
                        .addr = 0xfffff000u};
        whatif_env_insert(env, &pv);
    }
    /* the run before goes on: the removed exit's run and the patched code,
     * and the refills of the longer run (more guest lines after the
     * iccci, more shadow D-TLB entries) than the run before needed */
    side *sd = &env->pred;
    uint64_t n = 0;
    uint64_t cycles = cost_guest_run(sd->m, rec, &n) + guest_extra;
    double cpi = P(cost_params(sd->m), guest_cpi);
    n += cpi > 0 ? (uint64_t)((double)guest_extra / cpi + 0.5) : 0;
    cycles = run_longer(sd, cycles, n);
    uint64_t added = cost_to_ticks(sd->m, guest_extra);
    env->res->guest_added += added;
    env->res->guest_handed += cost_to_ticks(sd->m, cycles) - added;
    pred_extend(env, cycles);
}

static bool is_virt_miss(exit_type t)
{
    return t == EXIT_ITLBVIRT || t == EXIT_DTLBVIRT;
}

/* Whether a side's soft TLB holds a shadow entry for the page of a VIRT
 * miss record (the hardware searches TS 1 with the shadow PID). */
/* The UTLB slot of a soft TLB holding the guest page of ea in the
 * shadow PID of the record's guest mode (0 in user mode, 1 in supervisor
 * mode, docs/kvm440.md §3), or -1. */
static int shadow_slot(tlb440 *t, uint32_t ea, const trace_rec *r)
{
    return tlb440_utlb_find(t, ea, 1, (r->flags & TRF_GUEST_PR) ? 0 : 1);
}

static bool resident(cost_model *m, const trace_rec *r)
{
    uint32_t ea = r->addr;
    if (r->type == EXIT_ITLBVIRT && !ea)
        ea = r->pc;
    return shadow_slot(cost_tlb(m), ea, r) >= 0;
}

bool whatif_env_holds(whatif_env *env, const trace_rec *rec)
{
    return is_virt_miss((exit_type)rec->type) && resident(env->pred.m, rec);
}

/* An exit of the trace at pc (not a VIRT miss): the guest fetched from
 * the pc's page there, which the trace shows as a hit. Both soft TLBs are
 * asked, as for a miss (the shadow PID of the guest's mode): where only
 * the prediction's lost the page, the prediction takes an ITLBVIRT miss
 * at the pc (inserted before the exit, priced, mapping the page), unless
 * a credit stands; where only the baseline's lost it, a credit. Each once
 * per residency of the page in the side that holds it (its slot's
 * version). Evidence of both signs is the same sample of the trace's
 * accesses, so two sides that differ by their noise alone set them
 * against each other (docs/whatif.md, "Host TLB pressure"). */
static void pc_evidence(whatif_env *env, const trace_rec *r)
{
    tlb440 *tb = cost_tlb(env->base.m), *tp = cost_tlb(env->pred.m);
    int sb = shadow_slot(tb, r->pc, r), sp = shadow_slot(tp, r->pc, r);
    if (sb >= 0 && sp < 0) {
        uint64_t v = (uint64_t)tlb440_slot_versions(tb)[sb] + 1;
        if (env->base_mark[sb] == v)
            return;
        if (env->pc_credit) {
            env->pc_credit--;
            env->base_mark[sb] = v;
            env->res->misses_pc_credit_used++;
            return;
        }
        trace_rec q = {.kind = TREC_EXIT,
                       .type = EXIT_ITLBVIRT,
                       .irq = BOOKE_IRQ_ITLB_MISS,
                       .flags = (uint8_t)(r->flags & TRF_GUEST_PR),
                       .pc = r->pc,
                       .addr = r->pc};
        whatif_env_insert(env, &q);
        env->res->misses_pc_inserted++;
        /* the miss maps the page; should it not (no guest entry left for
         * it), no other miss for this residency of the baseline's. A page
         * the prediction maps and loses again while the baseline holds it
         * is a miss again. */
        if (shadow_slot(tp, r->pc, r) < 0)
            env->base_mark[sb] = v;
    } else if (sb < 0 && sp >= 0) {
        uint64_t v = (uint64_t)tlb440_slot_versions(tp)[sp] + 1;
        if (env->pred_mark[sp] == v)
            return;
        env->pred_mark[sp] = v;
        env->pc_credit++;
        env->res->misses_pc_credit++;
    }
}

/* The guest's own timer ticks on wall time (KVM emulates its decrementer
 * with a host timer), so the exits its tick causes - the interrupt's
 * emulated instructions, the misses of the timer, scheduler and RCU pages
 * evicted since the last tick - follow the run's wall time, not the guest's
 * work (docs/whatif.md). With the profile's rate r of type X, the exits of
 * X the prediction has dropped, less those it repeated, follow r times how
 * much shorter than the baseline it has run (d timebase ticks): a kept
 * exit of X is dropped, with its guest run (the tick's work does not
 * happen), while that target is at least one ahead ... */
/* The rule's target moves with d, each type's by r times the share of its
 * exits the transforms keep so far (a tick's exit that a transform removes,
 * a patched mfmsr, is gone already and cannot go twice). */
static void wall_advance(whatif_env *env, double d)
{
    for (int k = 0; k < env->n_rated; k++) {
        int t = env->rated[k];
        double share = env->seen[t] ? (double)env->kept[t] /
                                          (double)env->seen[t]
                                    : 1.0;
        env->wall_due[t] += env->wall_rate[t] * share * (d - env->d_last);
    }
    env->d_last = d;
}

static double wall_ahead(const whatif_env *env, exit_type t)
{
    return env->wall_due[t] - ((double)env->res->wall_removed[t] -
                               (double)env->res->wall_added[t]);
}

static bool wall_drop(whatif_env *env, const trace_rec *r)
{
    exit_type t = (exit_type)r->type;
    if (env->wall_rate[t] <= 0 || wall_ahead(env, t) < 1)
        return false;
    env->res->wall_removed[t]++;
    return true;
}

/* ... and repeated (priced like any record of the trace) while it is one
 * behind (the prediction runs longer). */
static void wall_repeat(whatif_env *env, const trace_rec *r)
{
    exit_type t = (exit_type)r->type;
    while (env->wall_rate[t] > 0 && wall_ahead(env, t) <= -1) {
        side_hook_exit(env, &env->pred, *r);
        env->res->wall_added[t]++;
    }
}

static void one_exit(whatif_env *env, whatif_chain *c, const trace_rec *r)
{
    exit_type t = (exit_type)r->type;
    if (!env->started) {
        env->started = true;
        env->base.t = env->pred.t = r->tb;
        for (unsigned i = 0; i < c->n; i++)
            if (c->ops[i]->begin) {
                uint64_t t0 = env->pred.tick_t;
                c->ops[i]->begin(c->state[i], env);
                env->hook_t += env->pred.tick_t - t0;
            }
    }
    /* how much shorter the prediction has run so far, as this exit comes,
     * on the clock of the guest's ticks: without the transforms' inserted
     * work */
    double d = (double)env->base.tick_t -
               (double)(env->pred.tick_t - env->hook_t);
    bool virt = is_virt_miss(t);
    bool held0 = virt && resident(env->base.m, r);
    bool held1 = virt && resident(env->pred.m, r);
    /* both soft TLBs as the exit comes, before either side prices it */
    if (!virt && r->pc && !time_driven(r))
        pc_evidence(env, r);
    uint64_t gamma = env->base.gsum;
    uint64_t gbase = side_hook_exit(env, &env->base, *r);
    env->res->base_intervals++;
    env->res->base_sub_usec += gbase < env->usec_ticks;
    if (time_driven(r)) {
        env->res->timed_trace++;
        sim_err e = push_timed(env, r, gamma);
        if (e != SIM_OK && env->err == SIM_OK)
            env->err = e;
        pred_timed(env, false);
        return;
    }
    xf_exit x = {.rec = *r};
    if (virt) {
        /* Both soft TLBs are the recorder's UTLB with their own host noise:
         * where they part, each holds pages the other lost. A miss where
         * only the baseline's lost the page is re-derived away; one where
         * only the prediction's lost it stands for a miss the prediction
         * takes at an access the trace shows as a hit (which no trace
         * holds): owed, it keeps the next re-derived miss of its side */
        uint64_t *owed = &env->owed[t == EXIT_DTLBVIRT];
        if (held0) {
            env->res->misses_unexplained++;
            if (!held1) {
                env->res->misses_lost_pred++;
                (*owed)++;
            }
        } else if (held1 && *owed) {
            (*owed)--;
            env->res->misses_kept_owed++;
        } else if (held1) { /* the eviction that made this miss is gone */
            x.removed = true;
            env->res->misses_rederived++;
        }
    }
    for (unsigned i = 0; i < c->n && !x.removed; i++)
        if (c->ops[i]->exit) {
            uint64_t t0 = env->pred.tick_t;
            c->ops[i]->exit(c->state[i], env, &x);
            env->hook_t += env->pred.tick_t - t0;
        }
    env->seen[x.rec.type]++;
    env->kept[x.rec.type] += !x.removed;
    if (env->n_rated)
        wall_advance(env, d);
    if (x.removed) {
        env->res->removed++;
        uint64_t handed = env->res->guest_handed;
        whatif_env_run_on(env, r, x.guest_extra, x.magic_access);
        handed = env->res->guest_handed - handed;
        env->res->guest_gone += gbase > handed ? gbase - handed : 0;
        env->res->gone_n++;
    } else if (!wall_drop(env, &x.rec)) {
        side_hook_exit(env, &env->pred, x.rec);
        wall_repeat(env, &x.rec);
    }
    pred_timed(env, false);
}

/* The transformed stream the SystemC platform replays: a scratch file
 * (model/outfile), removed at the end and by a fatal signal (a Ctrl-C
 * during the platform's replay left 171 MB of a 10M-exit trace in /tmp). */
static sim_err open_tmp_trace(whatif_env *env, const whatif_opts *o,
                              const trace_header *h, outfile *scratch)
{
    sim_err e = outfile_scratch_in(scratch, o->tmp_dir, "whatif");
    if (e != SIM_OK)
        return e;
    fclose(scratch->f); /* the trace writer writes the name */
    scratch->f = NULL;
    trace_header th = *h;
    snprintf(th.cost_label, sizeof th.cost_label, "whatif (predicted)");
    return trace_writer_open(&env->pred.w, scratch->tmp, &th);
}

static void chain_model(whatif_chain *c, cost_model *m)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->ops[i]->model)
            c->ops[i]->model(c->state[i], m);
}

static sim_err prescan(const char *path, whatif_chain *c)
{
    bool want[N_XF] = {0}, any = false;
    for (unsigned i = 0; i < c->n; i++)
        if (c->ops[i]->prescan && c->ops[i]->prescan_needed &&
            c->ops[i]->prescan_needed(c->state[i]))
            any = want[i] = true;
    sim_err e = SIM_OK;
    for (unsigned pass = 0; any && e == SIM_OK && pass < 4; pass++) {
        trace_reader *rd = NULL;
        e = trace_reader_open(&rd, path);
        while (e == SIM_OK) {
            const trace_rec *recs;
            size_t n;
            e = trace_reader_next(rd, &recs, &n);
            if (e != SIM_OK || n == 0)
                break;
            for (size_t k = 0; k < n; k++)
                if (recs[k].kind == TREC_EXIT)
                    for (unsigned i = 0; i < c->n; i++)
                        if (want[i])
                            c->ops[i]->prescan(c->state[i], &recs[k]);
        }
        if (rd)
            trace_reader_close(rd);
        any = false;
        for (unsigned i = 0; i < c->n; i++)
            if (want[i])
                any |= want[i] = c->ops[i]->prescan_end &&
                                 c->ops[i]->prescan_end(c->state[i]);
    }
    return e;
}

sim_err whatif_run(const char *path, whatif_chain *c, const params *p,
                   const whatif_opts *o, stats *base, stats *pred,
                   whatif_result *res)
{
    memset(res, 0, sizeof *res);
    res->unit = o->unit;
    if (o->systemc && !platform_available())
        return sim_fail(SIM_ERR_UNSUPP, "whatif: this build has no SystemC "
                                        "platform (libsystemc-dev)");
    params p1 = *p; /* not static: sweeps predict from several threads */
    for (unsigned i = 0; i < c->n; i++)
        if (c->ops[i]->params) {
            sim_err e = c->ops[i]->params(c->state[i], &p1);
            if (e != SIM_OK)
                return e;
        }

    whatif_env env;
    memset(&env, 0, sizeof env);
    env.res = res;
    env.base.s = base;
    env.pred.s = pred;
    sim_err e = cost_new(&env.base.m, p);
    if (e == SIM_OK)
        e = cost_new(&env.pred.m, &p1);
    if (e == SIM_OK)
        chain_model(c, env.pred.m);
    trace_reader *rd = NULL;
    if (e == SIM_OK)
        e = trace_reader_open(&rd, path);
    outfile scratch = {0};
    if (e == SIM_OK) {
        res->header = *trace_reader_header(rd);
        stats_init(base, o->unit, res->header.tb_hz);
        stats_init(pred, o->unit, res->header.tb_hz);
        env.usec_ticks = base->tb_per_usec; /* as the accounting divides */
        env.base.prof = o->by_insn_base;
        env.pred.prof = o->by_insn_pred;
        for (int k = 0; k < 2; k++)
            if (k ? o->by_insn_pred : o->by_insn_base)
                insnprof_init(k ? o->by_insn_pred : o->by_insn_base,
                              o->unit == STATS_USEC, res->header.tb_hz);
        for (int t = 0; o->wall && t < EXIT__COUNT; t++) {
            env.wall_rate[t] = o->wall->wall[t] / (double)res->header.tb_hz;
            if (env.wall_rate[t] > 0)
                env.rated[env.n_rated++] = t;
        }
        /* one guest tick period at the profile's tick rate; a period
         * beyond 2^64 ticks (wallhz 1e-300) is no cap (the conversion
         * gave 0: every exit's host time left out) */
        double period = o->wall && o->wall->wall_hz > 0
                            ? (double)res->header.tb_hz / o->wall->wall_hz
                            : 0x1p64;
        env.base.hcap = env.pred.hcap =
            period < 0x1p64 ? (uint64_t)period : UINT64_MAX;
        cost_replay_hook(env.base.m, &env.base.hook);
        cost_replay_hook(env.pred.m, &env.pred.hook);
        e = env.base.hook.begin(env.base.m, &res->header);
        if (e == SIM_OK)
            e = env.pred.hook.begin(env.pred.m, &res->header);
        if (e == SIM_OK && o->systemc)
            e = open_tmp_trace(&env, o, &res->header, &scratch);
    }
    if (e == SIM_OK)
        e = prescan(path, c);
    trace_footer foot;
    trace_header fh;
    uint64_t total = 0;
    if (e == SIM_OK && trace_read_footer(path, &fh, &foot) == SIM_OK)
        total = foot.n_records;
    if (e == SIM_OK)
        sim_clear_error();
    while (e == SIM_OK) {
        const trace_rec *recs;
        size_t n;
        e = trace_reader_next(rd, &recs, &n);
        if (e != SIM_OK || n == 0)
            break;
        for (size_t i = 0; i < n && env.err == SIM_OK; i++) {
            const trace_rec *r = &recs[i];
            if (r->kind != TREC_EXIT) {
                cost_state(env.base.m, r);
                cost_state(env.pred.m, r);
                side_write(&env, &env.pred, r);
                continue;
            }
            one_exit(&env, c, r);
        }
        e = env.err;
        res->records += n;
        if (o->progress)
            o->progress(o->progress_ctx, res->records, total);
    }
    if (e == SIM_OK && env.started)
        pred_timed(&env, true);
    if (e == SIM_OK)
        e = env.err;
    res->base_exits = env.base.exits;
    res->pred_exits = env.pred.exits;
    res->misses_owed_left = env.owed[0] + env.owed[1];
    if (res->header.tb_hz)
        res->wall_gain = ((double)env.base.tick_t -
                          (double)(env.pred.tick_t - env.hook_t)) /
                         (double)res->header.tb_hz;
    trace_reader_close(rd);
    if (env.pred.w) {
        env.err = e;
        side_flush(&env, &env.pred);
        e = env.err;
        if (e == SIM_OK)
            e = trace_writer_close(env.pred.w);
        else
            trace_writer_abort(env.pred.w);
    }
    if (e == SIM_OK && o->systemc) {
        /* the same two streams through the timed platform */
        replay_opts ro = {.unit = o->unit, .ticks = REPLAY_MODEL};
        replay_result rr;
        cost_model *m0 = NULL, *m1 = NULL;
        e = cost_new(&m0, p);
        if (e == SIM_OK)
            e = cost_new(&m1, &p1);
        if (e == SIM_OK)
            chain_model(c, m1);
        if (e == SIM_OK)
            e = platform_replay(path, m0, &ro, base, &rr);
        if (e == SIM_OK) {
            platform_counts pc;
            platform_last_counts(&pc);
            res->base_exits = rr.exits;
            /* the platform makes its own time-driven exits (SIGNAL among
             * them) and drops the trace's: count the baseline's alike */
            res->timed_trace = pc.dec + pc.extint + pc.signal;
            e = platform_replay(scratch.tmp, m1, &ro, pred, &rr);
            res->pred_exits = rr.exits;
            platform_last_counts(&pc);
            res->timed_pred = pc.dec + pc.extint + pc.signal;
        }
        if (e == SIM_OK && o->models)
            o->models(o->models_ctx, m0, m1);
        cost_free(m0);
        cost_free(m1);
    }
    else if (e == SIM_OK && o->models)
        o->models(o->models_ctx, env.base.m, env.pred.m);
    if (scratch.tmp && getenv("SIM_WHATIF_KEEP"))
        outfile_keep(&scratch);
    else
        outfile_abort(&scratch);
    free(env.timed);
    free(env.gamma);
    cost_free(env.base.m);
    cost_free(env.pred.m);
    return e;
}
