/* trace: the trace.bin v1 file (docs/trace-format.md): a versioned header,
 * CRC-protected chunks of fixed-size 32-byte records, a footer with per-type
 * counts and a trailer pointing at it. Little-endian on disk. Streaming,
 * constant memory; written to a temporary name and renamed on close. */
#ifndef TRACE_H
#define TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "exits.h"
#include "sim_err.h"

#define TRACE_VERSION 1
#define TRACE_HEADER_SIZE 128
#define TRACE_RECORD_SIZE 32
#define TRACE_CHUNK_RECORDS 8192u /* records per chunk (256 KiB), the last may be short */
#define TRACE_FOOTER_SLOTS 64      /* per-type count slots in the footer */

/* Record kinds. */
enum trace_kind {
    TREC_EXIT = 1,       /* one guest exit */
    TREC_GTLB_WRITE = 2, /* guest tlbwe of one word (kvm_gtlb_write) */
    TREC_STLB_WRITE = 3, /* shadow entry written in a hardware slot */
    TREC_STLB_INVAL = 4, /* shadow entry released */
    TREC_MARKER = 5,     /* a point in the run (phase change, note) */
    TREC__MAX = 5,
};

/* Flags of exit records. */
#define TRF_HANDLER_KNOWN 0x01u /* `handler` holds measured/assigned ticks */
#define TRF_GUEST_KNOWN 0x02u   /* `guest` holds measured/assigned ticks */
#define TRF_GUEST_PR 0x04u      /* guest was in problem state (MSR[PR]=1) */
#define TRF_USERSPACE 0x08u     /* the exit went to user space (heavy) */
#define TRF_GUEST_INSNS 0x10u   /* `guest` holds the guest instructions run
                                   after the entry, not ticks (sim trace
                                   synth --like); never with GUEST_KNOWN */
#define TRF_IDLE 0x20u          /* the guest idled in this exit (MSR[WE],
                                   kvm_vcpu_block): set on EMUL_WAIT and on
                                   the SIGNAL a signal made of one */
#define TRF__ALL 0x3fu

/* One record. Field meaning by kind:
 *            EXIT                      GTLB/STLB_WRITE     STLB_INVAL  MARKER
 *   type     exit_type                 TLB index 0..63     slot        marker id
 *   irq      BookE interrupt number    TID                 0           0
 *   flags    TRF_*                     0                   0           0
 *   pc       guest pc                  word0               0           0
 *   inst     last instruction word     word1               0           0
 *   addr     DEAR / ESR / fault addr   word2               0           0
 *   tb       timebase at exit          timebase            timebase    timebase
 *   handler  ticks exit -> entry       0                   0           value
 *   guest    ticks entry -> next exit  0                   0           0
 */
typedef struct trace_rec {
    uint8_t kind;
    uint8_t type;
    uint8_t irq;
    uint8_t flags;
    uint32_t pc;
    uint32_t inst;
    uint32_t addr;
    uint64_t tb;
    uint32_t handler;
    uint32_t guest;
} trace_rec;
#ifdef __cplusplus
static_assert(sizeof(trace_rec) == TRACE_RECORD_SIZE, "record is 32 bytes");
#else
_Static_assert(sizeof(trace_rec) == TRACE_RECORD_SIZE, "record is 32 bytes");
#endif

/* Where a trace came from. */
enum trace_source {
    TSRC_UNKNOWN = 0,
    TSRC_SYNTH = 1,  /* sim trace synth */
    TSRC_CPU440 = 2, /* sim record */
    TSRC_FTRACE = 3, /* sim import ftrace */
    TSRC_TEXT = 4,   /* sim trace pack of hand-written text */
    TSRC__MAX = 4,
};
const char *trace_source_name(unsigned src); /* "synth"; NULL if unknown */
int trace_source_from_name(const char *name);

typedef struct trace_header {
    uint16_t version;     /* filled by the reader; writer uses TRACE_VERSION */
    uint16_t record_size; /* filled by the reader */
    uint32_t source;      /* enum trace_source */
    uint64_t tb_hz;       /* timebase frequency, > 0 */
    uint64_t core_hz;     /* core clock, > 0 */
    char workload[32];    /* NUL-terminated, printable ASCII */
    char tool_version[16];
    char cost_label[32]; /* what produced handler/guest ticks: "measured",
                            "synth:<profile>", "flat-default" ... */
} trace_header;

typedef struct trace_footer {
    uint64_t n_records;
    uint64_t n_exits;
    uint64_t n_chunks;
    uint64_t first_tb; /* tb of the first record, 0 if empty */
    uint64_t last_tb;  /* tb of the last record */
    uint64_t kind_counts[8];                  /* by enum trace_kind */
    uint64_t type_counts[TRACE_FOOTER_SLOTS]; /* exits by exit_type */
} trace_footer;

/* Progress of a long pass over a trace or its text: called now and then
 * (at most every chunk, or every TRACE_PROGRESS_LINES lines) with the
 * records or lines done so far and the total, 0 when not known. */
typedef void (*trace_progress_fn)(void *ctx, uint64_t done, uint64_t total);
#define TRACE_PROGRESS_LINES 65536

/* ---- writing ---- */
typedef struct trace_writer trace_writer;
/* Creates a temporary file beside path; nothing appears under path until
 * trace_writer_close succeeds. */
SIM_MUST_CHECK sim_err trace_writer_open(trace_writer **w, const char *path,
                                         const trace_header *h);
/* Appends one record (validated: kind, exit type, flags). */
SIM_MUST_CHECK sim_err trace_writer_put(trace_writer *w, const trace_rec *r);
/* Flushes, writes footer and trailer, fsyncs, renames to path, frees w. */
SIM_MUST_CHECK sim_err trace_writer_close(trace_writer *w);
/* Removes the temporary file and frees w (error paths, Ctrl-C before data). */
void trace_writer_abort(trace_writer *w);

/* ---- reading ---- */
typedef struct trace_reader trace_reader;
/* Opens and validates the header (magic, version, record size, CRC). */
SIM_MUST_CHECK sim_err trace_reader_open(trace_reader **r, const char *path);
const trace_header *trace_reader_header(const trace_reader *r);
/* Next chunk of records, CRC-checked: *recs points into the reader's buffer,
 * valid until the next call; *n == 0 at the clean end, which also checks the
 * footer against what was read. Errors name the file and byte offset. */
SIM_MUST_CHECK sim_err trace_reader_next(trace_reader *r,
                                         const trace_rec **recs, size_t *n);
/* Footer read directly from the end of the file (instant, for trace info). */
SIM_MUST_CHECK sim_err trace_read_footer(const char *path, trace_header *h,
                                         trace_footer *f);
void trace_reader_close(trace_reader *r);

/* ---- additions (after the interface was fixed) ---- */
/* Checks one record against the table above: kind 1..TREC__MAX, exit type <
 * EXIT__COUNT and flags within TRF__ALL for exits, TLB index/slot < 64,
 * unused fields 0. SIM_ERR_RANGE with the reason otherwise. The writer and
 * the reader apply the same check. */
SIM_MUST_CHECK sim_err trace_rec_check(const trace_rec *r);
/* Like trace_reader_open for a trace held in memory (len bytes at buf, not
 * copied: it must outlive r); name is used in messages. For fuzzing/tests. */
SIM_MUST_CHECK sim_err trace_reader_open_mem(trace_reader **r, const void *buf,
                                             size_t len, const char *name);
/* Reads every chunk of the trace at path (CRCs, records, footer totals);
 * *n_records (may be NULL) gets the records read. */
SIM_MUST_CHECK sim_err trace_verify(const char *path, uint64_t *n_records);
/* The footer the reader checked, once trace_reader_next has returned *n == 0
 * with SIM_OK; NULL before. */
const trace_footer *trace_reader_footer(const trace_reader *r);
/* Like trace_read_footer for a trace held in memory. */
SIM_MUST_CHECK sim_err trace_read_footer_mem(const void *buf, size_t len,
                                             const char *name, trace_header *h,
                                             trace_footer *f);

/* ---- one pass over every record ---- */
/* What a pass does with a trace; every member may be NULL (0). */
typedef struct trace_pass {
    void *ctx; /* for header and chunk */
    /* Once, before the first record: the header, to keep or refuse (an
     * error ends the pass with it). */
    sim_err (*header)(void *ctx, const trace_header *h);
    /* Each chunk of records in order (CRC-checked, valid during the call);
     * an error ends the pass with it. */
    sim_err (*chunk)(void *ctx, const trace_rec *recs, size_t n);
    /* After each chunk: the records so far and `total`. */
    trace_progress_fn progress;
    void *progress_ctx;
    uint64_t total;
} trace_pass;
/* Runs p over the records of r to the clean end (footer checked) or to
 * the first error, the reader's (naming the file and byte) or a callback's,
 * which it returns. r stays open. *n_records (may be NULL) gets the records
 * of the chunks passed. */
SIM_MUST_CHECK sim_err trace_reader_pass(trace_reader *r, const trace_pass *p,
                                         uint64_t *n_records);
/* Opens the trace at path, runs trace_reader_pass, closes it (a trace
 * that does not open: its error, *n_records 0). */
SIM_MUST_CHECK sim_err trace_pass_file(const char *path, const trace_pass *p,
                                       uint64_t *n_records);
/* The footer of the trace at path when it reads, else all zeros, and no
 * error left behind: a hint before a pass (progress total, subsampling);
 * the pass itself reports a damaged trace, where it is. */
trace_footer trace_footer_hint(const char *path);

#endif
