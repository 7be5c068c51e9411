/* tracetext: the text form of a trace.bin (`sim trace dump` / `sim trace
 * pack`), one line per record, lossless both ways: dump -> pack -> dump gives
 * the same text and pack -> dump -> pack the same bytes. Grammar in
 * docs/trace-format.md, "Text form". */
#ifndef TRACETEXT_H
#define TRACETEXT_H

#include <stddef.h>
#include <stdio.h>

#include "sim_err.h"
#include "trace.h"

/* The first line dump writes (pack treats it as a comment). */
#define TRACETEXT_FIRST_LINE "# sim440 trace v1"
/* Longest line pack accepts, without its newline. */
#define TRACETEXT_LINE_MAX 1024

/* Writes the first line and the `header ...` line. Write errors show in
 * ferror(f). */
void tracetext_write_header(FILE *f, const trace_header *h);
/* Writes one record line (r must pass trace_rec_check). */
void tracetext_write_rec(FILE *f, const trace_rec *r);
/* Name of a kind as the text form spells it ("stlb_inval"); NULL if none. */
const char *tracetext_kind_name(unsigned kind);

/* Reads the trace at path (every chunk CRC-checked) and writes its text to
 * out, reporting records done to progress (may be NULL). Errors name the
 * trace file and byte offset. */
SIM_MUST_CHECK sim_err tracetext_dump(const char *path, FILE *out,
                                      trace_progress_fn progress, void *ctx);

/* Parses text read from in (name is used in messages: "name:line:col: ...")
 * and writes the trace to out_path through trace_writer: nothing appears
 * under out_path unless the whole text is valid. Lines read go to progress
 * (may be NULL). */
SIM_MUST_CHECK sim_err tracetext_pack(const char *name, FILE *in,
                                      const char *out_path,
                                      trace_progress_fn progress, void *ctx);
/* The same for text held in memory (len bytes, need not be NUL-terminated). */
SIM_MUST_CHECK sim_err tracetext_pack_buf(const char *name, const char *buf,
                                          size_t len, const char *out_path);

#endif
