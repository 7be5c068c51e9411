// platform: the cycle model (model/cost) in SystemC simulated time (SystemC
// 2.3.4, C++17: docs/cost-model.md). Modules: the trace-driven
// guest, the guest decrementer, the host scheduler (host tick + preemption),
// the host interrupt source and QEMU user space (heavy exits and signals).
// Synchronisation is per exit: the guest thread waits for its guest time or
// handler time, woken early by host events; nothing runs per instruction.
#include <cstdlib>
#include <cstring>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <systemc>

// The C headers use C11's _Static_assert; C++17 spells it static_assert.
#define _Static_assert static_assert
extern "C" {
#include "cost.h"
#include "platform.h"
}
#undef _Static_assert

using namespace sc_core;

namespace
{

// Everything the modules share: the C model, the accounting, the counters
// and the pending host events the guest thread consumes.
struct shared {
    cost_model *m = nullptr;
    stats *s = nullptr;
    const replay_opts *o = nullptr;
    replay_result *res = nullptr;
    const char *path = nullptr;
    trace_reader *rd = nullptr;
    uint64_t total = 0, core_hz = 1, tb0 = 0;
    sim_err err = SIM_OK;
    platform_counts pc{};
    sc_event wake; // a host event arrived
    sc_event qemu_req, qemu_done;
    uint64_t qemu_cycles = 0;
    unsigned pend_tick = 0, pend_irq = 0, pend_sig = 0;
    bool in_guest = false, guest_dec = false, overload = false;
    bool dec_in_guest = false; // the pending guest DEC fired in guest time
};

sc_time at_cycles(const shared &sh, uint64_t c)
{
    // ceil(c * 1e12 / hz) picoseconds
    unsigned __int128 ps = (unsigned __int128)c * 1000000000000ull;
    ps = (ps + sh.core_hz - 1) / sh.core_hz;
    return sc_time((double)(uint64_t)ps, SC_PS);
}

uint64_t cycles_now(const shared &sh)
{
    uint64_t ps = sc_time_stamp().value(); // resolution: 1 ps
    return (uint64_t)((unsigned __int128)ps * sh.core_hz / 1000000000000ull);
}

uint64_t tb_at(const shared &sh, uint64_t cycles)
{
    return sh.tb0 + cost_to_ticks(sh.m, cycles);
}

uint64_t tb_now(const shared &sh)
{
    return tb_at(sh, cycles_now(sh));
}

gsl_rng *rng_for(const params &p, unsigned long stream)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)P(&p, seed) * 7919ul + stream);
    return r;
}

// Host tick (CONFIG_HZ): a DEC exit when it lands in guest time, serviced
// inside the exit otherwise; the scheduler's preemption draw is the cost
// model's (cost_host_tick).
SC_MODULE(host_scheduler)
{
    shared &sh;
    double period_cycles;
    gsl_rng *rng;
    SC_HAS_PROCESS(host_scheduler);
    host_scheduler(sc_module_name n, shared & s, const params &p)
        : sc_module(n), sh(s), rng(rng_for(p, 1))
    {
        double hz = P(&p, host_tick_hz);
        period_cycles = hz > 0 ? (double)s.core_hz / hz : 0;
        if (period_cycles > 0)
            SC_THREAD(run);
    }
    ~host_scheduler()
    {
        gsl_rng_free(rng);
    }
    void run()
    {
        wait(at_cycles(sh, (uint64_t)(gsl_rng_uniform(rng) * period_cycles)));
        for (;;) {
            sh.pend_tick++;
            sh.wake.notify();
            wait(at_cycles(sh, (uint64_t)period_cycles));
        }
    }
};

// Host device interrupts, Poisson at host_irq_hz.
SC_MODULE(host_irq_source)
{
    shared &sh;
    double mean_cycles, share;
    gsl_rng *rng;
    SC_HAS_PROCESS(host_irq_source);
    host_irq_source(sc_module_name n, shared & s, const params &p)
        : sc_module(n), sh(s), rng(rng_for(p, 2))
    {
        double hz = P(&p, host_irq_hz);
        share = P(&p, host_irq_exit_share);
        mean_cycles = hz > 0 ? (double)s.core_hz / hz : 0;
        if (mean_cycles > 0)
            SC_THREAD(run);
    }
    ~host_irq_source()
    {
        gsl_rng_free(rng);
    }
    void run()
    {
        for (;;) {
            wait(at_cycles(
                sh, 1 + (uint64_t)gsl_ran_exponential(rng, mean_cycles)));
            // inside an exit host_irq_exit_share as many (thinning below
            // 1, a second interrupt with the excess chance above)
            unsigned k = 1;
            if (!sh.in_guest && share != 1) {
                double u = gsl_rng_uniform(rng);
                k = share < 1 ? u < share : 1 + (u < share - 1);
            }
            if (!k)
                continue;
            sh.pend_irq += k;
            sh.wake.notify();
        }
    }
};

// The guest decrementer (an hrtimer in the host): when it expires the
// interrupt is queued and delivered at the next guest entry.
SC_MODULE(guest_timer)
{
    shared &sh;
    uint64_t period;
    SC_HAS_PROCESS(guest_timer);
    guest_timer(sc_module_name n, shared & s, const params &p)
        : sc_module(n), sh(s)
    {
        period = (uint64_t)((double)s.core_hz / P(&p, guest_hz));
        if (period)
            SC_THREAD(run);
    }
    void run()
    {
        for (;;) {
            wait(at_cycles(sh, period));
            sh.guest_dec = true;
            sh.wake.notify(); // the guest decides: inside an exit or not
        }
    }
};

// QEMU user space: serves the round trip of heavy exits, and its I/O
// thread signals the vcpu thread at signal_hz.
SC_MODULE(qemu_user)
{
    shared &sh;
    double sig_mean;
    gsl_rng *rng;
    SC_HAS_PROCESS(qemu_user);
    qemu_user(sc_module_name n, shared & s, const params &p)
        : sc_module(n), sh(s), rng(rng_for(p, 3))
    {
        SC_THREAD(serve);
        double hz = P(&p, signal_hz);
        sig_mean = hz > 0 ? (double)s.core_hz / hz : 0;
        if (sig_mean > 0)
            SC_THREAD(signals);
    }
    ~qemu_user()
    {
        gsl_rng_free(rng);
    }
    void serve()
    {
        for (;;) {
            wait(sh.qemu_req);
            wait(at_cycles(sh, sh.qemu_cycles));
            sh.qemu_done.notify();
        }
    }
    void signals()
    {
        for (;;) {
            wait(at_cycles(sh,
                           1 + (uint64_t)gsl_ran_exponential(rng, sig_mean)));
            sh.pend_sig++;
            sh.wake.notify();
        }
    }
};

// The guest, driven by a trace: its workload exits in order, its guest time
// and handler time from the cost model, time-driven exits from the host
// modules.
SC_MODULE(trace_guest)
{
    shared &sh;
    uint32_t last_pc = 0;
    uint8_t last_flags = 0;
    SC_HAS_PROCESS(trace_guest);
    trace_guest(sc_module_name n, shared & s) : sc_module(n), sh(s)
    {
        SC_THREAD(run);
    }

    // Handler time c, lengthened by host events serviced inside the exit.
    void in_exit(uint64_t c, exit_type t)
    {
        uint64_t start = cycles_now(sh);
        while (c > 0) {
            if (cycles_now(sh) - start > 10 * sh.core_hz && !sh.overload) {
                // host interrupt work arrives faster than it is served
                sh.overload = true;
                sh.err = sim_fail(SIM_ERR_RANGE,
                                  "%s: one %s exit exceeded 10 simulated "
                                  "seconds: host interrupt load (host_irq_hz "
                                  "x host_irq_usec, host_tick_hz x "
                                  "host_tick_cycles) exceeds the CPU",
                                  sh.path, exit_name(t));
                sc_stop();
                wait(); // never resumed
            }
            uint64_t t0 = cycles_now(sh);
            wait(at_cycles(sh, c), sh.wake);
            uint64_t el = cycles_now(sh) - t0;
            c = el >= c ? 0 : c - el;
            c += service_in_exit(t);
        }
    }

    // A guest DEC that expired during the exit: queued, delivered by
    // deliver_interrupts at its end (so it lengthens the handler).
    uint64_t deliver_in_exit(exit_type t)
    {
        if (!sh.guest_dec)
            return 0;
        sh.guest_dec = false;
        if (!sh.dec_in_guest)
            sh.pc.dec_deferred++;
        sh.dec_in_guest = false;
        return cost_deliver(sh.m, t);
    }

    // Service what woke the guest thread inside a handler; returns the
    // cycles it adds to the handler.
    uint64_t service_in_exit(exit_type t)
    {
        return service_in_exit_host(t) + deliver_in_exit(t);
    }

    // The host interrupts pending inside an exit.
    uint64_t service_in_exit_host(exit_type t)
    {
        uint64_t c = 0;
        while (sh.pend_tick) {
            sh.pend_tick--;
            sh.pc.host_in_exit++;
            c += cost_host_tick(sh.m, t);
        }
        while (sh.pend_irq) {
            sh.pend_irq--;
            sh.pc.host_in_exit++;
            c += cost_host_irq(sh.m, t);
        }
        return c;
    }

    // A workload exit and the guest run after it. Light exits take one
    // timed wait for handler + guest time together: the entry is booked at
    // its computed time, and only a host event arriving earlier splits it.
    void exit_then_guest(const trace_rec &r)
    {
        exit_type t = (exit_type)r.type;
        bool heavy = (exit_flags(t) & EXF_HEAVY) != 0;
        sh.in_guest = false;
        uint64_t t_exit = cycles_now(sh);
        stats_exit(sh.s, tb_at(sh, t_exit), t);
        sh.res->exits++;
        uint64_t h, g;
        cost_exit_replay(sh.m, &r, &h, &g);
        if (heavy || cost_last_qemu(sh.m)) {
            run_guest(g + finish_exit(t, h)); // its guest run too
            return;
        }
        uint64_t rem_h = h + service_in_exit(t), rem_g = g;
        bool entered = false;
        while (rem_h + rem_g > 0) {
            uint64_t t0 = cycles_now(sh);
            wait(at_cycles(sh, rem_h + rem_g), sh.wake);
            uint64_t el = cycles_now(sh) - t0;
            if (!entered) {
                if (cycles_now(sh) - t_exit > 10 * sh.core_hz) {
                    // an overloaded host: in_exit stops the run
                    run_guest(rem_g + finish_exit(t, rem_h));
                    return;
                }
                if (el < rem_h) { // woken inside the handler
                    rem_h -= el;
                    rem_h += service_in_exit(t);
                    if (sh.pend_sig) { // the exit goes to user space
                        run_guest(rem_g + finish_exit(t, rem_h));
                        return;
                    }
                    continue;
                }
                stats_enter(sh.s, tb_at(sh, t0 + rem_h));
                sh.in_guest = entered = true;
                el -= rem_h;
                rem_h = 0;
            }
            rem_g = el >= rem_g ? 0 : rem_g - el;
            if (rem_g == 0)
                break;
            rem_g += timed_exit();
        }
        if (!entered) {
            stats_enter(sh.s, tb_at(sh, cycles_now(sh)));
            sh.in_guest = true;
        }
    }

    // One exit at the current time; returns the guest cycles after it.
    uint64_t do_exit(const trace_rec &r, uint64_t insns)
    {
        exit_type t = (exit_type)r.type;
        sh.in_guest = false;
        stats_exit(sh.s, tb_now(sh), t);
        sh.res->exits++;
        uint64_t h, g;
        cost_exit(sh.m, &r, insns, &h, &g);
        return g + finish_exit(t, h);
    }

    // The rest of an exit whose handler needs h more cycles: QEMU, a
    // pending signal, the entry. Returns 0 (guest time is the caller's).
    uint64_t finish_exit(exit_type t, uint64_t h)
    {
        uint64_t q = cost_last_qemu(sh.m);
        if (q > h)
            q = 0; // (already spent: a signal tail was requested mid-way)
        in_exit(h - q, t);
        if (q)
            to_qemu(q, t);
        bool heavy = (exit_flags(t) & EXF_HEAVY) != 0;
        if (sh.pend_sig && !heavy) {
            // signal_pending after a light exit: it becomes SIGNAL
            sh.pend_sig--;
            sh.pc.signal++;
            sh.s->last_type = EXIT_SIGNAL;
            uint64_t sq;
            in_exit(cost_signal_tail(sh.m, t, &sq), t);
            to_qemu(sq, t);
        }
        in_exit(deliver_in_exit(t), t);
        stats_enter(sh.s, tb_now(sh));
        sh.in_guest = true;
        return 0;
    }

    void to_qemu(uint64_t q, exit_type t)
    {
        sh.qemu_cycles = q;
        sh.qemu_req.notify();
        wait(sh.qemu_done);
        // host interrupts that came while QEMU ran are the host's, inside
        // this exit (as the direct path's internal arrivals): serviced now,
        // never DEC/EXTINT exits of the guest later
        in_exit(service_in_exit_host(t), t);
    }

    // Guest time g; a host event arriving meanwhile is a time-driven exit.
    void run_guest(uint64_t g)
    {
        while (g > 0) {
            uint64_t t0 = cycles_now(sh);
            wait(at_cycles(sh, g), sh.wake);
            uint64_t el = cycles_now(sh) - t0;
            g = el >= g ? 0 : g - el;
            if (g == 0)
                break;
            g += timed_exit();
        }
    }

    // The exit a pending host event causes while the guest runs (none for
    // a guest DEC: it waits for the next entry). Returns its guest cycles.
    uint64_t timed_exit()
    {
        if (sh.guest_dec)
            sh.dec_in_guest = true;
        exit_type t;
        if (sh.pend_tick) {
            sh.pend_tick--;
            t = EXIT_DEC;
            sh.pc.dec++;
        } else if (sh.pend_irq) {
            sh.pend_irq--;
            t = EXIT_EXTINT;
            sh.pc.extint++;
        } else if (sh.pend_sig) {
            sh.pend_sig--;
            t = EXIT_SIGNAL;
            sh.pc.signal++;
        } else
            return 0;
        trace_rec r{};
        r.kind = TREC_EXIT;
        r.type = (uint8_t)t;
        r.irq = (uint8_t)(t == EXIT_DEC ? BOOKE_IRQ_DECREMENTER
                                        : BOOKE_IRQ_EXTERNAL);
        r.pc = last_pc;
        r.flags = (uint8_t)(last_flags & TRF_GUEST_PR);
        // the interrupted guest work resumes after the entry
        return do_exit(r, 0);
    }

    void run()
    {
        bool first = true;
        for (;;) {
            const trace_rec *recs;
            size_t n;
            sim_err e = trace_reader_next(sh.rd, &recs, &n);
            if (sh.overload)
                break;
            sh.err = e;
            if (sh.err != SIM_OK || n == 0)
                break;
            for (size_t i = 0; i < n; i++) {
                const trace_rec &r = recs[i];
                if (r.kind != TREC_EXIT) {
                    cost_state(sh.m, &r);
                    continue;
                }
                sh.pc.trace_exits++;
                if (exit_flags((exit_type)r.type) & EXF_TIMED) {
                    sh.pc.dropped_timed++;
                    continue;
                }
                if (first) {
                    sh.tb0 = r.tb;
                    first = false;
                }
                last_pc = r.pc;
                last_flags = r.flags;
                exit_then_guest(r);
            }
            sh.res->records += n;
            if (sh.o->progress)
                sh.o->progress(sh.o->progress_ctx, sh.res->records, sh.total);
        }
        sh.pc.sim_ps = sc_time_stamp().value();
        sc_stop();
    }
};

platform_counts last_counts;

// SystemC 2.3 allows one elaboration per context: each replay gets a fresh
// one, made before any sc_event exists and deleted after the modules.
struct fresh_context {
    fresh_context()
    {
        sc_curr_simcontext = new sc_simcontext();
        sc_default_global_context = sc_curr_simcontext;
    }
    ~fresh_context()
    {
        delete sc_curr_simcontext;
        sc_curr_simcontext = nullptr;
        sc_default_global_context = nullptr;
    }
};

} // namespace

// libsystemc's main() wants an sc_main; sim has its own main, so this one
// is never called.
int sc_main(int, char **)
{
    return 0;
}

extern "C" int platform_available(void)
{
    return 1;
}

extern "C" void platform_last_counts(platform_counts *c)
{
    *c = last_counts;
}

extern "C" sim_err platform_replay(const char *path, cost_model *m,
                                   const replay_opts *o, stats *s,
                                   replay_result *res)
{
    std::memset(res, 0, sizeof *res);
    // keep stdout clean: no banner
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

    fresh_context ctx;
    // infos (e.g. "Simulation stopped by user") would go to stdout
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    trace_header fh;
    trace_footer foot;
    shared sh;
    if (trace_read_footer(path, &fh, &foot) == SIM_OK)
        sh.total = foot.n_records;
    sim_clear_error();
    sim_err e = trace_reader_open(&sh.rd, path);
    if (e != SIM_OK)
        return e;
    res->header = *trace_reader_header(sh.rd);
    stats_init(s, o->unit, res->header.tb_hz);
    cost_reset(m, res->header.tb_hz, res->header.core_hz);
    cost_set_internal_host(m, 0);

    // the modules read rates and the seed from the model's parameters
    const params &p = *cost_params(m);

    sh.m = m;
    sh.s = s;
    sh.o = o;
    sh.res = res;
    sh.path = path;
    sh.core_hz = cost_core_hz(m);

    {
        host_scheduler sched("host_scheduler", sh, p);
        host_irq_source irq("host_irq_source", sh, p);
        guest_timer dec("guest_timer", sh, p);
        qemu_user qemu("qemu", sh, p);
        trace_guest guest("guest", sh);
        sc_start();
        last_counts = sh.pc;
    }
    cost_set_internal_host(m, 1);
    trace_reader_close(sh.rd);
    res->state_events = res->records - sh.pc.trace_exits;
    return sh.err;
}
