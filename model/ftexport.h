/* ftexport: a trace.bin printed as the ftrace text of the kvm tracepoints
 * of the 440 (docs/kvm440.md §6), the inverse of ftimport:
 * kvm_exit per exit, kvm_ppc_instr for emulated instructions,
 * kvm_gtlb_write / kvm_stlb_write / kvm_stlb_inval from state records,
 * kvm_userspace_exit for exits that went to user space. */
#ifndef FTEXPORT_H
#define FTEXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim_err.h"
#include "trace.h"

typedef struct ftexport_opts {
    const char *comm; /* task name, at most 15 characters */
    uint32_t pid;     /* task pid */
    uint32_t cpu;     /* host CPU column */
    bool ns;          /* 9 decimals (ns) instead of 6 (us) */
    trace_progress_fn progress; /* records done; NULL: none */
    void *progress_ctx;
} ftexport_opts;

void ftexport_defaults(ftexport_opts *o);

typedef struct ftexport_stats {
    uint64_t exits, states, lines;
    uint64_t markers;     /* marker records: no tracepoint, not printed */
    uint64_t substituted; /* instruction words replaced by one of the type */
    uint64_t unrepresentable; /* exits the tracepoints cannot express */
} ftexport_stats;

/* Reads the trace at path (CRC-checked) and prints its text to out. */
SIM_MUST_CHECK sim_err ftexport_trace(const char *path, FILE *out,
                                      const ftexport_opts *o,
                                      ftexport_stats *st);

#endif
