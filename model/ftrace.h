/* ftrace: a streaming parser of the text the kernel's tracing prints
 * (`cat /sys/kernel/tracing/trace`, `trace_pipe`, `trace-cmd report`) for
 * the kvm tracepoints of the 440 (arch/powerpc/kvm/trace.h 2.6.32-3.10 and
 * the generic kvm_userspace_exit; docs/kvm440.md §6).
 * One line at a time, by hand (pointer scanning, no regex, no scanf), into
 * a fixed struct; constant memory. */
#ifndef FTRACE_H
#define FTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim_err.h"

/* What a line is. */
typedef enum ftrace_kind {
    FTL_BLANK,      /* empty or blanks only (kvm_ppc_instr's trailing \n) */
    FTL_COMMENT,    /* '#' lines, trace-cmd headers, unrecognised text */
    FTL_OTHER,      /* an event this parser does not import */
    FTL_LOST,       /* "CPU:N [LOST M EVENTS]" */
    FTL_MALFORMED,  /* a kvm event of ours whose text does not parse */
    FTL_EXIT,       /* kvm_exit */
    FTL_PPC_INSTR,  /* kvm_ppc_instr */
    FTL_GTLB_WRITE, /* kvm_gtlb_write */
    FTL_STLB_WRITE, /* kvm_stlb_write */
    FTL_STLB_INVAL, /* kvm_stlb_inval */
    FTL_USER_EXIT,  /* kvm_userspace_exit */
    FTL__COUNT
} ftrace_kind;

/* Event name as the kernel spells it ("kvm_exit"); NULL for non-events. */
const char *ftrace_kind_event(ftrace_kind k);

/* kvm_userspace_exit reasons that matter to classification. */
typedef enum ftrace_user_reason {
    FTU_OTHER, /* any other KVM_EXIT_* */
    FTU_MMIO,  /* KVM_EXIT_MMIO */
    FTU_DCR,   /* KVM_EXIT_DCR */
    FTU_DEBUG, /* KVM_EXIT_DEBUG */
    FTU_INTR,  /* KVM_EXIT_INTR, or "restart" (errno EINTR): a signal */
    FTU_ERROR, /* "error": KVM_RUN failed */
} ftrace_user_reason;

typedef struct ftrace_line {
    ftrace_kind kind;
    uint32_t pid; /* task pid of the thread that emitted it */
    uint32_t cpu; /* host CPU */
    uint64_t ns;  /* timestamp, nanoseconds */
    union {
        struct {
            uint32_t irq; /* BOOKE_INTERRUPT_* number */
            uint32_t pc, msr, dar, last_inst;
        } exit;
        struct {
            uint32_t inst, pc, emulate;
        } instr;
        struct {
            uint32_t index, tid, w0, w1, w2; /* gtlb_index or victim */
        } tlb;
        struct {
            uint32_t index;
        } inval;
        struct {
            ftrace_user_reason reason;
            int32_t code; /* the number in parentheses */
        } user;
        struct {
            uint32_t cpu;
            uint64_t events; /* 0 if the line gives no number */
        } lost;
    } u;
    /* FTL_MALFORMED: the event it claims to be, what was expected, and the
     * 1-based column where parsing stopped */
    ftrace_kind claimed;
    const char *expected;
    unsigned col;
} ftrace_line;

/* Parses one line (len bytes, no newline needed; need not be
 * NUL-terminated). Never fails: anything it does not recognise is a comment
 * or FTL_MALFORMED. */
void ftrace_parse_line(const char *s, size_t len, ftrace_line *out);

/* Name of a BookE interrupt as kvm_exit prints it (0-15, 32-41: "PROGRAM",
 * "DOORBELL" ...); NULL for numbers it prints in hex. */
const char *ftrace_irq_name(unsigned irq);

/* ---- line reader: big reads, lines handed out in place ---- */
#define FTRACE_LINE_MAX 4096 /* longer lines are cut (and do not parse) */

typedef struct ftrace_reader ftrace_reader;
/* path "-" reads stdin. SIM_ERR_IO names the file. */
SIM_MUST_CHECK sim_err ftrace_reader_open(ftrace_reader **r, const char *path);
/* Lines of len bytes at buf (not copied: must outlive r). */
SIM_MUST_CHECK sim_err ftrace_reader_open_mem(ftrace_reader **r,
                                              const char *buf, size_t len);
/* Next line without its newline (and without a trailing \r): *line points
 * into the reader's buffer until the next call; *len its length. *eof is
 * set (and *line NULL) at the end. A line longer than FTRACE_LINE_MAX is
 * returned cut to that length (*cut set) and the rest skipped. */
SIM_MUST_CHECK sim_err ftrace_reader_next(ftrace_reader *r, const char **line,
                                          size_t *len, bool *cut, bool *eof);
void ftrace_reader_close(ftrace_reader *r);

#endif
