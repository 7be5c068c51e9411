/* test_trace: the trace.bin v1 writer/reader (model/trace.c) and its text
 * form (model/tracetext.c): round trips, chunk boundaries, every corruption
 * the reader must name, the writer's checks, temp+rename, pack errors. */
#include <dirent.h>
#include <isa-l/crc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"
#include "trace.h"
#include "tracetext.h"

/* Layout constants the tests poke at (docs/trace-format.md). */
#define HDR     128
#define CHDR    16
#define FOOTER  632
#define TRAILER 16

/* ---- helpers ---- */

static const char *tpath(const char *name)
{
    static char buf[4][512];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", test_tmp_dir(), name);
    return buf[i];
}

static trace_header test_header(void)
{
    trace_header h;
    memset(&h, 0, sizeof h);
    h.source = TSRC_TEXT;
    h.tb_hz = 667000000;
    h.core_hz = 667000000;
    strcpy(h.workload, "unit \"test\"");
    strcpy(h.tool_version, "0.1.0");
    strcpy(h.cost_label, "measured");
    return h;
}

static trace_rec rexit(exit_type t, uint64_t tb)
{
    trace_rec r = {.kind = TREC_EXIT,
                   .type = (uint8_t)t,
                   .irq = 6,
                   .flags = TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN,
                   .pc = 0xc0012345,
                   .inst = 0x7c6000a6,
                   .addr = 0x1000,
                   .tb = tb,
                   .handler = 1288,
                   .guest = 3160};
    return r;
}

/* One record of every kind, with every field of each kind used. */
static void all_kinds(trace_rec *r /* [6] */)
{
    trace_rec x[6] = {
        {.kind = TREC_MARKER, .type = 7, .tb = 1000, .handler = 42},
        {.kind = TREC_GTLB_WRITE,
         .type = 63,
         .irq = 255,
         .pc = 0xc0000290,
         .inst = 0x01234567,
         .addr = 0x3f,
         .tb = 1001},
        {.kind = TREC_EXIT,
         .type = EXIT_HCALL,
         .irq = 15,
         /* every flag that can go together (G and I exclude each other) */
         .flags = TRF__ALL & ~TRF_GUEST_INSNS,
         .pc = 0xffffffff,
         .inst = 0x4c000064,
         .addr = 0xdeadbeef,
         .tb = UINT64_MAX - 1,
         .handler = UINT32_MAX,
         .guest = 1},
        {.kind = TREC_STLB_WRITE,
         .type = 5,
         .irq = 3,
         .pc = 0x10012210,
         .inst = 0x07d34000,
         .addr = 0x33f,
         .tb = 1003},
        {.kind = TREC_STLB_INVAL, .type = 5, .tb = 1004},
        {.kind = TREC_EXIT,
         .type = EXIT_MMIO,
         .irq = 2,
         .flags = 0,
         .tb = 1005},
    };
    memcpy(r, x, sizeof x);
}

static sim_err write_trace(const char *path, const trace_rec *recs, size_t n)
{
    trace_header h = test_header();
    trace_writer *w;
    sim_err e = trace_writer_open(&w, path, &h);
    if (e)
        return e;
    for (size_t i = 0; i < n; i++)
        if ((e = trace_writer_put(w, &recs[i]))) {
            trace_writer_abort(w);
            return e;
        }
    return trace_writer_close(w);
}

/* n exits of varying types, tb = 100 * i. */
static sim_err write_exits(const char *path, size_t n)
{
    trace_header h = test_header();
    trace_writer *w;
    sim_err e = trace_writer_open(&w, path, &h);
    if (e)
        return e;
    for (size_t i = 0; i < n; i++) {
        /* every exit type in turn; TIMEINGUEST is a row, not an exit */
        exit_type t = (exit_type)(i % EXIT__COUNT);
        if (t == EXIT_TIMEINGUEST)
            t = EXIT_EMULINST;
        trace_rec r = rexit(t, 100 * (uint64_t)i);
        if ((e = trace_writer_put(w, &r))) {
            trace_writer_abort(w);
            return e;
        }
    }
    return trace_writer_close(w);
}

static int spit(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(b, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Reads a whole trace from memory; the record count in *nrec. */
static sim_err read_mem(const unsigned char *b, size_t len, uint64_t *nrec)
{
    trace_reader *r;
    sim_err e = trace_reader_open_mem(&r, b, len, "mem.bin");
    if (nrec)
        *nrec = 0;
    if (e)
        return e;
    e = trace_reader_pass(r, &(trace_pass){0}, nrec);
    trace_reader_close(r);
    return e;
}

static sim_err read_path(const char *path)
{
    return trace_verify(path, NULL);
}

static int msg_has(const char *s)
{
    if (strstr(sim_errmsg(), s))
        return 1;
    fprintf(stderr, "\n  message \"%s\" lacks \"%s\"\n", sim_errmsg(), s);
    return 0;
}

/* A valid 100-record trace in memory: header 128, chunk header at 128,
 * payload 144..3344, footer 3344..3976, trailer 3976..3992. */
static unsigned char *sample(size_t *len)
{
    const char *p = tpath("sample.bin");
    if (write_exits(p, 100) != SIM_OK)
        return NULL;
    return test_slurp(p, len);
}

static void fix_chunk_crc(unsigned char *b, size_t chunk_off, size_t nrec)
{
    uint32_t c = crc32_gzip_refl(0, b + chunk_off, 12);
    c = crc32_gzip_refl(c, b + chunk_off + CHDR, nrec * TRACE_RECORD_SIZE);
    memcpy(b + chunk_off + 12, &c, 4); /* test hosts are little-endian */
}

static void fix_footer_crc(unsigned char *b, size_t foff)
{
    uint32_t c = crc32_gzip_refl(0, b + foff, FOOTER - 4);
    memcpy(b + foff + FOOTER - 4, &c, 4);
}

/* ---- the CRC ---- */

static void test_crc_is_gzip_crc32(void)
{
    /* The check value of CRC-32/ISO-HDLC (zlib, gzip, PNG). */
    CU_ASSERT_EQUAL(crc32_gzip_refl(0, (const unsigned char *)"123456789", 9),
                    0xCBF43926u);
}

/* ---- round trips ---- */

static void test_roundtrip_every_kind(void)
{
    trace_rec in[6];
    all_kinds(in);
    const char *p = tpath("kinds.bin");
    CU_ASSERT_EQUAL_FATAL(write_trace(p, in, 6), SIM_OK);
    trace_reader *r;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p), SIM_OK);
    const trace_header *h = trace_reader_header(r);
    CU_ASSERT_EQUAL(h->version, TRACE_VERSION);
    CU_ASSERT_EQUAL(h->record_size, TRACE_RECORD_SIZE);
    CU_ASSERT_EQUAL(h->source, TSRC_TEXT);
    CU_ASSERT_EQUAL(h->tb_hz, 667000000);
    CU_ASSERT_STRING_EQUAL(h->workload, "unit \"test\"");
    CU_ASSERT_STRING_EQUAL(h->cost_label, "measured");
    const trace_rec *recs;
    size_t n;
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(n, 6);
    CU_ASSERT_EQUAL(memcmp(recs, in, sizeof in), 0);
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_PTR_NOT_NULL(trace_reader_footer(r));
    trace_reader_close(r);
}

static void test_empty_trace(void)
{
    const char *p = tpath("empty.bin");
    CU_ASSERT_EQUAL_FATAL(write_trace(p, NULL, 0), SIM_OK);
    size_t len;
    unsigned char *b = test_slurp(p, &len);
    CU_ASSERT_EQUAL(len, HDR + FOOTER + TRAILER);
    free(b);
    trace_reader *r;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p), SIM_OK);
    const trace_rec *recs;
    size_t n = 99;
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL(n, 0);
    trace_reader_close(r);
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL_FATAL(trace_read_footer(p, &h, &f), SIM_OK);
    CU_ASSERT_EQUAL(f.n_records, 0);
    CU_ASSERT_EQUAL(f.n_chunks, 0);
    CU_ASSERT_EQUAL(f.first_tb, 0);
}

static void test_exactly_one_full_chunk(void)
{
    const char *p = tpath("one_chunk.bin");
    CU_ASSERT_EQUAL_FATAL(write_exits(p, TRACE_CHUNK_RECORDS), SIM_OK);
    trace_reader *r;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p), SIM_OK);
    const trace_rec *recs;
    size_t n;
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL(n, TRACE_CHUNK_RECORDS);
    CU_ASSERT_EQUAL(recs[n - 1].tb, 100ull * (TRACE_CHUNK_RECORDS - 1));
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL(n, 0);
    trace_reader_close(r);
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL_FATAL(trace_read_footer(p, &h, &f), SIM_OK);
    CU_ASSERT_EQUAL(f.n_chunks, 1);
}

static void test_chunk_boundary_plus_one(void)
{
    const char *p = tpath("two_chunks.bin");
    CU_ASSERT_EQUAL_FATAL(write_exits(p, TRACE_CHUNK_RECORDS + 1), SIM_OK);
    size_t len;
    free(test_slurp(p, &len));
    CU_ASSERT_EQUAL(len, HDR + 2 * CHDR +
                             (TRACE_CHUNK_RECORDS + 1) * TRACE_RECORD_SIZE +
                             FOOTER + TRAILER);
    trace_reader *r;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p), SIM_OK);
    const trace_rec *recs;
    size_t n;
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL(n, TRACE_CHUNK_RECORDS);
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(recs[0].tb, 100ull * TRACE_CHUNK_RECORDS);
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_EQUAL(trace_reader_footer(r)->n_chunks, 2);
    trace_reader_close(r);
}

static void test_footer_counts(void)
{
    trace_rec in[6];
    all_kinds(in);
    const char *p = tpath("counts.bin");
    CU_ASSERT_EQUAL_FATAL(write_trace(p, in, 6), SIM_OK);
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL_FATAL(trace_read_footer(p, &h, &f), SIM_OK);
    CU_ASSERT_EQUAL(f.n_records, 6);
    CU_ASSERT_EQUAL(f.n_exits, 2);
    CU_ASSERT_EQUAL(f.n_chunks, 1);
    CU_ASSERT_EQUAL(f.first_tb, 1000);
    CU_ASSERT_EQUAL(f.last_tb, 1005);
    CU_ASSERT_EQUAL(f.kind_counts[TREC_EXIT], 2);
    CU_ASSERT_EQUAL(f.kind_counts[TREC_GTLB_WRITE], 1);
    CU_ASSERT_EQUAL(f.kind_counts[TREC_STLB_WRITE], 1);
    CU_ASSERT_EQUAL(f.kind_counts[TREC_STLB_INVAL], 1);
    CU_ASSERT_EQUAL(f.kind_counts[TREC_MARKER], 1);
    CU_ASSERT_EQUAL(f.type_counts[EXIT_HCALL], 1);
    CU_ASSERT_EQUAL(f.type_counts[EXIT_MMIO], 1);
    CU_ASSERT_EQUAL(f.type_counts[EXIT_EMULINST], 0);
    CU_ASSERT_STRING_EQUAL(h.tool_version, "0.1.0");
}

static void test_same_records_same_bytes(void)
{
    trace_rec in[6];
    all_kinds(in);
    const char *a = tpath("det_a.bin"), *b = tpath("det_b.bin");
    CU_ASSERT_EQUAL_FATAL(write_trace(a, in, 6), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(write_trace(b, in, 6), SIM_OK);
    size_t la, lb;
    unsigned char *ba = test_slurp(a, &la), *bb = test_slurp(b, &lb);
    CU_ASSERT_FATAL(ba && bb);
    CU_ASSERT_EQUAL(la, lb);
    CU_ASSERT(la == lb && memcmp(ba, bb, la) == 0);
    free(ba);
    free(bb);
}

static void test_mem_reader_matches_file(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    CU_ASSERT_EQUAL(len, 3992);
    uint64_t n;
    CU_ASSERT_EQUAL(read_mem(b, len, &n), SIM_OK);
    CU_ASSERT_EQUAL(n, 100);
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL(trace_read_footer_mem(b, len, "mem.bin", &h, &f), SIM_OK);
    CU_ASSERT_EQUAL(f.n_records, 100);
    free(b);
}

/* ---- corruption ---- */

/* Truncating at each point gives SIM_ERR_TRUNC naming the byte. */
static void test_truncation_names_byte(void)
{
    static const struct {
        size_t at;
        const char *msg;
    } cuts[] = {
        {0, "truncated at byte 0"},
        {4, "truncated at byte 4: expected the 128-byte header"},
        {60, "truncated at byte 60"},
        {128, "truncated at byte 128: the footer is missing"},
        {136, "truncated at byte 136: expected the 16-byte header of chunk 0"},
        {1000, "truncated at byte 1000: expected 3200 bytes of chunk 0, "
               "found 856"},
        {3344, "truncated at byte 3344: the footer is missing"},
        {3350, "truncated at byte 3350"},
        {3976, "truncated at byte 3976: expected the 632-byte footer"},
        {3991, "truncated at byte 3991"},
    };
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        CU_ASSERT_EQUAL(read_mem(b, cuts[i].at, NULL), SIM_ERR_TRUNC);
        CU_ASSERT(msg_has(cuts[i].msg));
        trace_header h;
        trace_footer f;
        if (cuts[i].at >= 8) { /* the footer path fails too, by seeking */
            CU_ASSERT_EQUAL(trace_read_footer_mem(b, cuts[i].at, "m", &h, &f),
                            SIM_ERR_TRUNC);
        }
    }
    free(b);
}

static void test_truncated_file_names_path(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    const char *p = tpath("cut.bin");
    CU_ASSERT_EQUAL_FATAL(spit(p, b, 1000), 0);
    CU_ASSERT_EQUAL(read_path(p), SIM_ERR_TRUNC);
    CU_ASSERT(msg_has(p));
    CU_ASSERT(msg_has("byte 1000"));
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL(trace_read_footer(p, &h, &f), SIM_ERR_TRUNC);
    CU_ASSERT(msg_has(p));
    free(b);
}

static void test_payload_flip_is_crc_error(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    b[HDR + CHDR + 32 * 50 + 17] ^= 0x01; /* a tb bit of record 50 */
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(
        msg_has("chunk 0 at byte 128: CRC mismatch, the file is corrupt"));
    free(b);
}

static void test_bad_magic(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    memcpy(b, "NOTTRACE", 8);
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("not a sim440 trace (bad magic at byte 0"));
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL(trace_read_footer_mem(b, len, "m", &h, &f), SIM_ERR_FORMAT);
    free(b);
}

static void test_newer_version(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    b[8] = 2;
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_VERSION);
    CU_ASSERT(msg_has("byte 8: trace version 2 is newer than this sim440 "
                      "(reads version 1): upgrade sim440"));
    free(b);
}

static void test_older_version(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    b[8] = 0;
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_VERSION);
    CU_ASSERT(msg_has("byte 8: trace version 0 is too old for this sim440 "
                      "(reads version 1): re-create the trace"));
    free(b);
}

static void test_record_size_40(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    b[12] = 40;
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("byte 12: record size 40, expected 32"));
    free(b);
}

static void test_header_crc(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    b[33] ^= 0x20; /* a workload character */
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("byte 124: header CRC mismatch"));
    free(b);
}

static void test_bad_chunk_magic(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    b[HDR] = 'X';
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("byte 128: bad chunk magic"));
    free(b);
}

static void test_chunk_count_zero_or_too_big(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    memset(b + HDR + 4, 0, 4);
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(
        msg_has("chunk 0 at byte 128: record count 0, expected 1..8192"));
    uint32_t big = TRACE_CHUNK_RECORDS + 1;
    memcpy(b + HDR + 4, &big, 4);
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("record count 8193"));
    free(b);
}

/* A record that is wrong but has a valid CRC must still be refused. */
static void test_crc_valid_bad_record(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    size_t rec3 = HDR + CHDR + 3 * 32;
    b[rec3 + 1] = 200; /* exit type */
    fix_chunk_crc(b, HDR, 100);
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("record 3 at byte 240 (chunk 0): exit type 200 is out "
                      "of range"));
    b[rec3 + 1] = 0;
    b[rec3 + 3] = 0x80; /* flags */
    fix_chunk_crc(b, HDR, 100);
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("flags 0x80"));
    b[rec3 + 3] = 0;
    b[rec3 + 1] = EXIT_TIMEINGUEST; /* a table row, not an exit */
    fix_chunk_crc(b, HDR, 100);
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("exit type TIMEINGUEST is time in the guest"));
    b[rec3 + 1] = 0;
    b[rec3] = 9; /* kind */
    fix_chunk_crc(b, HDR, 100);
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("record kind 9"));
    free(b);
}

/* A footer that is consistent with itself but not with the chunks. */
static void test_footer_totals_mismatch(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    size_t foff = 3344;
    uint64_t c0, c1; /* move one exit from type 0 to type 1 */
    memcpy(&c0, b + foff + 112, 8);
    memcpy(&c1, b + foff + 120, 8);
    c0--, c1++;
    memcpy(b + foff + 112, &c0, 8);
    memcpy(b + foff + 120, &c1, 8);
    fix_footer_crc(b, foff);
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("footer at byte 3344: its counts by exit type differ"));
    /* trace_read_footer cannot see it without reading the chunks */
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL(trace_read_footer_mem(b, len, "m", &h, &f), SIM_OK);
    free(b);
}

static void test_footer_inconsistent_in_itself(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    size_t foff = 3344;
    b[foff + 8] = 101; /* n_records */
    fix_footer_crc(b, foff);
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL(trace_read_footer_mem(b, len, "m", &h, &f), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("footer at byte 3344"));
    free(b);
}

static void test_footer_crc(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    b[3344 + 40] ^= 1; /* last_tb */
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL(trace_read_footer_mem(b, len, "m", &h, &f), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("footer at byte 3344: CRC mismatch"));
    CU_ASSERT_EQUAL(read_mem(b, len, NULL), SIM_ERR_FORMAT);
    free(b);
}

static void test_trailing_garbage(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    unsigned char *g = malloc(len + 5);
    memcpy(g, b, len);
    memcpy(g + len, "junk!", 5);
    CU_ASSERT_EQUAL(read_mem(g, len + 5, NULL), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("trailing garbage at byte 3992"));
    trace_header h;
    trace_footer f;
    CU_ASSERT_NOT_EQUAL(trace_read_footer_mem(g, len + 5, "m", &h, &f), SIM_OK);
    free(g);
    free(b);
}

static void test_reader_error_is_sticky(void)
{
    size_t len;
    unsigned char *b = sample(&len);
    CU_ASSERT_FATAL(b != NULL);
    b[HDR + CHDR + 5] ^= 1;
    trace_reader *r;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, b, len, "m"), SIM_OK);
    const trace_rec *recs;
    size_t n;
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_ERR_FORMAT);
    CU_ASSERT_EQUAL(n, 0);
    sim_clear_error();
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("CRC mismatch"));
    trace_reader_close(r);
    free(b);
}

/* ---- writer ---- */

static void test_writer_rejects_bad_records(void)
{
    trace_rec bad[] = {
        {.kind = 0, .tb = 1},
        {.kind = TREC__MAX + 1, .tb = 1},
        {.kind = TREC_EXIT, .type = EXIT__COUNT},
        {.kind = TREC_EXIT, .type = EXIT_DEC, .flags = TRF__ALL + 1},
        {.kind = TREC_EXIT, .type = EXIT_DEC,
         .flags = TRF_GUEST_KNOWN | TRF_GUEST_INSNS},
        {.kind = TREC_GTLB_WRITE, .type = 64},
        /* a shadow's UTLB slot: up to the 128 entries of a what-if core */
        {.kind = TREC_STLB_WRITE, .type = 128},
        {.kind = TREC_STLB_INVAL, .type = 128},
        {.kind = TREC_STLB_WRITE, .type = 1, .handler = 5},
        {.kind = TREC_STLB_INVAL, .type = 1, .pc = 5},
        {.kind = TREC_MARKER, .type = 1, .guest = 5},
    };
    trace_header h = test_header();
    trace_writer *w;
    const char *p = tpath("reject.bin");
    CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &h), SIM_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(trace_writer_put(w, &bad[i]), SIM_ERR_RANGE);
        CU_ASSERT(msg_has("record 0: "));
        CU_ASSERT_EQUAL(trace_rec_check(&bad[i]), SIM_ERR_RANGE);
    }
    /* a refused record is not written; the writer goes on */
    trace_rec ok = rexit(EXIT_DEC, 7);
    CU_ASSERT_EQUAL(trace_writer_put(w, &ok), SIM_OK);
    /* the last slot of a 128-entry UTLB is a shadow slot, not a guest
     * TLB index */
    trace_rec top = {.kind = TREC_STLB_INVAL, .type = 127, .tb = 8};
    CU_ASSERT_EQUAL(trace_rec_check(&top), SIM_OK);
    CU_ASSERT_EQUAL(trace_writer_put(w, &top), SIM_OK);
    top.kind = TREC_GTLB_WRITE;
    CU_ASSERT_EQUAL(trace_rec_check(&top), SIM_ERR_RANGE);
    CU_ASSERT_EQUAL(trace_writer_close(w), SIM_OK);
    trace_header h2;
    trace_footer f;
    CU_ASSERT_EQUAL(trace_read_footer(p, &h2, &f), SIM_OK);
    CU_ASSERT_EQUAL(f.n_records, 2);
}

static void test_writer_rejects_bad_header(void)
{
    trace_writer *w = NULL;
    trace_header h = test_header();
    h.tb_hz = 0;
    CU_ASSERT_EQUAL(trace_writer_open(&w, tpath("badh.bin"), &h),
                    SIM_ERR_RANGE);
    CU_ASSERT(msg_has("tb_hz"));
    h = test_header();
    memset(h.workload, 'a', sizeof h.workload); /* no NUL */
    CU_ASSERT_EQUAL(trace_writer_open(&w, tpath("badh.bin"), &h),
                    SIM_ERR_RANGE);
    CU_ASSERT(msg_has("workload"));
    h = test_header();
    h.source = TSRC__MAX + 1;
    CU_ASSERT_EQUAL(trace_writer_open(&w, tpath("badh.bin"), &h),
                    SIM_ERR_RANGE);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_FALSE(exists(tpath("badh.bin")));
}

/* No file named like "<base>.tmp.*" left in the scratch directory. */
static int temp_left(const char *base)
{
    DIR *d = opendir(test_tmp_dir());
    if (!d)
        return -1;
    struct dirent *e;
    size_t n = strlen(base);
    int found = 0;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, base, n) && !strncmp(e->d_name + n, ".tmp.", 5))
            found = 1;
    closedir(d);
    return found;
}

static void test_abort_leaves_nothing(void)
{
    const char *p = tpath("aborted.bin");
    unlink(p);
    trace_header h = test_header();
    trace_writer *w;
    CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &h), SIM_OK);
    for (unsigned i = 0; i < TRACE_CHUNK_RECORDS + 10; i++) {
        trace_rec r = rexit(EXIT_DEC, i);
        CU_ASSERT_EQUAL_FATAL(trace_writer_put(w, &r), SIM_OK);
    }
    CU_ASSERT_FALSE(exists(p)); /* nothing under the real name yet */
    CU_ASSERT_EQUAL(temp_left("aborted.bin"), 1);
    trace_writer_abort(w);
    CU_ASSERT_FALSE(exists(p));
    CU_ASSERT_EQUAL(temp_left("aborted.bin"), 0);
}

static void test_close_renames_and_removes_temp(void)
{
    const char *p = tpath("closed.bin");
    unlink(p);
    CU_ASSERT_EQUAL_FATAL(write_exits(p, 3), SIM_OK);
    CU_ASSERT_TRUE(exists(p));
    CU_ASSERT_EQUAL(temp_left("closed.bin"), 0);
}

static void test_source_names(void)
{
    CU_ASSERT_STRING_EQUAL(trace_source_name(TSRC_SYNTH), "synth");
    CU_ASSERT_STRING_EQUAL(trace_source_name(TSRC_UNKNOWN), "unknown");
    CU_ASSERT_PTR_NULL(trace_source_name(TSRC__MAX + 1));
    CU_ASSERT_EQUAL(trace_source_from_name("cpu440"), TSRC_CPU440);
    CU_ASSERT_EQUAL(trace_source_from_name("ftrace"), TSRC_FTRACE);
    CU_ASSERT_EQUAL(trace_source_from_name("text"), TSRC_TEXT);
    CU_ASSERT_EQUAL(trace_source_from_name("nope"), -1);
}

/* ---- text form ---- */

static char *dump_to_string(const char *path, sim_err *e)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    *e = tracetext_dump(path, f, NULL, NULL);
    fclose(f);
    return s;
}

static const char canonical_text[] =
    "# sim440 trace v1\n"
    "header version=1 source=cpu440 tb_hz=667000000 core_hz=667000000 "
    "workload=\"a \\\"q\\\" \\\\ b\" tool_version=\"0.1.0\" "
    "cost_label=\"measured\"\n"
    "marker id=1 value=0 tb=1000000\n"
    "gtlb index=0 tid=0 w0=0xc0000290 w1=0x00000000 w2=0x0000003f "
    "tb=1000200\n"
    "exit DTLBVIRT irq=13 pc=0xc0001a40 inst=0x80830000 addr=0x10012340 "
    "tb=1001000 handler=1940 guest=21340 flags=H,G,PR,U\n"
    "stlb index=12 tid=3 w0=0x10012210 w1=0x07d34000 w2=0x0000033f "
    "tb=1001500\n"
    "stlb_inval slot=12 tb=1001600\n"
    "exit EMUL_MFMSR irq=6 pc=0xc000f10c inst=0x7c6000a6 addr=0x00000000 "
    "tb=1030000 handler=0 guest=0 flags=-\n";

static void test_dump_pack_dump_identity(void)
{
    const char *p = tpath("text1.bin");
    CU_ASSERT_EQUAL_FATAL(
        tracetext_pack_buf("t.txt", canonical_text, strlen(canonical_text), p),
        SIM_OK);
    sim_err e;
    char *s = dump_to_string(p, &e);
    CU_ASSERT_EQUAL(e, SIM_OK);
    CU_ASSERT_STRING_EQUAL(s, canonical_text);
    free(s);
}

static void test_pack_dump_pack_identity(void)
{
    trace_rec in[6];
    all_kinds(in);
    const char *a = tpath("pdp_a.bin"), *b = tpath("pdp_b.bin");
    CU_ASSERT_EQUAL_FATAL(write_trace(a, in, 6), SIM_OK);
    sim_err e;
    char *s = dump_to_string(a, &e);
    CU_ASSERT_EQUAL_FATAL(e, SIM_OK);
    CU_ASSERT_EQUAL_FATAL(tracetext_pack_buf("d.txt", s, strlen(s), b), SIM_OK);
    size_t la, lb;
    unsigned char *ba = test_slurp(a, &la), *bb = test_slurp(b, &lb);
    CU_ASSERT_FATAL(ba && bb);
    CU_ASSERT(la == lb && memcmp(ba, bb, la) == 0);
    free(ba);
    free(bb);
    free(s);
}

/* The committed tests/data/trace_small.bin is what pack makes of its text. */
static void test_committed_small_trace_packs_identically(void)
{
    char txt[512], bin[512];
    snprintf(txt, sizeof txt, "%s/trace_small.txt", test_data_dir());
    snprintf(bin, sizeof bin, "%s/trace_small.bin", test_data_dir());
    FILE *f = fopen(txt, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const char *out = tpath("small_repacked.bin");
    CU_ASSERT_EQUAL(tracetext_pack(txt, f, out, NULL, NULL), SIM_OK);
    fclose(f);
    size_t la, lb;
    unsigned char *ba = test_slurp(bin, &la), *bb = test_slurp(out, &lb);
    CU_ASSERT_FATAL(ba && bb);
    CU_ASSERT(la == lb && memcmp(ba, bb, la) == 0);
    free(ba);
    free(bb);
}

static void test_pack_defaults_for_hand_written_text(void)
{
    static const char text[] = "header tb_hz=667000000 core_hz=667000000\n"
                               "\n"
                               "  # a comment\n"
                               "exit DEC tb=5\n";
    const char *p = tpath("hand.bin");
    CU_ASSERT_EQUAL_FATAL(tracetext_pack_buf("h.txt", text, strlen(text), p),
                          SIM_OK);
    trace_reader *r;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p), SIM_OK);
    CU_ASSERT_EQUAL(trace_reader_header(r)->source, TSRC_TEXT);
    const trace_rec *recs;
    size_t n;
    CU_ASSERT_EQUAL(trace_reader_next(r, &recs, &n), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(recs[0].type, EXIT_DEC);
    CU_ASSERT_EQUAL(recs[0].irq, BOOKE_IRQ_DECREMENTER); /* default irq */
    CU_ASSERT_EQUAL(recs[0].flags, 0);
    CU_ASSERT_EQUAL(recs[0].tb, 5);
    trace_reader_close(r);
}

static void test_pack_rejects_malformed_lines(void)
{
#define H "header tb_hz=667000000 core_hz=667000000\n"
    static const struct {
        const char *text;
        sim_err e;
        const char *msg;
    } cases[] = {
        {H "exti DEC tb=1\n", SIM_ERR_FORMAT, "t.txt:2:1: unknown line 'exti'"},
        {H "exit EMULINS tb=1\n", SIM_ERR_FORMAT,
         "t.txt:2:6: unknown exit type 'EMULINS' (did you mean EMULINST?)"},
        {H "exit tb=1\n", SIM_ERR_FORMAT, "t.txt:2:6: expected an exit type"},
        {H "exit DEC pc=0x1g tb=1\n", SIM_ERR_RANGE,
         "t.txt:2:13: pc: expected a number 0..4294967295"},
        {H "exit DEC pc=0x100000000 tb=1\n", SIM_ERR_RANGE, "t.txt:2:13: pc"},
        {H "exit DEC irq=-1 tb=1\n", SIM_ERR_RANGE, "t.txt:2:14: irq"},
        {H "exit DEC pc=1\n", SIM_ERR_FORMAT, "t.txt:2:1: exit: missing tb="},
        {H "exit DEC tb=1 tb=2\n", SIM_ERR_FORMAT,
         "t.txt:2:15: tb= given twice"},
        {H "exit DEC tb=1 bogus=2\n", SIM_ERR_FORMAT,
         "t.txt:2:15: unknown key 'bogus' for exit: expected irq, pc"},
        {H "exit DEC tb=1 junk\n", SIM_ERR_FORMAT,
         "t.txt:2:15: expected key=value, found 'junk'"},
        {H "exit DEC tb=1 flags=H,X\n", SIM_ERR_FORMAT,
         "t.txt:2:23: flags: unknown flag 'X'"},
        {H "gtlb index=64 tb=1\n", SIM_ERR_RANGE,
         "t.txt:2:12: index: expected a number 0..63"},
        {H "stlb index=128 tb=1\n", SIM_ERR_RANGE,
         "t.txt:2:12: index: expected a number 0..127"},
        {H "stlb_inval slot=128 tb=1\n", SIM_ERR_RANGE,
         "t.txt:2:17: slot: expected a number 0..127"},
        {H "stlb_inval slot=1 tid=1 tb=1\n", SIM_ERR_FORMAT,
         "unknown key 'tid' for stlb_inval: expected slot, tb"},
        {"exit DEC tb=1\n", SIM_ERR_FORMAT,
         "t.txt:1:1: a record before the header line"},
        {"# only a comment\n", SIM_ERR_FORMAT, "t.txt: no header line"},
        {H H, SIM_ERR_FORMAT,
         "t.txt:2:1: a second header line (the first is "
         "line 1)"},
        {"header tb_hz=1\n", SIM_ERR_FORMAT,
         "t.txt:1:1: header: missing "
         "core_hz="},
        {"header version=2 tb_hz=1 core_hz=1\n", SIM_ERR_VERSION,
         "t.txt:1:16: trace version 2 is newer than this sim440"},
        {"header tb_hz=0 core_hz=1\n", SIM_ERR_RANGE, "t.txt:1:14: tb_hz"},
        {"header tb_hz=1 junk core_hz=1\n", SIM_ERR_FORMAT,
         "t.txt:1:16: expected key=value, found 'junk'"},
        {"header tb_hz=1 core_hz=1 workload=\"abc\n", SIM_ERR_FORMAT,
         "t.txt:1:35: workload: unterminated string"},
        {"header tb_hz=1 core_hz=1 workload=abc\n", SIM_ERR_FORMAT,
         "workload: expected a string in double quotes"},
        {"header tb_hz=1 core_hz=1 tool_version=\"0123456789abcdef\"\n",
         SIM_ERR_RANGE, "tool_version: longer than 15 characters"},
        {"header tb_hz=1 core_hz=1 source=disk\n", SIM_ERR_FORMAT,
         "t.txt:1:33: unknown source 'disk'"},
        {H "\n\n# c\nmarker id=1 value=2\n", SIM_ERR_FORMAT,
         "t.txt:5:1: marker: missing tb="},
    };
#undef H
    const char *p = tpath("malformed.bin");
    unlink(p);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_err e = tracetext_pack_buf("t.txt", cases[i].text,
                                       strlen(cases[i].text), p);
        CU_ASSERT_EQUAL(e, cases[i].e);
        if (e != cases[i].e)
            fprintf(stderr, "\n  case %zu: %s\n", i, sim_errmsg());
        CU_ASSERT(msg_has(cases[i].msg));
        CU_ASSERT_FALSE(exists(p)); /* nothing written on error */
    }
    CU_ASSERT_EQUAL(temp_left("malformed.bin"), 0);
}

static void test_pack_rejects_nul_and_long_lines(void)
{
    const char *p = tpath("binary.bin");
    static const char nul[] = "header tb_hz=1 core_hz=1\nexit\0DEC tb=1\n";
    CU_ASSERT_EQUAL(tracetext_pack_buf("t.txt", nul, sizeof nul - 1, p),
                    SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("t.txt:2:5: NUL byte"));
    char *big = malloc(TRACETEXT_LINE_MAX + 100);
    memset(big, '#', TRACETEXT_LINE_MAX + 99);
    big[TRACETEXT_LINE_MAX + 99] = '\n';
    CU_ASSERT_EQUAL(
        tracetext_pack_buf("t.txt", big, TRACETEXT_LINE_MAX + 100, p),
        SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("t.txt:1: line longer than"));
    free(big);
    CU_ASSERT_FALSE(exists(p));
}

static void test_pack_accepts_crlf_and_no_final_newline(void)
{
    static const char text[] =
        "header tb_hz=1 core_hz=1\r\nmarker id=1 value=2 tb=3";
    const char *p = tpath("crlf.bin");
    CU_ASSERT_EQUAL(tracetext_pack_buf("t.txt", text, strlen(text), p), SIM_OK);
    trace_header h;
    trace_footer f;
    CU_ASSERT_EQUAL(trace_read_footer(p, &h, &f), SIM_OK);
    CU_ASSERT_EQUAL(f.kind_counts[TREC_MARKER], 1);
}

/* ---- one pass over every record (trace_pass_file) ---- */

/* What a pass saw: its callbacks record here. */
typedef struct seen {
    uint64_t tb_hz; /* from the header */
    int headers, chunks, progresses;
    uint64_t records; /* handed to chunk */
    uint64_t next_tb; /* write_exits: tb = 100 * i, in order */
    bool in_order;
    uint64_t last_done, last_total; /* of the last progress call */
    int refuse_header;              /* return this from header (0: SIM_OK) */
    int refuse_chunk; /* fail the chunk of this number (1-based; 0: none) */
} seen;

static sim_err seen_header(void *ctx, const trace_header *h)
{
    seen *s = ctx;
    s->headers++;
    s->tb_hz = h->tb_hz;
    return s->refuse_header
               ? sim_fail((sim_err)s->refuse_header, "header refused")
               : SIM_OK;
}

static sim_err seen_chunk(void *ctx, const trace_rec *recs, size_t n)
{
    seen *s = ctx;
    if (++s->chunks == s->refuse_chunk)
        return sim_fail(SIM_ERR_RANGE, "chunk %d refused", s->chunks);
    for (size_t i = 0; i < n; i++) {
        s->in_order = s->in_order && recs[i].tb == s->next_tb;
        s->next_tb += 100;
    }
    s->records += n;
    return SIM_OK;
}

static void seen_progress(void *ctx, uint64_t done, uint64_t total)
{
    seen *s = ctx;
    s->progresses++;
    s->last_done = done;
    s->last_total = total;
}

static trace_pass seen_pass(seen *s)
{
    *s = (seen){.in_order = true};
    return (trace_pass){.ctx = s,
                        .header = seen_header,
                        .chunk = seen_chunk,
                        .progress = seen_progress,
                        .progress_ctx = s,
                        .total = 12345};
}

#define PASS_N (2 * TRACE_CHUNK_RECORDS + 5) /* three chunks */

static void test_pass_every_record_in_order(void)
{
    const char *p = tpath("pass.bin");
    CU_ASSERT_EQUAL_FATAL(write_exits(p, PASS_N), SIM_OK);
    seen s;
    trace_pass tp = seen_pass(&s);
    uint64_t n = 99;
    CU_ASSERT_EQUAL(trace_pass_file(p, &tp, &n), SIM_OK);
    CU_ASSERT_EQUAL(s.headers, 1);
    CU_ASSERT_EQUAL(s.tb_hz, 667000000);
    CU_ASSERT_EQUAL(s.chunks, 3);
    CU_ASSERT_EQUAL(s.records, PASS_N);
    CU_ASSERT(s.in_order);
    CU_ASSERT_EQUAL(n, PASS_N);
    CU_ASSERT_EQUAL(s.progresses, 3);
    CU_ASSERT_EQUAL(s.last_done, PASS_N);
    CU_ASSERT_EQUAL(s.last_total, 12345);
    /* no callbacks at all: a verify */
    CU_ASSERT_EQUAL(trace_pass_file(p, &(trace_pass){0}, &n), SIM_OK);
    CU_ASSERT_EQUAL(n, PASS_N);
}

static void test_pass_truncated_trace(void)
{
    const char *p = tpath("pass_full.bin"), *q = tpath("pass_cut.bin");
    CU_ASSERT_EQUAL_FATAL(write_exits(p, PASS_N), SIM_OK);
    size_t len;
    unsigned char *b = test_slurp(p, &len);
    CU_ASSERT_FATAL(b != NULL);
    /* cut in the middle of the second chunk's records */
    size_t cut = HDR + 2 * CHDR + TRACE_CHUNK_RECORDS * TRACE_RECORD_SIZE +
                 100 * TRACE_RECORD_SIZE + 7;
    CU_ASSERT_EQUAL_FATAL(spit(q, b, cut), 0);
    free(b);
    seen s;
    trace_pass tp = seen_pass(&s);
    uint64_t n = 99;
    CU_ASSERT_EQUAL(trace_pass_file(q, &tp, &n), SIM_ERR_TRUNC);
    CU_ASSERT(msg_has(q));
    char at[64];
    snprintf(at, sizeof at, "truncated at byte %zu", cut);
    CU_ASSERT(msg_has(at));
    /* the first chunk was passed on, nothing after the damage */
    CU_ASSERT_EQUAL(s.chunks, 1);
    CU_ASSERT_EQUAL(s.records, TRACE_CHUNK_RECORDS);
    CU_ASSERT_EQUAL(n, TRACE_CHUNK_RECORDS);
    CU_ASSERT_EQUAL(s.progresses, 1);
    /* the hint before a pass: no footer, zeros, no error left */
    trace_footer f = trace_footer_hint(q);
    CU_ASSERT_EQUAL(f.n_records, 0);
    CU_ASSERT_EQUAL(f.n_exits, 0);
    CU_ASSERT_STRING_EQUAL(sim_errmsg(), "");
    f = trace_footer_hint(p);
    CU_ASSERT_EQUAL(f.n_records, PASS_N);
    CU_ASSERT_EQUAL(f.n_exits, PASS_N);
}

static void test_pass_callback_error_ends_it(void)
{
    const char *p = tpath("pass_cb.bin");
    CU_ASSERT_EQUAL_FATAL(write_exits(p, PASS_N), SIM_OK);
    seen s;
    trace_pass tp = seen_pass(&s);
    uint64_t n = 99;
    s.refuse_header = SIM_ERR_FORMAT; /* the header refused: no records */
    CU_ASSERT_EQUAL(trace_pass_file(p, &tp, &n), SIM_ERR_FORMAT);
    CU_ASSERT(msg_has("header refused"));
    CU_ASSERT_EQUAL(s.headers, 1);
    CU_ASSERT_EQUAL(s.chunks, 0);
    CU_ASSERT_EQUAL(s.progresses, 0);
    CU_ASSERT_EQUAL(n, 0);
    tp = seen_pass(&s);
    s.refuse_chunk = 2; /* the second chunk refused: the third not read */
    CU_ASSERT_EQUAL(trace_pass_file(p, &tp, &n), SIM_ERR_RANGE);
    CU_ASSERT(msg_has("chunk 2 refused"));
    CU_ASSERT_EQUAL(s.chunks, 2);
    CU_ASSERT_EQUAL(s.progresses, 1);
    CU_ASSERT_EQUAL(n, TRACE_CHUNK_RECORDS);
}

static void test_pass_missing_file(void)
{
    const char *p = tpath("pass_missing.bin");
    unlink(p);
    seen s;
    trace_pass tp = seen_pass(&s);
    uint64_t n = 99;
    CU_ASSERT_EQUAL(trace_pass_file(p, &tp, &n), SIM_ERR_IO);
    CU_ASSERT(msg_has(p));
    CU_ASSERT_EQUAL(s.headers, 0);
    CU_ASSERT_EQUAL(n, 0);
}

static CU_TestInfo tests[] = {
    {"CRC is the gzip CRC-32", test_crc_is_gzip_crc32},
    {"round trip of every record kind", test_roundtrip_every_kind},
    {"empty trace", test_empty_trace},
    {"exactly one full chunk", test_exactly_one_full_chunk},
    {"chunk boundary + 1 record", test_chunk_boundary_plus_one},
    {"footer counts by kind and type", test_footer_counts},
    {"same records give the same bytes", test_same_records_same_bytes},
    {"memory reader matches the file", test_mem_reader_matches_file},
    {"truncation gives TRUNC with the byte", test_truncation_names_byte},
    {"truncated file: message names the path", test_truncated_file_names_path},
    {"flipped payload byte: CRC mismatch", test_payload_flip_is_crc_error},
    {"bad magic", test_bad_magic},
    {"version 2: newer", test_newer_version},
    {"version 0: too old", test_older_version},
    {"record size 40", test_record_size_40},
    {"header CRC", test_header_crc},
    {"bad chunk magic", test_bad_chunk_magic},
    {"chunk record count 0 or too big", test_chunk_count_zero_or_too_big},
    {"CRC-valid bad record refused", test_crc_valid_bad_record},
    {"footer totals differ from chunks", test_footer_totals_mismatch},
    {"footer inconsistent in itself", test_footer_inconsistent_in_itself},
    {"footer CRC", test_footer_crc},
    {"trailing garbage", test_trailing_garbage},
    {"reader error is sticky", test_reader_error_is_sticky},
    {"writer rejects bad records", test_writer_rejects_bad_records},
    {"writer rejects a bad header", test_writer_rejects_bad_header},
    {"aborted writer leaves no file", test_abort_leaves_nothing},
    {"close renames, no temp left", test_close_renames_and_removes_temp},
    {"source names", test_source_names},
    {"dump -> pack -> dump identity", test_dump_pack_dump_identity},
    {"pack -> dump -> pack identity", test_pack_dump_pack_identity},
    {"committed trace_small.bin = pack of its text",
     test_committed_small_trace_packs_identically},
    {"pack defaults for hand-written text",
     test_pack_defaults_for_hand_written_text},
    {"pack rejects malformed lines with line:col",
     test_pack_rejects_malformed_lines},
    {"pack rejects NUL bytes and long lines",
     test_pack_rejects_nul_and_long_lines},
    {"pack accepts CRLF and no final newline",
     test_pack_accepts_crlf_and_no_final_newline},
    {"pass: every record in order, header, progress",
     test_pass_every_record_in_order},
    {"pass over a truncated trace: its error, the chunks before",
     test_pass_truncated_trace},
    {"pass: a callback's error ends it", test_pass_callback_error_ends_it},
    {"pass over a missing file", test_pass_missing_file},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("trace", tests)
