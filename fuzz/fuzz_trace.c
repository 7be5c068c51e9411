/* fuzz_trace: the trace.bin reader (model/trace.c) on arbitrary bytes, read
 * from memory. It must never crash, hang or leak, whatever the bytes.
 *
 * Input: one mode byte, then the file. Mode bit 0 set: the harness first
 * recomputes the header, chunk and footer CRCs, so mutations reach the
 * record and footer checks behind them instead of dying at the first CRC. */
#include <isa-l/crc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tlb440.h"
#include "trace.h"

#define HDR    128
#define CHDR   16
#define FOOTER 632

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Walks the layout of docs/trace-format.md as far as it makes sense and
 * rewrites every CRC it passes. */
static void repair_crcs(unsigned char *b, size_t n)
{
    if (n < HDR)
        return;
    put32(b + 124, crc32_gzip_refl(0, b, 124));
    size_t off = HDR;
    while (off + CHDR <= n) {
        if (memcmp(b + off, "CHNK", 4) == 0) {
            uint32_t cnt = le32(b + off + 4);
            if (cnt == 0 || cnt > TRACE_CHUNK_RECORDS)
                return;
            size_t pay = (size_t)cnt * TRACE_RECORD_SIZE;
            if (pay > n - off - CHDR)
                return;
            uint32_t c = crc32_gzip_refl(0, b + off, 12);
            put32(b + off + 12, crc32_gzip_refl(c, b + off + CHDR, pay));
            off += CHDR + pay;
        } else {
            if (memcmp(b + off, "SIM440FT", 8) == 0 && off + FOOTER <= n)
                put32(b + off + FOOTER - 4,
                      crc32_gzip_refl(0, b + off, FOOTER - 4));
            return;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t n = size - 1;
    unsigned char *b = malloc(n ? n : 1);
    if (!b)
        return 0;
    memcpy(b, data + 1, n);
    if (data[0] & 1)
        repair_crcs(b, n);

    /* Stream every chunk and use the records as consumers do: arrays
     * indexed by type must stay in bounds (ASan checks). */
    /* a guest TLB write's index is one of the guest TLB's 64 entries; a
     * shadow write's or release's slot one of the UTLB's, up to the
     * TLB440_MAX a what-if core may have (trace.c's SHADOW_SLOTS) */
    uint64_t by_type[EXIT__COUNT] = {0}, by_gtlb[64] = {0},
             by_slot[TLB440_MAX] = {0};
    trace_reader *r;
    int streamed = 0;
    trace_footer seen = {0};
    if (trace_reader_open_mem(&r, b, n, "fuzz.bin") == SIM_OK) {
        for (;;) {
            const trace_rec *recs;
            size_t k;
            if (trace_reader_next(r, &recs, &k) != SIM_OK)
                break;
            if (k == 0) {
                streamed = 1;
                seen = *trace_reader_footer(r);
                break;
            }
            for (size_t i = 0; i < k; i++) {
                if (recs[i].kind == TREC_EXIT)
                    by_type[recs[i].type]++;
                else if (recs[i].kind == TREC_GTLB_WRITE)
                    by_gtlb[recs[i].type]++;
                else if (recs[i].kind != TREC_MARKER)
                    by_slot[recs[i].type]++;
            }
        }
        trace_reader_close(r);
    }

    /* The footer path must agree with a full read that succeeded. */
    trace_header h;
    trace_footer f;
    sim_err e = trace_read_footer_mem(b, n, "fuzz.bin", &h, &f);
    if (streamed && (e != SIM_OK || memcmp(&f, &seen, sizeof f) != 0))
        abort();
    if (streamed)
        for (int t = 0; t < EXIT__COUNT; t++)
            if (by_type[t] != f.type_counts[t])
                abort();
    free(b);
    return 0;
}
