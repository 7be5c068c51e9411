/* platform: the SystemC timed platform (model/platform, C++17) seen
 * from C. It replays a trace through the cycle model in SystemC simulated
 * time: a trace-driven guest, the guest decrementer, the host interrupt
 * source, the host scheduler and QEMU user space as modules; DEC, EXTINT and
 * SIGNAL exits arrive at rates per simulated second (the trace's own are
 * dropped), a DEC firing during an exit is delivered at the next entry.
 * Synchronisation is per exit, never per instruction. No SystemC type
 * crosses this header, so model/ C code stays free of SystemC includes. */
#ifndef PLATFORM_H
#define PLATFORM_H

#include "cost.h"
#include "replay.h"
#include "sim_err.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if this build has the SystemC platform, 0 for the stub. */
int platform_available(void);

/* Like replay_file with REPLAY_MODEL, through the timed platform: o->unit
 * and o->progress are used, o->model is ignored (m is used directly).
 * Deterministic for the same trace, parameters and seed. */
SIM_MUST_CHECK sim_err platform_replay(const char *path, cost_model *m,
                                       const replay_opts *o, stats *s,
                                       replay_result *res);

/* Counters of the last platform_replay, for tests and reports. */
typedef struct platform_counts {
    uint64_t trace_exits;         /* exits in the trace */
    uint64_t dropped_timed;       /* the trace's DEC/EXTINT/SIGNAL, dropped */
    uint64_t dec, extint, signal; /* time-driven exits the platform made */
    uint64_t dec_deferred;        /* guest DECs that expired during an exit and
                                     were delivered at its entry (expiries while
                                     one is pending coalesce, as the kernel's
                                     pending bit does) */
    uint64_t host_in_exit;        /* host interrupts serviced inside an exit */
    uint64_t sim_ps;              /* simulated time at the end, picoseconds */
} platform_counts;
void platform_last_counts(platform_counts *c);

#ifdef __cplusplus
}
#endif

#endif
