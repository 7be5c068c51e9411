/* trace: the trace.bin v1 file, byte by byte as in docs/trace-format.md:
 * header, CRC-32 chunks of 32-byte records, footer with counts, trailer. */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <isa-l/crc.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "tlb440.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

/* ---- the layout (docs/trace-format.md) ---- */
#define HDR_MAGIC     "SIM440TR"
#define CHUNK_MAGIC   "CHNK"
#define FOOTER_MAGIC  "SIM440FT"
#define TRAILER_MAGIC "SIM440TL"

#define HDR_OFF_VERSION   8
#define HDR_OFF_HDRSIZE   10
#define HDR_OFF_RECSIZE   12
#define HDR_OFF_SOURCE    14
#define HDR_OFF_TBHZ      16
#define HDR_OFF_COREHZ    24
#define HDR_OFF_WORKLOAD  32
#define HDR_OFF_TOOLVER   64
#define HDR_OFF_COSTLABEL 80
#define HDR_OFF_RESERVED  112
#define HDR_OFF_CRC       124

#define CHUNK_HDR_SIZE    16
#define CHUNK_PAYLOAD_MAX ((size_t)TRACE_CHUNK_RECORDS * TRACE_RECORD_SIZE)

#define FTR_OFF_NREC     8
#define FTR_OFF_NEXIT    16
#define FTR_OFF_NCHUNK   24
#define FTR_OFF_FIRSTTB  32
#define FTR_OFF_LASTTB   40
#define FTR_OFF_KINDS    48
#define FTR_OFF_TYPES    112
#define FTR_OFF_RESERVED 624
#define FTR_OFF_CRC      628
#define FOOTER_SIZE      632

#define TRAILER_SIZE  16
#define MIN_FILE_SIZE (TRACE_HEADER_SIZE + FOOTER_SIZE + TRAILER_SIZE)

#define TLB_ENTRIES 64 /* KVM's guest TLB (and the 440's UTLB) has 64 */
/* a shadow entry's hardware slot: the UTLB of a what-if core may have up
 * to the 128 entries the model holds (utlb_entries, tlb-slots=N) */
#define SHADOW_SLOTS TLB440_MAX

_Static_assert(EXIT__COUNT <= TRACE_FOOTER_SLOTS, "exit types fit the footer");
_Static_assert(TREC__MAX < 8, "kinds fit kind_counts[8]");

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TRACE_HOST_BE 1
#else
#define TRACE_HOST_BE 0
#endif

typedef unsigned long long ull;

/* ---- little-endian helpers (byte shifts: any host, any alignment) ---- */
static void put16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static uint16_t get16(const unsigned char *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}
static uint64_t get64(const unsigned char *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* The gzip/zlib CRC-32 (IEEE 802.3, reflected, init and final xor ~0). */
static uint32_t crc32(uint32_t crc, const void *p, size_t n)
{
    return crc32_gzip_refl(crc, (const unsigned char *)p, n);
}

static bool all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* ---- names ---- */
static const char *const source_names[TSRC__MAX + 1] = {
    [TSRC_UNKNOWN] = "unknown", [TSRC_SYNTH] = "synth",
    [TSRC_CPU440] = "cpu440",   [TSRC_FTRACE] = "ftrace",
    [TSRC_TEXT] = "text",
};

const char *trace_source_name(unsigned src)
{
    return src <= TSRC__MAX ? source_names[src] : NULL;
}

int trace_source_from_name(const char *name)
{
    for (int i = 0; i <= TSRC__MAX; i++)
        if (strcmp(name, source_names[i]) == 0)
            return i;
    return -1;
}

/* ---- record check, shared by writer and reader ---- */

/* NULL if r follows the table in trace.h, else why not (in buf). */
static const char *rec_problem(const trace_rec *r, char *buf, size_t n)
{
    switch (r->kind) {
    case TREC_EXIT:
        if (r->type >= EXIT__COUNT)
            snprintf(buf, n, "exit type %u is out of range (0..%u)", r->type,
                     EXIT__COUNT - 1);
        else if (r->type == EXIT_TIMEINGUEST)
            snprintf(buf, n, "exit type TIMEINGUEST is time in the guest, "
                     "not an exit");
        else if (r->flags & ~TRF__ALL)
            snprintf(buf, n, "exit flags 0x%02x have bits outside 0x%02x",
                     r->flags, TRF__ALL);
        else if ((r->flags & TRF_GUEST_INSNS) && (r->flags & TRF_GUEST_KNOWN))
            snprintf(buf, n, "exit flags 0x%02x: guest is either ticks (G) "
                     "or instructions (I), not both", r->flags);
        else
            return NULL;
        return buf;
    case TREC_GTLB_WRITE:
    case TREC_STLB_WRITE:
        if (r->type >= (r->kind == TREC_GTLB_WRITE ? TLB_ENTRIES
                                                   : SHADOW_SLOTS))
            snprintf(buf, n, "%s TLB index %u is out of range (0..%u)",
                     r->kind == TREC_GTLB_WRITE ? "guest" : "shadow", r->type,
                     (r->kind == TREC_GTLB_WRITE ? TLB_ENTRIES
                                                 : SHADOW_SLOTS) - 1);
        else if (r->flags || r->handler || r->guest)
            snprintf(buf, n,
                     "a TLB write record must have flags, handler and "
                     "guest 0");
        else
            return NULL;
        return buf;
    case TREC_STLB_INVAL:
        if (r->type >= SHADOW_SLOTS)
            snprintf(buf, n, "shadow TLB slot %u is out of range (0..%u)",
                     r->type, SHADOW_SLOTS - 1);
        else if (r->irq || r->flags || r->pc || r->inst || r->addr ||
                 r->handler || r->guest)
            snprintf(buf, n,
                     "a shadow invalidation record must have every "
                     "field but slot and tb 0");
        else
            return NULL;
        return buf;
    case TREC_MARKER:
        if (r->irq || r->flags || r->pc || r->inst || r->addr || r->guest)
            snprintf(buf, n,
                     "a marker record must have every field but id, "
                     "value and tb 0");
        else
            return NULL;
        return buf;
    default:
        snprintf(buf, n, "record kind %u is not a known kind (1..%u)", r->kind,
                 TREC__MAX);
        return buf;
    }
}

sim_err trace_rec_check(const trace_rec *r)
{
    char why[128];
    const char *p = rec_problem(r, why, sizeof why);
    return p ? sim_fail(SIM_ERR_RANGE, "%s", p) : SIM_OK;
}

/* The hot-path form of rec_problem: true if r is valid. */
static inline bool rec_ok(const trace_rec *r)
{
    switch (r->kind) {
    case TREC_EXIT:
        return r->type < EXIT__COUNT && r->type != EXIT_TIMEINGUEST &&
               !(r->flags & ~TRF__ALL) &&
               (r->flags & (TRF_GUEST_INSNS | TRF_GUEST_KNOWN)) !=
                   (TRF_GUEST_INSNS | TRF_GUEST_KNOWN);
    case TREC_GTLB_WRITE:
        return r->type < TLB_ENTRIES && !(r->flags | r->handler | r->guest);
    case TREC_STLB_WRITE:
        return r->type < SHADOW_SLOTS && !(r->flags | r->handler | r->guest);
    case TREC_STLB_INVAL:
        return r->type < SHADOW_SLOTS && !(r->irq | r->flags | r->pc | r->inst |
                                          r->addr | r->handler | r->guest);
    case TREC_MARKER:
        return !(r->irq | r->flags | r->pc | r->inst | r->addr | r->guest);
    default: return false;
    }
}

/* ---- records on disk ---- */
/* On little-endian hosts a trace_rec is its own disk image (no padding,
 * fields at the offsets of docs/trace-format.md): records are copied, not
 * encoded, and the reader hands out pointers into its buffer. */
_Static_assert(offsetof(trace_rec, pc) == 4 && offsetof(trace_rec, inst) == 8 &&
                   offsetof(trace_rec, addr) == 12 &&
                   offsetof(trace_rec, tb) == 16 &&
                   offsetof(trace_rec, handler) == 24 &&
                   offsetof(trace_rec, guest) == 28,
               "trace_rec is the on-disk record layout");

#if TRACE_HOST_BE
static void rec_encode(unsigned char *p, const trace_rec *r)
{
    p[0] = r->kind;
    p[1] = r->type;
    p[2] = r->irq;
    p[3] = r->flags;
    put32(p + 4, r->pc);
    put32(p + 8, r->inst);
    put32(p + 12, r->addr);
    put64(p + 16, r->tb);
    put32(p + 24, r->handler);
    put32(p + 28, r->guest);
}

/* Big-endian hosts convert the chunk in place after its CRC is checked. */
static void recs_from_le(trace_rec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)&recs[i];
        trace_rec r = {.kind = p[0],
                       .type = p[1],
                       .irq = p[2],
                       .flags = p[3],
                       .pc = get32(p + 4),
                       .inst = get32(p + 8),
                       .addr = get32(p + 12),
                       .tb = get64(p + 16),
                       .handler = get32(p + 24),
                       .guest = get32(p + 28)};
        recs[i] = r;
    }
}
#endif

/* ---- header ---- */

/* Checks a header string field in memory: NUL-terminated within size,
 * printable ASCII before the NUL. NULL if fine, else why not. */
static const char *str_problem(const char *s, size_t size)
{
    const char *nul = memchr(s, '\0', size);
    if (!nul)
        return "is not NUL-terminated";
    for (const char *c = s; c < nul; c++)
        if (*c < 0x20 || *c > 0x7e)
            return "has a character that is not printable ASCII";
    return NULL;
}

static sim_err header_check(const char *path, const trace_header *h)
{
    const char *p;
    if (h->source > TSRC__MAX)
        return sim_fail(SIM_ERR_RANGE,
                        "%s: header source %u is not a known "
                        "source (0..%u)",
                        path, h->source, TSRC__MAX);
    if (h->tb_hz == 0)
        return sim_fail(SIM_ERR_RANGE, "%s: header tb_hz must be > 0", path);
    if (h->core_hz == 0)
        return sim_fail(SIM_ERR_RANGE, "%s: header core_hz must be > 0", path);
    if ((p = str_problem(h->workload, sizeof h->workload)))
        return sim_fail(SIM_ERR_RANGE, "%s: header workload %s", path, p);
    if ((p = str_problem(h->tool_version, sizeof h->tool_version)))
        return sim_fail(SIM_ERR_RANGE, "%s: header tool_version %s", path, p);
    if ((p = str_problem(h->cost_label, sizeof h->cost_label)))
        return sim_fail(SIM_ERR_RANGE, "%s: header cost_label %s", path, p);
    return SIM_OK;
}

/* Copies a checked string into its zero-padded field. */
static void put_str(unsigned char *p, const char *s, size_t size)
{
    memset(p, 0, size);
    memcpy(p, s, strlen(s));
}

static void header_encode(unsigned char *p, const trace_header *h)
{
    memset(p, 0, TRACE_HEADER_SIZE);
    memcpy(p, HDR_MAGIC, 8);
    put16(p + HDR_OFF_VERSION, TRACE_VERSION);
    put16(p + HDR_OFF_HDRSIZE, TRACE_HEADER_SIZE);
    put16(p + HDR_OFF_RECSIZE, TRACE_RECORD_SIZE);
    put16(p + HDR_OFF_SOURCE, (uint16_t)h->source);
    put64(p + HDR_OFF_TBHZ, h->tb_hz);
    put64(p + HDR_OFF_COREHZ, h->core_hz);
    put_str(p + HDR_OFF_WORKLOAD, h->workload, sizeof h->workload);
    put_str(p + HDR_OFF_TOOLVER, h->tool_version, sizeof h->tool_version);
    put_str(p + HDR_OFF_COSTLABEL, h->cost_label, sizeof h->cost_label);
    put32(p + HDR_OFF_CRC, crc32(0, p, HDR_OFF_CRC));
}

/* A string field on disk: as str_problem, and zero after the NUL so that
 * one header has one encoding. */
static sim_err str_decode(const char *name, const unsigned char *p,
                          unsigned off, size_t size, const char *field,
                          char *dst)
{
    const char *why = str_problem((const char *)p + off, size);
    if (!why) {
        size_t len = strlen((const char *)p + off);
        if (!all_zero(p + off + len, size - len))
            why = "has bytes after its NUL that are not zero";
    }
    if (why)
        return sim_fail(SIM_ERR_FORMAT, "%s: byte %u: header %s %s", name, off,
                        field, why);
    memcpy(dst, p + off, size);
    return SIM_OK;
}

/* Decodes and checks the first got bytes of a file (got < 128 when the file
 * is shorter). */
static sim_err header_decode(const char *name, const unsigned char *p,
                             size_t got, trace_header *h)
{
    size_t m = got < 8 ? got : 8;
    if (got == 0)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte 0: the file is "
                        "empty, expected a sim440 trace",
                        name);
    if (memcmp(p, HDR_MAGIC, m) != 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: not a sim440 trace (bad magic at "
                        "byte 0: expected \"%s\")%s",
                        name, HDR_MAGIC,
                        got >= 8 && memcmp(p, "# sim440", 8) == 0
                            ? ": this is the text form, `sim trace pack` "
                              "turns it into a trace"
                            : "");
    /* The version comes before everything else: another version may lay
     * the rest of the header out differently. */
    if (got >= HDR_OFF_VERSION + 2) {
        unsigned v = get16(p + HDR_OFF_VERSION);
        bool newer = v > TRACE_VERSION;
        if (v != TRACE_VERSION)
            return sim_fail(SIM_ERR_VERSION,
                            "%s: byte %u: trace version %u is %s this "
                            "sim440 (reads version %u): %s",
                            name, HDR_OFF_VERSION, v,
                            newer ? "newer than" : "too old for", TRACE_VERSION,
                            newer ? "upgrade sim440" : "re-create the trace");
    }
    if (got < TRACE_HEADER_SIZE)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte %zu: expected "
                        "the %u-byte header, found %zu bytes",
                        name, got, TRACE_HEADER_SIZE, got);
    unsigned hs = get16(p + HDR_OFF_HDRSIZE), rs = get16(p + HDR_OFF_RECSIZE);
    if (hs != TRACE_HEADER_SIZE)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %u: header size %u, expected "
                        "%u for version %u",
                        name, HDR_OFF_HDRSIZE, hs, TRACE_HEADER_SIZE,
                        TRACE_VERSION);
    if (rs != TRACE_RECORD_SIZE)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %u: record size %u, expected "
                        "%u for version %u",
                        name, HDR_OFF_RECSIZE, rs, TRACE_RECORD_SIZE,
                        TRACE_VERSION);
    uint32_t want = get32(p + HDR_OFF_CRC), have = crc32(0, p, HDR_OFF_CRC);
    if (want != have)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %u: header CRC mismatch "
                        "(stored 0x%08x, computed 0x%08x), the file is corrupt",
                        name, HDR_OFF_CRC, want, have);
    memset(h, 0, sizeof *h);
    h->version = TRACE_VERSION;
    h->record_size = TRACE_RECORD_SIZE;
    h->source = get16(p + HDR_OFF_SOURCE);
    h->tb_hz = get64(p + HDR_OFF_TBHZ);
    h->core_hz = get64(p + HDR_OFF_COREHZ);
    if (h->source > TSRC__MAX)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %u: source %u is not a known "
                        "source (0..%u)",
                        name, HDR_OFF_SOURCE, h->source, TSRC__MAX);
    if (h->tb_hz == 0)
        return sim_fail(SIM_ERR_FORMAT, "%s: byte %u: tb_hz is 0", name,
                        HDR_OFF_TBHZ);
    if (h->core_hz == 0)
        return sim_fail(SIM_ERR_FORMAT, "%s: byte %u: core_hz is 0", name,
                        HDR_OFF_COREHZ);
    if (!all_zero(p + HDR_OFF_RESERVED, HDR_OFF_CRC - HDR_OFF_RESERVED))
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %u: reserved header bytes "
                        "are not zero",
                        name, HDR_OFF_RESERVED);
    sim_err e;
    if ((e = str_decode(name, p, HDR_OFF_WORKLOAD, sizeof h->workload,
                        "workload", h->workload)) ||
        (e = str_decode(name, p, HDR_OFF_TOOLVER, sizeof h->tool_version,
                        "tool_version", h->tool_version)) ||
        (e = str_decode(name, p, HDR_OFF_COSTLABEL, sizeof h->cost_label,
                        "cost_label", h->cost_label)))
        return e;
    return SIM_OK;
}

/* ---- footer ---- */
static uint64_t chunks_for(uint64_t n_records)
{
    return n_records / TRACE_CHUNK_RECORDS +
           (n_records % TRACE_CHUNK_RECORDS != 0);
}

static void footer_encode(unsigned char *p, const trace_footer *f)
{
    memset(p, 0, FOOTER_SIZE);
    memcpy(p, FOOTER_MAGIC, 8);
    put64(p + FTR_OFF_NREC, f->n_records);
    put64(p + FTR_OFF_NEXIT, f->n_exits);
    put64(p + FTR_OFF_NCHUNK, f->n_chunks);
    put64(p + FTR_OFF_FIRSTTB, f->first_tb);
    put64(p + FTR_OFF_LASTTB, f->last_tb);
    for (int i = 0; i < 8; i++)
        put64(p + FTR_OFF_KINDS + 8 * i, f->kind_counts[i]);
    for (int i = 0; i < TRACE_FOOTER_SLOTS; i++)
        put64(p + FTR_OFF_TYPES + 8 * i, f->type_counts[i]);
    put32(p + FTR_OFF_CRC, crc32(0, p, FTR_OFF_CRC));
}

/* Decodes the footer found at byte off and checks it against itself: the
 * kind counts add up to the records, the type counts to the exits, the
 * chunk count follows from the record count. */
static sim_err footer_decode(const char *name, const unsigned char *p,
                             uint64_t off, trace_footer *f)
{
    if (memcmp(p, FOOTER_MAGIC, 8) != 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %llu: bad footer magic "
                        "(expected \"%s\")",
                        name, (ull)off, FOOTER_MAGIC);
    uint32_t want = get32(p + FTR_OFF_CRC), have = crc32(0, p, FTR_OFF_CRC);
    if (want != have)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: footer at byte %llu: CRC mismatch "
                        "(stored 0x%08x, computed 0x%08x), the file is corrupt",
                        name, (ull)off, want, have);
    memset(f, 0, sizeof *f);
    f->n_records = get64(p + FTR_OFF_NREC);
    f->n_exits = get64(p + FTR_OFF_NEXIT);
    f->n_chunks = get64(p + FTR_OFF_NCHUNK);
    f->first_tb = get64(p + FTR_OFF_FIRSTTB);
    f->last_tb = get64(p + FTR_OFF_LASTTB);
    for (int i = 0; i < 8; i++)
        f->kind_counts[i] = get64(p + FTR_OFF_KINDS + 8 * i);
    for (int i = 0; i < TRACE_FOOTER_SLOTS; i++)
        f->type_counts[i] = get64(p + FTR_OFF_TYPES + 8 * i);

    const char *why = NULL;
    uint64_t kinds = 0, types = 0;
    bool wrapped = false;
    for (int i = 1; i <= TREC__MAX; i++) {
        wrapped |= kinds + f->kind_counts[i] < kinds;
        kinds += f->kind_counts[i];
    }
    for (int i = 0; i < EXIT__COUNT; i++) {
        wrapped |= types + f->type_counts[i] < types;
        types += f->type_counts[i];
    }
    if (get32(p + FTR_OFF_RESERVED) != 0)
        why = "reserved bytes are not zero";
    else if (f->kind_counts[0] || f->kind_counts[6] || f->kind_counts[7])
        why = "it counts records of kinds that do not exist";
    else if (wrapped || kinds != f->n_records)
        why = "its counts by kind do not add up to its record count";
    else if (f->kind_counts[TREC_EXIT] != f->n_exits)
        why = "its exit record count differs from its exit count";
    else if (types != f->n_exits)
        why = "its counts by exit type do not add up to its exit count";
    else if (f->n_chunks != chunks_for(f->n_records))
        why = "its chunk count does not follow from its record count";
    else if (f->n_records == 0 && (f->first_tb || f->last_tb))
        why = "an empty trace has first and last tb 0";
    if (!why)
        for (int i = EXIT__COUNT; i < TRACE_FOOTER_SLOTS; i++)
            if (f->type_counts[i])
                why = "it counts exits of types that do not exist";
    if (why)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: footer at byte %llu: %s, the file "
                        "is corrupt",
                        name, (ull)off, why);
    return SIM_OK;
}

/* Where the footer of a trace with f's counts must start. */
static uint64_t footer_offset_for(const trace_footer *f)
{
    return TRACE_HEADER_SIZE + f->n_chunks * CHUNK_HDR_SIZE +
           f->n_records * TRACE_RECORD_SIZE;
}

/* ======================= writer ======================= */
struct trace_writer {
    outfile o;
    char *path;
    unsigned char *buf; /* chunk header + up to TRACE_CHUNK_RECORDS records */
    uint32_t n;         /* records in buf */
    uint64_t off;       /* bytes written so far */
    trace_footer f;
    sim_err err; /* sticky: the first write error */
    char *errmsg;
};

/* Records the first write error so later calls report it too. */
static sim_err writer_fail_io(trace_writer *w, int err)
{
    if (!w->err) {
        w->err = sim_fail(SIM_ERR_IO, "%s: write failed at byte %llu: %s",
                          w->path, (ull)w->off, strerror(err));
        w->errmsg = strdup(sim_errmsg());
    }
    return w->err;
}

static sim_err writer_again(trace_writer *w)
{
    return sim_fail(w->err, "%s", w->errmsg ? w->errmsg : sim_strerror(w->err));
}

static sim_err writer_write(trace_writer *w, const void *p, size_t n)
{
    if (fwrite(p, 1, n, w->o.f) != n)
        return writer_fail_io(w, errno ? errno : EIO);
    w->off += n;
    return SIM_OK;
}

sim_err trace_writer_open(trace_writer **wp, const char *path,
                          const trace_header *h)
{
    *wp = NULL;
    if (strcmp(path, "-") == 0)
        return sim_fail(SIM_ERR_USAGE, "a binary trace cannot be written to "
                                       "stdout: give a file name");
    sim_err e = header_check(path, h);
    if (e)
        return e;
    trace_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path)) ||
        !(w->buf = malloc(CHUNK_HDR_SIZE + CHUNK_PAYLOAD_MAX))) {
        if (w)
            free(w->path);
        free(w);
        return sim_fail(SIM_ERR_NOMEM,
                        "%s: out of memory for the trace "
                        "writer",
                        path);
    }
    if ((e = outfile_open(&w->o, path))) {
        free(w->buf);
        free(w->path);
        free(w);
        return e;
    }
    unsigned char hb[TRACE_HEADER_SIZE];
    header_encode(hb, h);
    if ((e = writer_write(w, hb, sizeof hb))) {
        trace_writer_abort(w); /* keeps the message writer_write set */
        return e;
    }
    *wp = w;
    return SIM_OK;
}

static sim_err writer_flush_chunk(trace_writer *w)
{
    if (w->n == 0)
        return SIM_OK;
    if (w->f.n_chunks >= UINT32_MAX)
        return sim_fail(SIM_ERR_RANGE, "%s: more than %u chunks", w->path,
                        UINT32_MAX);
    size_t payload = (size_t)w->n * TRACE_RECORD_SIZE;
    unsigned char *p = w->buf;
    memcpy(p, CHUNK_MAGIC, 4);
    put32(p + 4, w->n);
    put32(p + 8, (uint32_t)w->f.n_chunks);
    /* The CRC covers the chunk header's first 12 bytes and the payload, so
     * a flipped count or index is caught as well as a flipped record. */
    uint32_t c = crc32(0, p, 12);
    put32(p + 12, crc32(c, p + CHUNK_HDR_SIZE, payload));
    sim_err e = writer_write(w, p, CHUNK_HDR_SIZE + payload);
    if (e)
        return e;
    w->f.n_chunks++;
    w->n = 0;
    return SIM_OK;
}

sim_err trace_writer_put(trace_writer *w, const trace_rec *r)
{
    if (w->err)
        return writer_again(w);
    if (__builtin_expect(!rec_ok(r), 0)) {
        char why[128];
        const char *p = rec_problem(r, why, sizeof why);
        return sim_fail(SIM_ERR_RANGE, "%s: record %llu: %s", w->path,
                        (ull)w->f.n_records, p ? p : "invalid");
    }
    unsigned char *dst =
        w->buf + CHUNK_HDR_SIZE + (size_t)w->n * TRACE_RECORD_SIZE;
#if TRACE_HOST_BE
    rec_encode(dst, r);
#else
    memcpy(dst, r, TRACE_RECORD_SIZE); /* the struct is the LE layout */
#endif
    if (w->f.n_records == 0)
        w->f.first_tb = r->tb;
    w->f.last_tb = r->tb;
    w->f.n_records++;
    w->f.kind_counts[r->kind]++;
    if (r->kind == TREC_EXIT) {
        w->f.n_exits++;
        w->f.type_counts[r->type]++;
    }
    if (++w->n == TRACE_CHUNK_RECORDS)
        return writer_flush_chunk(w);
    return SIM_OK;
}

static void writer_free(trace_writer *w)
{
    free(w->buf);
    free(w->path);
    free(w->errmsg);
    free(w);
}

sim_err trace_writer_close(trace_writer *w)
{
    sim_err e = w->err ? writer_again(w) : writer_flush_chunk(w);
    if (!e) {
        unsigned char tail[FOOTER_SIZE + TRAILER_SIZE];
        uint64_t footer_off = w->off;
        footer_encode(tail, &w->f);
        put64(tail + FOOTER_SIZE, footer_off);
        memcpy(tail + FOOTER_SIZE + 8, TRAILER_MAGIC, 8);
        e = writer_write(w, tail, sizeof tail);
    }
    if (e) {
        outfile_abort(&w->o);
        writer_free(w);
        return e;
    }
    e = outfile_commit(&w->o); /* fsync, rename; removes the temp on error */
    writer_free(w);
    return e;
}

void trace_writer_abort(trace_writer *w)
{
    if (!w)
        return;
    outfile_abort(&w->o);
    writer_free(w);
}

/* ======================= reader ======================= */

/* Mapped pages of a trace are given back RELEASE_BYTES at a time (each
 * madvise also flushes the TLB), so a trace of any size keeps a constant
 * footprint. */
#define RELEASE_BYTES (4u << 20)

/* The kernel's share of a plain replay of a mapped trace - page faults and
 * page-table updates as the reader moves in, unmapping behind it - was a
 * third of its time. For a trace of PREFAULT_MIN bytes or more a second
 * thread does it: it maps the PREFAULT_AHEAD bytes past the reader,
 * PREFAULT_STEP at a time, and gives back the pages behind it; on a second
 * core that overlaps the reader's own work. It sleeps until the reader has
 * moved PREFAULT_WAKE on (a few hundred wake-ups per GiB). */
#define PREFAULT_MIN   (8u << 20)
#define PREFAULT_AHEAD (8u << 20)
#define PREFAULT_STEP  (256u << 10)
#define PREFAULT_WAKE  (2u << 20)

typedef struct prefault {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const unsigned char *mem;
    uint64_t len, page;
    uint64_t want;     /* the reader's position: bytes below it are done */
    uint64_t released; /* pages below it were given back (or are claimed) */
    uint64_t wake_at;  /* the thread sleeps until want reaches it; 0: awake */
    bool stop;
} prefault;

/* Maps [p, p + n) (page-aligned) for reading: MADV_POPULATE_READ where the
 * kernel has it (5.14+), else a read of one byte per page. */
static void prefault_range(const unsigned char *p, uint64_t n, uint64_t page)
{
#ifdef MADV_POPULATE_READ
    if (madvise((void *)(uintptr_t)p, (size_t)n, MADV_POPULATE_READ) == 0)
        return;
#endif
    for (uint64_t i = 0; i < n; i += page)
        (void)*(const volatile unsigned char *)(p + i);
}

static void prefault_drop(const prefault *pf, uint64_t lo, uint64_t hi)
{
    (void)madvise((void *)(uintptr_t)(pf->mem + lo), (size_t)(hi - lo),
                  MADV_DONTNEED);
}

/* The pages of records the reader at pos is done with end here (it keeps
 * the 16 bytes before pos, the next chunk's header). */
static uint64_t prefault_done_upto(const prefault *pf, uint64_t pos)
{
    return (pos > CHUNK_HDR_SIZE ? pos - CHUNK_HDR_SIZE : 0) / pf->page *
           pf->page;
}

/* Under the lock: claims [released, upto) for giving back if it is at
 * least `least` bytes; returns its start, or UINT64_MAX if not. */
static uint64_t prefault_claim(prefault *pf, uint64_t upto, uint64_t least)
{
    if (upto < pf->released + least || upto <= pf->released)
        return UINT64_MAX;
    uint64_t lo = pf->released;
    pf->released = upto;
    return lo;
}

static void *prefault_main(void *arg)
{
    prefault *pf = arg;
    uint64_t mapped = 0;
    pthread_mutex_lock(&pf->mu);
    while (!pf->stop) {
        uint64_t want = pf->want, upto = prefault_done_upto(pf, want);
        uint64_t lo = prefault_claim(pf, upto, RELEASE_BYTES);
        if (lo != UINT64_MAX) { /* behind */
            pthread_mutex_unlock(&pf->mu);
            prefault_drop(pf, lo, upto);
            pthread_mutex_lock(&pf->mu);
            continue;
        }
        uint64_t to = (want + PREFAULT_AHEAD) / pf->page * pf->page;
        if (to > pf->len)
            to = pf->len; /* (steps start on a page: madvise wants that) */
        if (mapped < want / pf->page * pf->page)
            mapped = want / pf->page * pf->page;
        if (mapped < to) { /* ahead */
            uint64_t n = to - mapped < PREFAULT_STEP ? to - mapped
                                                      : PREFAULT_STEP;
            lo = mapped;
            mapped += n;
            pthread_mutex_unlock(&pf->mu);
            prefault_range(pf->mem + lo, n, pf->page);
            pthread_mutex_lock(&pf->mu);
            /* the reader may have passed the step and given its pages back
             * meanwhile: those just mapped again go back too */
            if (pf->released > lo) {
                uint64_t hi = pf->released < mapped ? pf->released : mapped;
                pthread_mutex_unlock(&pf->mu);
                prefault_drop(pf, lo, hi);
                pthread_mutex_lock(&pf->mu);
            }
            continue;
        }
        if (pf->want == want) {
            pf->wake_at = want + PREFAULT_WAKE;
            while (pf->wake_at && !pf->stop)
                pthread_cond_wait(&pf->cv, &pf->mu);
        }
    }
    pthread_mutex_unlock(&pf->mu);
    return NULL;
}

/* Starts the thread for a mapping; NULL (the reader then does it all
 * itself) if the trace is small or no thread can be made. */
static prefault *prefault_start(const unsigned char *mem, uint64_t len)
{
    if (len < PREFAULT_MIN)
        return NULL;
    prefault *pf = calloc(1, sizeof *pf);
    if (!pf)
        return NULL;
    pf->mem = mem;
    pf->len = len;
    pf->page = (uint64_t)sysconf(_SC_PAGESIZE);
    pthread_mutex_init(&pf->mu, NULL);
    pthread_cond_init(&pf->cv, NULL);
    /* signals (Ctrl-C) go to the program's threads, not to this one */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&pf->th, NULL, prefault_main, pf);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&pf->cv);
        pthread_mutex_destroy(&pf->mu);
        free(pf);
        return NULL;
    }
    return pf;
}

/* The reader is at byte pos: everything before is done with. If the
 * thread lags far behind (a busy machine), the reader gives the pages back
 * itself: memory stays bounded whatever the thread gets to run. */
static void prefault_advance(prefault *pf, uint64_t pos)
{
    pthread_mutex_lock(&pf->mu);
    pf->want = pos;
    if (pf->wake_at && pos >= pf->wake_at) {
        pf->wake_at = 0;
        pthread_cond_signal(&pf->cv);
    }
    uint64_t upto = prefault_done_upto(pf, pos);
    uint64_t lo = prefault_claim(pf, upto, 4 * RELEASE_BYTES);
    pthread_mutex_unlock(&pf->mu);
    if (lo != UINT64_MAX)
        prefault_drop(pf, lo, upto);
}

static void prefault_stop(prefault *pf)
{
    if (!pf)
        return;
    pthread_mutex_lock(&pf->mu);
    pf->stop = true;
    pthread_cond_signal(&pf->cv);
    pthread_mutex_unlock(&pf->mu);
    pthread_join(pf->th, NULL);
    pthread_cond_destroy(&pf->cv);
    pthread_mutex_destroy(&pf->mu);
    free(pf);
}

/* Bytes come from a file descriptor or from memory (fuzzing, tests). */
typedef struct source {
    int fd; /* -1: memory */
    const unsigned char *mem;
    uint64_t len;      /* memory only */
    bool mapped;       /* mem is an mmap of the file, unmapped on close */
    uint64_t released; /* mapped: pages below this offset were given back */
    prefault *pf;      /* mapped: the thread mapping pages ahead, or NULL */
} source;

/* Reads up to n bytes at off; *got < n only at the end of the input. A
 * file is read sequentially (off is then its current position), or with
 * pread when `positioned` (the footer path: files must be seekable there). */
static sim_err src_get(const source *s, const char *name, uint64_t off,
                       void *buf, size_t n, size_t *got, bool positioned)
{
    *got = 0;
    if (s->fd < 0) {
        uint64_t avail = off < s->len ? s->len - off : 0;
        *got = n < avail ? n : (size_t)avail;
        if (*got)
            memcpy(buf, s->mem + off, *got);
        return SIM_OK;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t k = positioned ? pread(s->fd, (char *)buf + done, n - done,
                                       (off_t)(off + done))
                               : read(s->fd, (char *)buf + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return sim_fail(SIM_ERR_IO, "%s: read failed at byte %llu: %s",
                            name, (ull)(off + done), strerror(errno));
        if (k == 0)
            break;
        done += (size_t)k;
    }
    *got = done;
    return SIM_OK;
}

static sim_err src_read(const source *s, const char *name, uint64_t off,
                        void *buf, size_t n, size_t *got)
{
    return src_get(s, name, off, buf, n, got, false);
}

static sim_err src_pread(const source *s, const char *name, uint64_t off,
                         void *buf, size_t n, size_t *got)
{
    return src_get(s, name, off, buf, n, got, true);
}

enum { RS_CHUNKS, RS_DONE, RS_FAILED };

struct trace_reader {
    char *name;
    source src;
    uint64_t pos; /* bytes consumed from the source */
    trace_header h;
    /* [0, 16): the next chunk header (read ahead with the previous payload),
     * [16, 16 + payload): records, then room for the following 16 bytes;
     * the footer + trailer + 1 probe byte also fit. It grows to the
     * largest chunk met (256 KiB at most), so small traces stay cheap. */
    unsigned char *buf;
    size_t cap;
    size_t peek; /* valid read-ahead bytes in buf[0, 16) */
    bool have_peek;
    bool short_seen; /* a chunk with < TRACE_CHUNK_RECORDS was read */
    int state;
    sim_err err;
    char *errmsg;
    trace_footer seen; /* accumulated from the chunks */
    trace_footer foot; /* the footer, once checked */
};

#define READER_BUF_MIN (FOOTER_SIZE + TRAILER_SIZE + 1)
_Static_assert(READER_BUF_MIN > 2 * CHUNK_HDR_SIZE, "footer room");

static sim_err reader_reserve(trace_reader *r, size_t need)
{
    if (need <= r->cap)
        return SIM_OK;
    unsigned char *b = realloc(r->buf, need); /* keeps the read-ahead */
    if (!b)
        return sim_fail(SIM_ERR_NOMEM, "%s: out of memory for a chunk",
                        r->name);
    r->buf = b;
    r->cap = need;
    return SIM_OK;
}

/* Makes an error sticky: the reader keeps returning it. */
static sim_err reader_fail(trace_reader *r, sim_err e)
{
    r->state = RS_FAILED;
    r->err = e;
    free(r->errmsg);
    r->errmsg = strdup(sim_errmsg());
    return e;
}

static sim_err reader_open_src(trace_reader **rp, const source *src,
                               const char *name)
{
    trace_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->name = strdup(name)) || !(r->buf = malloc(READER_BUF_MIN))) {
        if (r)
            free(r->name);
        free(r);
        return sim_fail(SIM_ERR_NOMEM,
                        "%s: out of memory for the trace "
                        "reader",
                        name);
    }
    r->src = *src;
    unsigned char hb[TRACE_HEADER_SIZE];
    size_t got;
    sim_err e = src_read(&r->src, name, 0, hb, sizeof hb, &got);
    if (!e)
        e = header_decode(name, hb, got, &r->h);
    if (e) {
        r->src.fd = -1; /* the caller owns the fd on failure */
        trace_reader_close(r);
        return e;
    }
    r->cap = READER_BUF_MIN;
    r->pos = got;
    *rp = r;
    return SIM_OK;
}

sim_err trace_reader_open(trace_reader **rp, const char *path)
{
    *rp = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return sim_fail(SIM_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
#ifdef POSIX_FADV_SEQUENTIAL
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    source s = {.fd = fd};
    /* A regular file is mapped and its records used in place: the copy of
     * read() was a fifth of a replay. Pages are given back as the reader
     * moves on (memory stays constant). Traces are renamed into place when
     * complete and never rewritten, so the mapping does not change under
     * the reader; pipes and other files are read(). */
    struct stat st;
    if (!TRACE_HOST_BE && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
                       0);
        if (m != MAP_FAILED) {
#ifdef __SANITIZE_ADDRESS__
            /* A region just mapped is addressable, but ASan's shadow can
             * still hold the poison of a stack that lived at that address
             * before: SystemC's coroutine stacks are mmap'd and unmapped
             * behind its back (a false stack-buffer-underflow otherwise). */
            ASAN_UNPOISON_MEMORY_REGION(m, (size_t)st.st_size);
#endif
            (void)madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
            close(fd);
            s = (source){.fd = -1, .mem = m, .len = (uint64_t)st.st_size,
                         .mapped = true};
        }
    }
    sim_err e = reader_open_src(rp, &s, path);
    if (e) {
        if (s.mapped)
            munmap((void *)(uintptr_t)s.mem, (size_t)s.len);
        else
            close(fd);
    } else if (s.mapped)
        (*rp)->src.pf = prefault_start(s.mem, s.len);
    return e;
}

sim_err trace_reader_open_mem(trace_reader **rp, const void *buf, size_t len,
                              const char *name)
{
    *rp = NULL;
    source s = {.fd = -1, .mem = buf, .len = len};
    return reader_open_src(rp, &s, name);
}

const trace_header *trace_reader_header(const trace_reader *r)
{
    return &r->h;
}

const trace_footer *trace_reader_footer(const trace_reader *r)
{
    return r->state == RS_DONE ? &r->foot : NULL;
}

/* Compares the footer with what the chunks held. */
static const char *footer_vs_seen(const trace_footer *f, const trace_footer *s,
                                  char *buf, size_t n)
{
    if (f->n_records != s->n_records)
        snprintf(buf, n, "it says %llu records, the chunks hold %llu",
                 (ull)f->n_records, (ull)s->n_records);
    else if (f->n_chunks != s->n_chunks)
        snprintf(buf, n, "it says %llu chunks, the file has %llu",
                 (ull)f->n_chunks, (ull)s->n_chunks);
    else if (f->first_tb != s->first_tb || f->last_tb != s->last_tb)
        snprintf(buf, n,
                 "its first/last tb %llu/%llu differ from the "
                 "records' %llu/%llu",
                 (ull)f->first_tb, (ull)f->last_tb, (ull)s->first_tb,
                 (ull)s->last_tb);
    else if (memcmp(f->kind_counts, s->kind_counts, sizeof f->kind_counts))
        snprintf(buf, n, "its counts by kind differ from the records'");
    else if (memcmp(f->type_counts, s->type_counts, sizeof f->type_counts))
        snprintf(buf, n, "its counts by exit type differ from the records'");
    else
        return NULL;
    return buf;
}

/* buf[0, 16) holds the start of the footer at r->pos - 16: read the rest,
 * the trailer and one probe byte that must not exist. */
static sim_err reader_footer(trace_reader *r)
{
    uint64_t off = r->pos - CHUNK_HDR_SIZE;
    size_t want = FOOTER_SIZE - CHUNK_HDR_SIZE + TRAILER_SIZE + 1, got;
    sim_err e =
        src_read(&r->src, r->name, r->pos, r->buf + CHUNK_HDR_SIZE, want, &got);
    if (e)
        return e;
    r->pos += got;
    if (got < want - 1)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte %llu: expected "
                        "the %u-byte footer and %u-byte trailer at byte %llu, "
                        "found %llu bytes",
                        r->name, (ull)r->pos, FOOTER_SIZE, TRAILER_SIZE,
                        (ull)off, (ull)(got + CHUNK_HDR_SIZE));
    if ((e = footer_decode(r->name, r->buf, off, &r->foot)))
        return e;
    char why[160];
    const char *p = footer_vs_seen(&r->foot, &r->seen, why, sizeof why);
    if (p)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: footer at byte %llu: %s, the file "
                        "is corrupt",
                        r->name, (ull)off, p);
    const unsigned char *t = r->buf + FOOTER_SIZE;
    if (memcmp(t + 8, TRAILER_MAGIC, 8) != 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %llu: bad trailer magic "
                        "(expected \"%s\")",
                        r->name, (ull)(off + FOOTER_SIZE + 8), TRAILER_MAGIC);
    if (get64(t) != off)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %llu: the trailer points at "
                        "byte %llu, the footer is at byte %llu",
                        r->name, (ull)(off + FOOTER_SIZE), (ull)get64(t),
                        (ull)off);
    if (got == want)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: trailing garbage at byte %llu: "
                        "the file goes on after the trailer",
                        r->name, (ull)(off + FOOTER_SIZE + TRAILER_SIZE));
    return SIM_OK;
}

/* Records per piece of a chunk that is CRC'd and then checked while it is
 * still in L1/L2: checking a whole chunk after its CRC reads it back
 * from L3 or memory, which cost as much as the CRC itself. */
#define PIECE_RECORDS 1024u

/* Per-chunk tallies of the hot loop. Exits are counted by type in two
 * interleaved tables (a run of one type would otherwise chain every
 * increment through one memory word) with 256 slots, so a bad type is
 * counted harmlessly and caught after the loop. */
typedef struct tally {
    uint32_t by_type[2][256];
    uint32_t by_kind[8];
    unsigned bad;
} tally;

static void tally_recs(tally *t, const trace_rec *recs, size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        const trace_rec *x = &recs[i];
        if (__builtin_expect(x->kind == TREC_EXIT, 1)) {
            t->by_type[i & 1][x->type]++;
            bad |= x->flags & ~TRF__ALL;
        } else {
            t->by_kind[x->kind & 7]++;
            bad |= !rec_ok(x);
        }
    }
    t->bad |= bad;
}

/* Adds a checked chunk's tally to what the reader has seen, or names its
 * first bad record (looked for only now: errors are rare). */
static sim_err reader_commit(trace_reader *r, const tally *t,
                             const trace_rec *recs, size_t n, uint64_t off)
{
    unsigned bad = t->bad;
    for (unsigned ty = EXIT__COUNT; ty < 256; ty++)
        bad |= t->by_type[0][ty] | t->by_type[1][ty];
    /* time in the guest is a table row, never an exit record */
    bad |= t->by_type[0][EXIT_TIMEINGUEST] | t->by_type[1][EXIT_TIMEINGUEST];
    trace_footer *s = &r->seen;
    if (bad) {
        size_t i = 0;
        while (i < n - 1 && rec_ok(&recs[i]))
            i++;
        char why[128];
        const char *p = rec_problem(&recs[i], why, sizeof why);
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: record %llu at byte %llu (chunk %llu): %s",
                        r->name, (ull)(s->n_records + i),
                        (ull)(off + i * TRACE_RECORD_SIZE), (ull)s->n_chunks,
                        p ? p : "invalid");
    }
    uint64_t others = 0;
    for (unsigned k = TREC_EXIT + 1; k <= TREC__MAX; k++) {
        s->kind_counts[k] += t->by_kind[k];
        others += t->by_kind[k];
    }
    s->kind_counts[TREC_EXIT] += n - others;
    for (unsigned ty = 0; ty < EXIT__COUNT; ty++)
        s->type_counts[ty] += (uint64_t)t->by_type[0][ty] + t->by_type[1][ty];
    if (s->n_records == 0)
        s->first_tb = recs[0].tb;
    s->last_tb = recs[n - 1].tb;
    s->n_records += n;
    s->n_exits = s->kind_counts[TREC_EXIT];
    s->n_chunks++;
    return SIM_OK;
}

static sim_err reader_step(trace_reader *r, const trace_rec **recs, size_t *n)
{
    unsigned char *b = r->buf;
    uint64_t at = r->pos; /* where the 16 bytes in b[0, 16) start */
    sim_err e;
    if (r->src.pf) /* the thread gives the pages back */
        prefault_advance(r->src.pf, r->pos);
    else if (r->src.mapped) {
        /* the records handed out last time are done with: give their pages
         * back, RELEASE_BYTES at a time */
        uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
        uint64_t upto = (r->pos > CHUNK_HDR_SIZE ? r->pos - CHUNK_HDR_SIZE : 0) /
                        page * page;
        if (upto >= r->src.released + RELEASE_BYTES) {
            (void)madvise((void *)(uintptr_t)(r->src.mem + r->src.released),
                          (size_t)(upto - r->src.released), MADV_DONTNEED);
            r->src.released = upto;
        }
    }
    if (r->have_peek) {
        at -= r->peek;
    } else {
        if ((e = src_read(&r->src, r->name, r->pos, b, CHUNK_HDR_SIZE,
                          &r->peek)))
            return e;
        r->pos += r->peek;
    }
    r->have_peek = false;
    uint64_t k = r->seen.n_chunks;
    if (r->peek == 0)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte %llu: the footer "
                        "is missing (the writer did not finish)",
                        r->name, (ull)at);
    if (r->peek < CHUNK_HDR_SIZE)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte %llu: expected "
                        "the 16-byte header of chunk %llu or the footer at "
                        "byte %llu, found %zu bytes",
                        r->name, (ull)(at + r->peek), (ull)k, (ull)at, r->peek);
    if (memcmp(b, FOOTER_MAGIC, 8) == 0) {
        if ((e = reader_footer(r)))
            return e;
        r->state = RS_DONE;
        *n = 0;
        return SIM_OK;
    }
    if (memcmp(b, CHUNK_MAGIC, 4) != 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %llu: bad chunk magic "
                        "(expected \"%s\" of chunk %llu, or the footer)",
                        r->name, (ull)at, CHUNK_MAGIC, (ull)k);
    uint32_t count = get32(b + 4), index = get32(b + 8);
    if (index != k)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: chunk %llu at byte %llu: its "
                        "header says chunk %u, the file is corrupt",
                        r->name, (ull)k, (ull)at, index);
    if (count == 0 || count > TRACE_CHUNK_RECORDS)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: chunk %llu at byte %llu: record "
                        "count %u, expected 1..%u",
                        r->name, (ull)k, (ull)at, count, TRACE_CHUNK_RECORDS);
    if (r->short_seen)
        return sim_fail(
            SIM_ERR_FORMAT,
            "%s: chunk %llu at byte %llu: follows "
            "a short chunk (only the last chunk may hold fewer than "
            "%u records)",
            r->name, (ull)k, (ull)at, TRACE_CHUNK_RECORDS);
    size_t payload = (size_t)count * TRACE_RECORD_SIZE, got;
    if ((e = reader_reserve(r, CHUNK_HDR_SIZE + payload + CHUNK_HDR_SIZE)))
        return e;
    b = r->buf;
    trace_rec *out;
    const source *src = &r->src;
    if (!TRACE_HOST_BE && src->fd < 0 &&
        ((uintptr_t)(src->mem + r->pos) & 7) == 0) {
        /* In memory (an mmap of the file): the records are used where they
         * lie, read-only, with no copy. */
        uint64_t avail = r->pos < src->len ? src->len - r->pos : 0;
        size_t want = payload + CHUNK_HDR_SIZE;
        got = want < avail ? want : (size_t)avail;
        out = (trace_rec *)(uintptr_t)(src->mem + r->pos);
    } else {
        if ((e = src_read(&r->src, r->name, r->pos, b + CHUNK_HDR_SIZE,
                          payload + CHUNK_HDR_SIZE, &got)))
            return e;
        out = (trace_rec *)(void *)(b + CHUNK_HDR_SIZE);
    }
    r->pos += got;
    if (got < payload)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte %llu: expected "
                        "%zu bytes of chunk %llu, found %zu",
                        r->name, (ull)r->pos, payload, (ull)k, got);
    /* CRC and record checks fused piece by piece; the CRC verdict comes
     * first since a bad record in a chunk with a bad CRC is its symptom. */
    tally t;
    memset(&t, 0, sizeof t);
    uint32_t c = crc32(0, b, 12);
    for (size_t i = 0; i < count; i += PIECE_RECORDS) {
        size_t m = count - i < PIECE_RECORDS ? count - i : PIECE_RECORDS;
        c = crc32(c, out + i, m * TRACE_RECORD_SIZE);
#if TRACE_HOST_BE
        recs_from_le(out + i, m);
#endif
        tally_recs(&t, out + i, m);
    }
    if (c != get32(b + 12))
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: chunk %llu at byte %llu: CRC "
                        "mismatch, the file is corrupt",
                        r->name, (ull)k, (ull)at);
    if ((e = reader_commit(r, &t, out, count, at + CHUNK_HDR_SIZE)))
        return e;
    /* The bytes after the payload are the next chunk header (or the start
     * of the footer): keep them for the next call. */
    r->peek = got - payload;
    memcpy(b, (const unsigned char *)out + payload, r->peek);
    r->have_peek = true;
    r->short_seen = count < TRACE_CHUNK_RECORDS;
    *recs = out;
    *n = count;
    return SIM_OK;
}

sim_err trace_reader_next(trace_reader *r, const trace_rec **recs, size_t *n)
{
    *recs = NULL;
    *n = 0;
    if (r->state == RS_DONE)
        return SIM_OK;
    if (r->state == RS_FAILED)
        return sim_fail(r->err, "%s", r->errmsg ? r->errmsg : "");
    sim_err e = reader_step(r, recs, n);
    if (e) {
        *recs = NULL;
        *n = 0;
        return reader_fail(r, e);
    }
    return SIM_OK;
}

void trace_reader_close(trace_reader *r)
{
    if (!r)
        return;
    if (r->src.fd >= 0)
        close(r->src.fd);
    prefault_stop(r->src.pf);
    if (r->src.mapped)
        munmap((void *)(uintptr_t)r->src.mem, (size_t)r->src.len);
    free(r->buf);
    free(r->name);
    free(r->errmsg);
    free(r);
}

/* ---- footer by seeking ---- */
static sim_err read_footer_src(const source *s, uint64_t size, const char *name,
                               trace_header *h, trace_footer *f)
{
    unsigned char hb[TRACE_HEADER_SIZE];
    size_t got;
    sim_err e = src_pread(s, name, 0, hb, sizeof hb, &got);
    if (e || (e = header_decode(name, hb, got, h)))
        return e;
    if (size < MIN_FILE_SIZE)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte %llu: a trace "
                        "has at least %u bytes (header, footer, trailer)",
                        name, (ull)size, MIN_FILE_SIZE);
    unsigned char t[TRAILER_SIZE];
    uint64_t toff = size - TRAILER_SIZE;
    if ((e = src_pread(s, name, toff, t, sizeof t, &got)))
        return e;
    if (got < sizeof t)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte %llu: expected "
                        "the trailer",
                        name, (ull)(toff + got));
    if (memcmp(t + 8, TRAILER_MAGIC, 8) != 0)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: no trailer at byte %llu (the last "
                        "16 bytes): the file is truncated, was not closed by "
                        "its writer, or has trailing bytes",
                        name, (ull)toff);
    uint64_t foff = get64(t);
    if (foff != toff - FOOTER_SIZE)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: byte %llu: the trailer points at "
                        "byte %llu, the footer must be at byte %llu",
                        name, (ull)toff, (ull)foff, (ull)(toff - FOOTER_SIZE));
    unsigned char fb[FOOTER_SIZE];
    if ((e = src_pread(s, name, foff, fb, sizeof fb, &got)))
        return e;
    if (got < sizeof fb)
        return sim_fail(SIM_ERR_TRUNC,
                        "%s: truncated at byte %llu: expected "
                        "the footer",
                        name, (ull)(foff + got));
    if ((e = footer_decode(name, fb, foff, f)))
        return e;
    /* The counts fix the footer's position: a cheap check that the file
     * holds as many bytes of chunks as the footer claims. The record count
     * is bounded first so the product cannot wrap. */
    if (f->n_records > size / TRACE_RECORD_SIZE || footer_offset_for(f) != foff)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: footer at byte %llu: %llu records "
                        "in %llu chunks do not fit before it, the file is "
                        "corrupt",
                        name, (ull)foff, (ull)f->n_records, (ull)f->n_chunks);
    return SIM_OK;
}

sim_err trace_read_footer(const char *path, trace_header *h, trace_footer *f)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return sim_fail(SIM_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sim_fail(SIM_ERR_IO,
                        "%s: not a regular file (the footer is "
                        "read by seeking)",
                        path);
    }
    source s = {.fd = fd};
    sim_err e = read_footer_src(&s, (uint64_t)st.st_size, path, h, f);
    close(fd);
    return e;
}

sim_err trace_read_footer_mem(const void *buf, size_t len, const char *name,
                              trace_header *h, trace_footer *f)
{
    source s = {.fd = -1, .mem = buf, .len = len};
    return read_footer_src(&s, len, name, h, f);
}

sim_err trace_reader_pass(trace_reader *r, const trace_pass *p,
                          uint64_t *n_records)
{
    uint64_t done = 0;
    sim_err e = p->header ? p->header(p->ctx, &r->h) : SIM_OK;
    while (e == SIM_OK) {
        const trace_rec *recs;
        size_t n;
        if ((e = trace_reader_next(r, &recs, &n)) || n == 0)
            break;
        if (p->chunk && (e = p->chunk(p->ctx, recs, n)))
            break;
        done += n;
        if (p->progress)
            p->progress(p->progress_ctx, done, p->total);
    }
    if (n_records)
        *n_records = done;
    return e;
}

sim_err trace_pass_file(const char *path, const trace_pass *p,
                        uint64_t *n_records)
{
    trace_reader *r;
    sim_err e = trace_reader_open(&r, path);
    if (e) {
        if (n_records)
            *n_records = 0;
        return e;
    }
    e = trace_reader_pass(r, p, n_records);
    trace_reader_close(r);
    return e;
}

trace_footer trace_footer_hint(const char *path)
{
    trace_header h;
    trace_footer f;
    if (trace_read_footer(path, &h, &f) != SIM_OK)
        memset(&f, 0, sizeof f);
    sim_clear_error();
    return f;
}

sim_err trace_verify(const char *path, uint64_t *n_records)
{
    return trace_pass_file(path, &(trace_pass){0}, n_records);
}
