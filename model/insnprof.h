/* insnprof: the emulated-instruction exits of a replay, by instruction
 * (`sim replay --by-insn`, docs/tables.md "By instruction"): how many
 * exits each instruction word took and how long their handlers ran, in the
 * accounting of the table beside it, with what the `pv` transform does to
 * that instruction. The seed's author wanted it after the PV table: "we
 * need to trace the data of the emulation per instr. to identify the slow
 * ones" - a table's EMULINST row cannot say which. */
#ifndef INSNPROF_H
#define INSNPROF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exits.h"
#include "trace.h"

#define INSNPROF_MAX 256

typedef struct insnprof_row {
    uint32_t key;  /* the op with its SPR or its wrteei bit (insnprof.c) */
    uint32_t inst; /* the first word seen with that key */
    bool wait;     /* an EMUL_WAIT exit (mtmsr setting MSR[WE]) */
    uint64_t count;
    uint64_t sum;  /* usec (2.6.29: each sample truncated) or ticks (3.1) */
} insnprof_row;

typedef struct insnprof {
    bool usec;           /* 2.6.29 accounting: each sample to usec first */
    uint64_t tb_per_usec;
    insnprof_row rows[INSNPROF_MAX];
    int n;
    uint64_t no_word, no_word_sum; /* emulation exits without a word */
    uint64_t user, user_sum;       /* taken in guest user mode */
    uint64_t other;                /* keys beyond INSNPROF_MAX (none known) */
    uint64_t exits, sum;           /* every emulation exit */
    trace_rec pend; /* the last exit, charged when the next one comes */
    uint64_t pend_ticks;
    bool pending;
} insnprof;

void insnprof_init(insnprof *p, bool usec, uint64_t tb_hz);
/* One record and, for an exit, its handler ticks. An exit is counted
 * when the next one comes, as the kernel charges it (the table's rows):
 * the trace's last exit is in neither. Anything but an emulation exit
 * (EMULINST, EMUL_*) is in no line. */
void insnprof_add(insnprof *p, const trace_rec *r, uint64_t handler_ticks);
/* The rows by time, as '#' comment lines after a kvm or perf table. */
void insnprof_write(FILE *f, const insnprof *p);

/* Two sides (`sim whatif --by-insn`: the untransformed prediction and the
 * transformed one), line by line, as '#' comment lines. */
void insnprof_write_diff(FILE *f, const insnprof *base, const insnprof *pred,
                         const char *ref_label, const char *label);

/* What `whatif pv` does with an instruction word taken in guest supervisor
 * mode (xf_pv.c, with its default options): "lwz (removed)", "traps" ... */
const char *xf_pv_fate(uint32_t inst, bool wait);

#endif
