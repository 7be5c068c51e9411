/* ftimport: ftrace text of the kvm tracepoints (model/ftrace) -> trace.bin.
 * Per vCPU thread: each kvm_exit becomes an exit record classified with the
 * kernel's rules (model/classify) from its interrupt, guest MSR[PR], the
 * events that follow it (kvm_ppc_instr, kvm_stlb_write,
 * kvm_userspace_exit) and the guest TLB the kvm_gtlb_write events rebuild
 * in a soft TLB (model/tlb440). Where the text cannot decide, a documented
 * default is taken and counted (docs/ftrace-import.md). The tracepoints
 * carry no guest-entry time: records have tb only, no handler/guest ticks,
 * so replay predicts them with the cycle model. */
#ifndef FTIMPORT_H
#define FTIMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exits.h"
#include "ftrace.h"
#include "sim_err.h"
#include "trace.h"

#define FTIMPORT_TB_HZ_DEFAULT     667000000u
#define FTIMPORT_WAIT_US_DEFAULT   50u
#define FTIMPORT_GUEST_RAM_DEFAULT (256u << 20)
#define FTIMPORT_MAX_THREADS       64 /* vCPU threads followed at once */
#define FTIMPORT_MSGS              5  /* malformed lines quoted in full */

typedef struct ftimport_opts {
    const char *name; /* input name for the report (a base name) */
    const char *path; /* input as typed, for fatal errors; NULL: name */
    uint64_t tb_hz;   /* timebase of the records, 1..10 GHz */
    bool vcpu_set;    /* write this thread, not the busiest */
    uint32_t vcpu;
    bool pv;              /* supervisor sc = HCALL, magic-page miss = DTLBPV */
    uint32_t wait_us;     /* mtmsr/rfi gap that means EMUL_WAIT; 0: never */
    uint64_t guest_ram;   /* real addresses below are RAM, above MMIO */
    const char *workload; /* header workload; NULL: from name */
    trace_progress_fn progress; /* lines read; NULL: none */
    void *progress_ctx;
} ftimport_opts;

void ftimport_defaults(ftimport_opts *o);

/* Exits the text cannot classify for certain, by what was assumed. */
#define FTIMPORT_AMB_LIST(X)                                                   \
    X(TLB_UNKNOWN, "TLB miss, no shadow-TLB event and the guest TLB entry "    \
                   "unknown: taken as ITLBVIRT/DTLBVIRT")                      \
    X(TLB_PID, "TLB miss decided by the guest TLB with a guessed guest PID "   \
               "(the TID of the last guest tlbwe with TID != 0)")              \
    X(PROGRAM_NO_INSTR, "PROGRAM in guest supervisor mode without "            \
                        "kvm_ppc_instr: classified from last_inst, "           \
                        "emulation assumed to succeed")                        \
    X(WAIT, "mtmsr/rfi followed by a long gap to a supervisor-mode exit: "     \
            "taken as EMUL_WAIT (MSR[WE] is not traced)")                      \
    X(SC_SUPERVISOR, "sc in guest supervisor mode (r0 is not traced): taken "  \
                     "as SYSCALL, or HCALL with --pv")                         \
    X(NO_TYPE, "interrupt whose handler sets no exit type: charged to the "    \
               "previous exit's type")                                         \
    X(NO_PREVIOUS, "... with no previous exit: taken as EMULINST")             \
    X(LOST, "exit followed by a LOST-events line before its end: its events "  \
            "may be incomplete")

typedef enum ftimport_amb {
#define X(n, s) FTA_##n,
    FTIMPORT_AMB_LIST(X)
#undef X
        FTA__COUNT
} ftimport_amb;
const char *ftimport_amb_text(ftimport_amb a);

typedef struct ftimport_thread {
    uint32_t pid;
    uint64_t exits;
    uint64_t events; /* all kvm events of the thread */
} ftimport_thread;

typedef struct ftimport_report {
    char name[128];
    uint64_t lines;
    uint64_t kinds[FTL__COUNT]; /* lines by kind */
    uint64_t cut_lines;         /* longer than FTRACE_LINE_MAX */
    uint64_t lost_events;       /* sum of the LOST/DROPPED numbers */
    uint64_t malformed;         /* lines of our events that did not parse */
    char msgs[FTIMPORT_MSGS][400];
    unsigned nmsgs;
    uint64_t out_of_order; /* events before their thread's previous one */
    uint64_t max_back_ns;  /* the largest step back */
    uint64_t orphans;      /* follow-up events with no open kvm_exit */
    unsigned nthreads;
    ftimport_thread threads[FTIMPORT_MAX_THREADS];
    uint64_t untracked_events; /* of threads beyond FTIMPORT_MAX_THREADS */
    /* the thread written */
    bool written;
    uint32_t written_pid;
    uint64_t records, exits;
    uint64_t types[EXIT__COUNT];
    uint64_t amb[FTA__COUNT];
    uint64_t ambiguous;       /* exits with at least one assumption */
    uint64_t wait_candidates; /* mtmsr/rfi emulations seen */
    uint64_t tlb_misses, tlb_by_events, tlb_by_gtlb, tlb_disagree;
    /* data misses mapped above --guest-ram, by the rule that decided them */
    uint64_t above_ram_mmio_events, above_ram_not_mmio, above_ram_mmio_guess;
} ftimport_report;

/* Streaming import: feed lines, then finish. */
typedef struct ftimport ftimport;
/* out_path is written through trace_writer (temporary name, renamed by
 * ftimport_finish only). */
SIM_MUST_CHECK sim_err ftimport_new(ftimport **im, const ftimport_opts *o,
                                    const char *out_path);
/* One line of text (len bytes, no newline). cut: the reader cut it. */
SIM_MUST_CHECK sim_err ftimport_line(ftimport *im, const char *line, size_t len,
                                     bool cut);
/* Classifies the exits still open, picks the thread (--vcpu or the one
 * with most exits), closes its trace and fills *rep. SIM_ERR_FORMAT (exit
 * code 2) when no kvm_exit of that thread was read: nothing is written. */
SIM_MUST_CHECK sim_err ftimport_finish(ftimport *im, ftimport_report *rep);
/* Frees im; an unfinished import removes its temporary files. */
void ftimport_free(ftimport *im);

/* The whole import of a file ("-" = stdin) or of text in memory. *rep is
 * filled as far as the import got, also on error. */
SIM_MUST_CHECK sim_err ftimport_file(const char *path, const ftimport_opts *o,
                                     const char *out_path,
                                     ftimport_report *rep);
SIM_MUST_CHECK sim_err ftimport_buf(const char *buf, size_t len,
                                    const ftimport_opts *o,
                                    const char *out_path, ftimport_report *rep);

/* The report as `sim import ftrace` prints it (malformed lines first). */
void ftimport_print_report(FILE *f, const ftimport_report *rep,
                           const char *out_name);

#endif
